/**
 * The contract's optional actions of channel-whatsapp reached from a real core (the plugin as
 * the host loaded it, on fake sockets: live-plugin.ts): the agent holding a ticket opening it
 * sends WhatsApp's read receipts for the customer's messages, and a contact's number is
 * validated on WhatsApp from POST /contacts/:id/validate-whatsapp.
 */
import { createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { useFakeWhatsApp, type FakeWhatsApp } from "./live-plugin";
import { textMessage, type FakeSocket } from "./session/support/fake-socket";

jest.setTimeout(60_000);

let t: TestCore;
let f: TenantFixture;
let wa: FakeWhatsApp;
let sock: FakeSocket;
let connectionId: number;

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 10_000): Promise<T> {
  for (const t0 = Date.now(); ; ) {
    const v = await probe();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `wa-optional-${uid()}` } });
  wa = await useFakeWhatsApp(t.core.broker);
  f = await createTenant(t, { tier: "PLUS" });
  const c = await t.api.post<{ id: number }>("/connections", { type: "channel-whatsapp", name: `WhatsApp ${uid()}`, settings: {}, queueId: f.queueIds[0] }, f.admin);
  expect(c.status).toBe(201);
  connectionId = c.body.id;
  await t.api.post(`/connections/${connectionId}/connect`, {}, f.admin);
  sock = await until("the socket", async () => wa.factory.of(connectionId)[0]);
  sock.open();
  await until("connected", async () => (await t.api.get<{ status: string }>(`/connections/${connectionId}`, f.admin)).body.status === "connected");
});
afterAll(async () => {
  await t?.stop();
});

it("the core knows the plugin's optional actions from its manifest", async () => {
  expect(await t.core.broker.call("plugins.channelFor", { type: "channel-whatsapp" })).toMatchObject({ receipts: true, numberCheck: true });
});

it("the agent holding the ticket opening it reads the customer's messages on WhatsApp", async () => {
  const chat = `5511${Math.floor(960_000_000 + Math.random() * 9_999_999)}@s.whatsapp.net`;
  const ids = [`IN${uid()}A`.toUpperCase(), `IN${uid()}B`.toUpperCase()];
  sock.upsert([textMessage({ id: ids[0], from: chat, text: "oi" })], "notify");
  const ticketId = await until("the ticket", async () => {
    const r = (await t.core.broker.call("messages.findByProvider", { tenantId: f.tenantId, connectionId, providerId: ids[0] })) as { ticketId: number } | null;
    return r?.ticketId;
  });
  expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.agent)).status).toBe(200);
  sock.upsert([textMessage({ id: ids[1], from: chat, text: "alguém aí?" })], "notify");
  await until("the second message", async () => t.core.broker.call("messages.findByProvider", { tenantId: f.tenantId, connectionId, providerId: ids[1] }));
  expect(sock.readKeys).toEqual([]);

  expect((await t.api.get(`/messages/${ticketId}`, f.agent)).status).toBe(200);
  const keys = await until("the read receipt", async () => sock.readKeys[0]);
  expect(keys).toEqual(ids.map((id) => ({ remoteJid: chat, id, fromMe: false })));
});

it("a contact's number with an account is validated; one without is ERR_CONTACT_NUMBER_INVALID", async () => {
  const contact = async (number: string) => (await t.api.post<{ id: number }>("/contacts", { name: `Cliente ${uid()}`, number }, f.admin)).body.id;
  const yes = await contact("5511977001122");
  const ok = await t.api.post<{ whatsappValidated: boolean }>(`/contacts/${yes}/validate-whatsapp`, {}, f.agent);
  expect(ok.status).toBe(200);
  expect(ok.body.whatsappValidated).toBe(true);

  sock.notOnWhatsApp.add("5511977003344");
  const no = await contact("5511977003344");
  const refused = await t.api.post<{ error: string }>(`/contacts/${no}/validate-whatsapp`, {}, f.agent);
  expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: "ERR_CONTACT_NUMBER_INVALID" });
});
