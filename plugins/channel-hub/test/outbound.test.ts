/**
 * Agents' messages out through the hub from a real core (gateway, MariaDB, Redis) against a
 * local NotificaMe: from the connection's channel with its account token, each variant's
 * contents, files by signed links, statuses as acks, one send per message id, and the hub's
 * refusals as the manifest's codes.
 */
import { createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import type { SendResult } from "@openatende/plugin-sdk";
import { FakeNotificaMe } from "./fake-notificame";
import { connectHub, messagesOf, ticketWithMessages, waitFor, LOOPBACK_FAKES, type HubConnection } from "./helpers";

describe("hub channel outbound, real core", () => {
  let hub: FakeNotificaMe;
  let t: TestCore;
  let f: TenantFixture;
  let c: HubConnection;

  beforeAll(async () => {
    hub = await FakeNotificaMe.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PLUS" });
    c = await connectHub(t, f, hub, { name: "Instagram da loja" });
  });
  afterAll(async () => {
    await t?.stop();
    await hub?.close();
  });

  const visitor = () => ({ from: `17841${Math.floor(1e9 + Math.random() * 8e9)}`, name: `Ana ${uid()}` });
  const deliver = (conn: HubConnection, event: unknown) => hub.post(conn.channel.id, event, { origin: t.url });

  it("an agent's reply goes out from the connection's hub channel with its account token; statuses move it forward", async () => {
    const who = visitor();
    await deliver(c, hub.messageEvent(c.channel.id, { ...who, text: "Quero trocar um produto" }));
    const { ticket } = await ticketWithMessages(t, f.admin, who.name, 1);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, f.agent)).status).toBe(200);
    const r = await t.api.post(`/messages/${ticket.id}`, { body: "Claro! Qual o número do pedido?" }, f.agent);
    expect(r.body).toMatchObject({ fromMe: true, status: "sent" });
    const sent = hub.sends.at(-1)!;
    expect(sent).toMatchObject({ variant: "instagram", apiToken: c.channel.apiToken, from: c.channel.id, to: who.from, contents: [{ type: "text", text: "Claro! Qual o número do pedido?" }] });
    expect(r.body.providerId).toBe(sent.id);
    const status = async () => (await messagesOf(t, f.admin, ticket.id)).find((m) => m.providerId === sent.id)!.status;
    expect((await deliver(c, hub.statusEvent(c.channel.id, sent.id, "DELIVERED"))).body).toMatchObject({ result: "acked" });
    expect(await status()).toBe("delivered");
    await deliver(c, hub.statusEvent(c.channel.id, sent.id, "READ"));
    expect(await status()).toBe("read");
    await deliver(c, hub.statusEvent(c.channel.id, sent.id, "DELIVERED"));
    expect(await status()).toBe("read");
  });

  it("a status that overtakes its send's answer is applied once the answer arrives", async () => {
    const who = visitor();
    await deliver(c, hub.messageEvent(c.channel.id, { ...who, text: "Vocês abrem domingo?" }));
    const { ticket } = await ticketWithMessages(t, f.admin, who.name, 1);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, f.agent)).status).toBe(200);
    const before = hub.sends.length;
    hub.sendDelayMs = 600;
    try {
      const reply = t.api.post(`/messages/${ticket.id}`, { body: "Abrimos sim, das 9h às 13h." }, f.agent);
      const sent = await waitFor("the send at the hub", async () => hub.sends.length > before && hub.sends.at(-1)!);
      // The hub reports it delivered while our send still waits for its answer.
      const status = await deliver(c, hub.statusEvent(c.channel.id, sent.id, "DELIVERED"));
      expect(status).toMatchObject({ status: 200, body: { result: "acked" } });
      expect((await reply).body).toMatchObject({ providerId: sent.id });
      const mine = (await messagesOf(t, f.admin, ticket.id)).find((m) => m.providerId === sent.id)!;
      expect(mine.status).toBe("delivered");
    } finally {
      hub.sendDelayMs = 0;
    }
  });

  it("a file goes by a signed link the hub can fetch, and only that link", async () => {
    const pdf = Buffer.from("%PDF-1.4 boleto de teste");
    const res = (await t.core.broker.call("v1.channel-hub.send", {
      tenantId: f.tenantId,
      connectionId: c.id,
      to: { externalId: "1784100000001" },
      message: { kind: "media", body: "Segue o boleto", media: { data: pdf.toString("base64"), mimeType: "application/pdf", fileName: "boleto.pdf" } },
      messageId: 900001,
    })) as SendResult;
    const sent = hub.sends.find((s) => s.id === res.providerMessageId)!;
    expect(sent.contents).toEqual([{ type: "file", fileUrl: expect.any(String), fileMimeType: "document", fileName: "boleto.pdf", fileCaption: "Segue o boleto" }]);
    const link = new URL(sent.contents[0].fileUrl);
    const got = await fetch(`${t.url}${link.pathname}${link.search}`);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(pdf);
    const forged = link.pathname.replace(/\/media\/(\d+)\//, (_m, e) => `/media/${Number(e) + 1}/`);
    expect((await fetch(`${t.url}${forged}${link.search}`)).status).toBe(404);
  });

  it("a send handed over again with the same message id goes to the hub once; a failure the hub reports can go again", async () => {
    const send = (messageId: number, body: string) =>
      t.core.broker.call("v1.channel-hub.send", { tenantId: f.tenantId, connectionId: c.id, to: { externalId: "1784100000002" }, message: { kind: "text", body }, messageId }) as Promise<SendResult>;
    const before = hub.sends.length;
    const [a, b] = await Promise.all([send(900002, "uma vez só"), send(900002, "uma vez só")]);
    const again = await send(900002, "uma vez só");
    expect(hub.sends.length - before).toBe(1);
    expect(b.providerMessageId).toBe(a.providerMessageId);
    expect(again.providerMessageId).toBe(a.providerMessageId);

    hub.failNextSend(500, "internal error");
    await expect(send(900003, "depois do erro")).rejects.toMatchObject({ type: "ERR_HUB_UNAVAILABLE", code: 503 });
    const retried = await send(900003, "depois do erro");
    expect(hub.sends.filter((s) => s.id === retried.providerMessageId)).toHaveLength(1);

    hub.failNextSend(400, "recipient cannot receive messages");
    await expect(send(900004, "recusada")).rejects.toMatchObject({ type: "ERR_HUB_SEND_REJECTED", data: { reason: "recipient cannot receive messages" } });
    await expect(
      t.core.broker.call("v1.channel-hub.send", { tenantId: f.tenantId, connectionId: c.id, to: { externalId: "não é id" }, message: { kind: "text", body: "x" } }),
    ).rejects.toMatchObject({ type: "ERR_HUB_RECIPIENT_INVALID" });
  });

  it("e-mail: a customer's e-mail opens a ticket by address; the reply goes as an e-mail with the connection's subject", async () => {
    const m = await connectHub(t, f, hub, { name: `E-mail ${uid()}`, variant: "email", settings: { emailSubject: "Loja Exemplo" } });
    const name = `Edu ${uid()}`;
    const address = `edu.${uid()}@example.com`;
    const event = hub.messageEvent(m.channel.id, { from: address, name, contents: [{ type: "email", subject: "Nota fiscal", html: "<p>Preciso da <b>nota</b></p>" }] });
    expect((await deliver(m, event)).body.result).toBe("stored");
    const { ticket, messages } = await ticketWithMessages(t, f.admin, name, 1);
    expect(messages[0].body).toBe("Nota fiscal\n\nPreciso da nota");
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, f.agent)).status).toBe(200);
    await t.api.post(`/messages/${ticket.id}`, { body: "Segue <a nota>\nObrigado" }, f.agent);
    expect(hub.sends.at(-1)).toMatchObject({ variant: "email", from: m.channel.id, to: address, contents: [{ type: "email", subject: "Loja Exemplo", html: "Segue &lt;a nota&gt;<br>Obrigado" }] });
  });

  it("a token the hub no longer accepts fails the send with a clear code and shows the connection needs new credentials", async () => {
    const d = await connectHub(t, f, hub, { name: `Telegram ${uid()}`, variant: "telegram" });
    hub.failNextSend(401, "Invalid API token");
    await expect(
      t.core.broker.call("v1.channel-hub.send", { tenantId: f.tenantId, connectionId: d.id, to: { externalId: "12345678" }, message: { kind: "text", body: "oi" } }),
    ).rejects.toMatchObject({ type: "ERR_HUB_TOKEN_REFUSED" });
    const view = await waitFor("the connection to show it is disconnected", async () => {
      const r = await t.api.get(`/connections/${d.id}`, f.admin);
      return r.body.status === "disconnected" ? r.body : null;
    });
    expect(view.statusDetail).toMatch(/API token/);
  });
});
