/**
 * SMS both ways on a real core against the local Comtele: a customer's reply becomes a ticket
 * (once, however often Comtele posts it); an agent's answer goes out through Comtele's API with
 * the account's key, its delivery reports become acks that never go back; without credits a
 * send is refused with the code and Comtele hears nothing; a message handed over again is never
 * sent twice, even when Comtele took it and its answer was lost; a callback with a wrong secret
 * is refused and stores nothing.
 */
import { createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import type { SendResult } from "@openatende/plugin-sdk";
import { FakeComtele, type FakeAccount } from "./fake-comtele";
import { connectSms, LOOPBACK_FAKES, messagesOf, ticketsOf, waitFor, WEBHOOK_SECRET, type SmsConnection } from "./helpers";

describe("SMS messages, real core", () => {
  let api: FakeComtele;
  let t: TestCore;
  let f: TenantFixture;
  let c: SmsConnection & { status: string };
  let account: FakeAccount;
  const customer = { number: `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}`, name: `Carla ${uid()}` };
  let ticketId: number;

  const sendRequests = () => api.requests.filter((r) => r.path === "/api/v2/send" && r.headers["auth-key"] === account.token);
  const pluginSend = (body: string, messageId: number) =>
    t.core.broker.call("v1.channel-sms.send", { tenantId: f.tenantId, connectionId: c.id, to: { externalId: customer.number }, message: { kind: "text", body }, messageId }) as Promise<SendResult>;

  beforeAll(async () => {
    api = await FakeComtele.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PREMIUM" });
    account = api.addAccount({ credits: 20 });
    c = await connectSms(t, f, api, account, "SMS atendimento");
    expect(c.status).toBe("connected");
  });
  afterAll(async () => {
    await t?.stop();
    await api?.close();
  });

  it("a customer's SMS becomes a ticket with the message, once however often Comtele posts it", async () => {
    const at = new Date(Date.now() - 5000);
    expect(await api.reply(account.token, { from: customer.number, name: customer.name, text: "Olá, meu pedido não chegou", at })).toBe(200);
    const [ticket] = await waitFor("the customer's ticket", async () => {
      const list = await ticketsOf(t, f.admin, customer.name);
      return list.length ? list : null;
    });
    ticketId = ticket.id;
    expect(ticket.contact.number).toBe(customer.number);
    // Comtele posts the same reply again (no 2xx seen, say): still one message.
    expect(await api.reply(account.token, { from: customer.number, name: customer.name, text: "Olá, meu pedido não chegou", at })).toBe(200);
    const messages = await messagesOf(t, f.admin, ticketId);
    expect(messages.map((m) => [m.fromMe, m.body])).toEqual([[false, "Olá, meu pedido não chegou"]]);
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.agent)).status).toBe(200);
  });

  it("an agent's answer goes through Comtele's API with the account's key, and its reports become acks that never go back", async () => {
    const before = account.credits;
    const r = await t.api.post(`/messages/${ticketId}`, { body: "Oi Carla! Vou verificar agora." }, f.agent);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ fromMe: true, status: "sent" });
    const req = sendRequests().at(-1)!;
    expect(req.headers["content-type"]).toMatch(/application\/json/);
    expect(req.body).toEqual({ Sender: "", Receivers: customer.number, Content: "Oi Carla! Vou verificar agora." });
    const sms = api.sendsOf(account.token).at(-1)!;
    expect(r.body.providerId).toBe(sms.id);
    expect(account.credits).toBe(before - 1);

    const statusOf = async () => (await messagesOf(t, f.admin, ticketId)).find((m) => m.id === r.body.id)!.status;
    expect(await api.report(sms.id, "DELIVRD")).toBe(200);
    await waitFor("delivered", async () => (await statusOf()) === "delivered");
    // A late "en route" and a stray failure after delivery do not take it back.
    expect(await api.report(sms.id, "ENROUTE")).toBe(200);
    expect(await api.report(sms.id, "UNDELIV")).toBe(200);
    expect(await statusOf()).toBe("delivered");
  });

  it("an undelivered report marks the message failed with Comtele's reason", async () => {
    const r = await t.api.post(`/messages/${ticketId}`, { body: "Conseguiu ver?" }, f.agent);
    const sms = api.sendsOf(account.token).at(-1)!;
    expect(await api.report(sms.id, "UNDELIV", { SystemMessage: "Número desativado" })).toBe(200);
    const m = await waitFor("failed", async () => (await messagesOf(t, f.admin, ticketId)).find((x) => x.id === r.body.id && x.status === "failed"));
    expect(m.failReason).toBe("Número desativado");
  });

  it("a message handed over again is answered from the sent log, never sent twice", async () => {
    const messageId = 900_000_000 + Math.floor(Math.random() * 1_000_000);
    const n = sendRequests().length;
    const first = await pluginSend("Repetida?", messageId);
    const again = await pluginSend("Repetida?", messageId);
    expect(again).toEqual(first);
    expect(sendRequests().length).toBe(n + 1);
    // Comtele took it and the answer was lost: the repeat is refused, not sent again.
    api.failNextSend("reset");
    const lost = messageId + 1;
    await expect(pluginSend("Chegou?", lost)).rejects.toMatchObject({ type: "ERR_SMS_SEND_UNCONFIRMED" });
    await expect(pluginSend("Chegou?", lost)).rejects.toMatchObject({ type: "ERR_SMS_SEND_UNCONFIRMED" });
    expect(api.sendsOf(account.token).filter((m) => m.content === "Chegou?")).toHaveLength(1);
  });

  it("without credits a send is refused with ERR_SMS_NO_CREDITS and Comtele hears nothing", async () => {
    account.credits = 0;
    const n = sendRequests().length;
    const r = await t.api.post(`/messages/${ticketId}`, { body: "Sem créditos" }, f.agent);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: "failed", failReason: "ERR_SMS_NO_CREDITS" });
    await expect(pluginSend("Sem créditos", 800_000_001)).rejects.toMatchObject({ type: "ERR_SMS_NO_CREDITS", data: { balance: 0, needed: 1 } });
    // A text of two parts with one credit left: refused too.
    account.credits = 1;
    await expect(pluginSend("x".repeat(200), 800_000_002)).rejects.toMatchObject({ type: "ERR_SMS_NO_CREDITS", data: { balance: 1, needed: 2 } });
    expect(sendRequests().length).toBe(n);
    expect((await t.api.post("/sms/credits", { token: c.token }, f.admin)).body.credits).toBe(1);
    // Credits bought: the same message id goes out (a refusal keeps no claim on it).
    account.credits = 10;
    await expect(pluginSend("Sem créditos", 800_000_001)).resolves.toMatchObject({ providerMessageId: expect.any(String) });
    expect(sendRequests().length).toBe(n + 1);
  });

  it("a callback with a wrong secret answers 401 and stores nothing; an unknown connection 404", async () => {
    const wrong = `${t.url}/api/sms/${c.token}/${WEBHOOK_SECRET.slice(0, -1)}X/inbound`;
    const stranger = { Sender: "5511955554444", SenderName: `Intruso ${uid()}`, ReceivedContent: "forjada", ReceivedDate: new Date().toISOString() };
    const r = await api.post(wrong, stranger);
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ error: "ERR_TOKEN_INVALID" });
    expect((await api.post(`${t.url}/api/sms/${c.token}/${WEBHOOK_SECRET.slice(1)}/status`, { RequestUniqueId: "x", DlrStatus: "DELIVRD" })).status).toBe(401);
    expect((await api.post(`${t.url}/api/sms/no-such-connection-token/${WEBHOOK_SECRET}/inbound`, stranger)).status).toBe(404);
    // The right secret with a body Comtele never sends: the provider's mistake, 400.
    expect((await api.post(`${t.url}/api/sms/${c.token}/${WEBHOOK_SECRET}/inbound`, { nothing: true })).status).toBe(400);
    expect(await ticketsOf(t, f.admin, stranger.SenderName)).toEqual([]);
  });

  it("an invalid number is refused with ERR_SMS_NUMBER_INVALID before anything is sent", async () => {
    const n = sendRequests().length;
    await expect(
      t.core.broker.call("v1.channel-sms.send", { tenantId: f.tenantId, connectionId: c.id, to: { externalId: "12345" }, message: { kind: "text", body: "oi" }, messageId: 700_000_001 }),
    ).rejects.toMatchObject({ type: "ERR_SMS_NUMBER_INVALID", data: { number: "12345" } });
    expect(sendRequests().length).toBe(n);
  });
});
