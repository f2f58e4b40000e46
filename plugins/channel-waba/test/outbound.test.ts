/**
 * Agents' messages out through the Cloud API from the real core: the exact request bodies,
 * files uploaded then sent by id, statuses that only move forward, Meta's refusals recorded on
 * the message, throttling retried with back-off (never a hot loop, never twice), and a refused
 * token turning the connection to "needs new credentials" (WHATSAPP.md §7.2 items 4–8).
 */
import { createTenant, startCore, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import type { SendResult } from "@openatende/plugin-sdk";
import { FakeGraph, TOKEN_EXPIRED } from "./fake-graph";
import { connectionOf, connectWaba, LOOPBACK_FAKES, messagesOf, newCustomer, pluginService, ticketWithMessages, waitFor, type MessageView, type WabaConnection } from "./helpers";
import { envelope, messagesValue, status, textMessage } from "./meta-payloads";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

describe("WABA outbound, real core", () => {
  let graph: FakeGraph;
  let t: TestCore;
  let f: TenantFixture;
  let c: WabaConnection;
  const who = newCustomer("Davi");
  let ticketId: number;
  let inbound: MessageView;

  beforeAll(async () => {
    graph = await FakeGraph.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PLUS" });
    // Back-off waits shortened: 3 retries of 30, 60 and 90 ms.
    pluginService(t).settings.retryMs = [30, 60, 90];
    c = await connectWaba(t, f, graph, { name: "WABA saída" });
    const first = textMessage(who, "Oi, quero falar com alguém");
    await FakeGraph.deliver(c.webhook, envelope([{ wabaId: c.number.wabaId, changes: [{ value: messagesValue(c.number.pnid, { contacts: [who], messages: [first] }) }] }]), c.appSecret);
    const got = await ticketWithMessages(t, f.admin, who.name, 1);
    ticketId = got.ticket.id;
    inbound = got.messages[0];
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.agent)).status).toBe(200);
  });
  afterAll(async () => {
    await t?.stop();
    await graph?.close();
  });

  const say = (body: string, extra: Record<string, unknown> = {}) => t.api.post(`/messages/${ticketId}`, { body, ...extra }, f.agent);
  const last = () => graph.sentTo(c.number.pnid).at(-1)!;
  const statuses = (...st: Array<Record<string, unknown>>) => FakeGraph.deliver(c.webhook, envelope([{ wabaId: c.number.wabaId, changes: [{ value: messagesValue(c.number.pnid, { statuses: st }) }] }]), c.appSecret);
  const messageOf = async (providerId: string) => (await messagesOf(t, f.admin, ticketId)).find((m) => m.providerId === providerId)!;
  const pluginSend = (message: Record<string, unknown>, messageId?: number) =>
    t.core.broker.call("v1.channel-waba.send", { tenantId: f.tenantId, connectionId: c.id, to: { externalId: who.waId }, message, ...(messageId ? { messageId } : {}) }) as Promise<SendResult>;

  it("a text and a reply go as Meta's bodies; Meta's wamid becomes the provider id", async () => {
    const r = await say("Olá! Como posso ajudar?");
    expect(r.body).toMatchObject({ fromMe: true, status: "sent" });
    expect(last()).toEqual({ messaging_product: "whatsapp", recipient_type: "individual", to: who.waId, type: "text", text: { body: "Olá! Como posso ajudar?", preview_url: false } });
    expect(r.body.providerId).toMatch(/^wamid\./);
    await say("Sobre isto:", { quotedMsgId: inbound.id });
    expect(last()).toMatchObject({ type: "text", context: { message_id: inbound.providerId }, text: { body: "Sobre isto:" } });
  });

  it("a file is uploaded first and sent by its media id, with caption or file name", async () => {
    const r = await t.api.post(`/messages/${ticketId}`, { body: "Veja a foto", medias: [{ fileName: "produto.png", mimeType: "image/png", data: PNG.toString("base64") }] }, f.agent);
    expect(r.body).toMatchObject({ status: "sent", mediaType: "image" });
    const sent = last() as { type: string; image: { id: string; caption: string } };
    expect(sent).toMatchObject({ type: "image", image: { caption: "Veja a foto" } });
    const up = graph.uploads.get(sent.image.id)!;
    expect(up).toMatchObject({ pnid: c.number.pnid, mimeType: "image/png", fileName: "produto.png" });
    expect(up.data.equals(PNG)).toBe(true);
    const pdf = Buffer.from("%PDF-1.4 orçamento");
    await t.api.post(`/messages/${ticketId}`, { body: "", medias: [{ fileName: "orcamento.pdf", mimeType: "application/pdf", data: pdf.toString("base64") }] }, f.agent);
    const doc = last() as { document: { id: string; filename: string } };
    expect(doc.document.filename).toBe("orcamento.pdf");
    expect(graph.uploads.get(doc.document.id)!.data.equals(pdf)).toBe(true);
  });

  it("a file the core has only by URL goes by link, for Meta to fetch", async () => {
    await pluginSend({ kind: "media", body: "catálogo", media: { url: "https://cdn.example.com/catalogo.pdf", mimeType: "application/pdf", fileName: "catalogo.pdf" } });
    expect(last()).toEqual({ messaging_product: "whatsapp", recipient_type: "individual", to: who.waId, type: "document", document: { link: "https://cdn.example.com/catalogo.pdf", filename: "catalogo.pdf", caption: "catálogo" } });
  });

  it("statuses only move forward, out of order or repeated; a late failure does not undo a delivery", async () => {
    const id = (await say("Seu pedido saiu.")).body.providerId as string;
    await statuses(status(id, who.waId, "read"), status(id, who.waId, "delivered"), status(id, who.waId, "sent"));
    await waitFor("read", async () => (await messageOf(id)).status === "read");
    await statuses(status(id, who.waId, "failed", { errors: [{ code: 131026, title: "Message undeliverable" }] }), status(id, who.waId, "delivered"));
    await pluginService(t).deliveries.idle();
    await new Promise((r) => setTimeout(r, 300));
    expect(await messageOf(id)).toMatchObject({ status: "read", failReason: null });
  });

  it("a failed status puts Meta's code and title on the message; 131047 says a template is required", async () => {
    const a = (await say("primeira")).body.providerId as string;
    const b = (await say("segunda")).body.providerId as string;
    await statuses(status(a, who.waId, "failed", { errors: [{ code: 131026, title: "Message undeliverable" }] }), status(b, who.waId, "failed", { errors: [{ code: 131047, title: "Re-engagement message" }] }));
    await waitFor("both failed", async () => (await messageOf(a)).status === "failed" && (await messageOf(b)).status === "failed");
    expect((await messageOf(a)).failReason).toBe("131026 Message undeliverable");
    expect((await messageOf(b)).failReason).toBe("ERR_WABA_TEMPLATE_REQUIRED");
  });

  it("131047 at send time fails the message as template required, without a retry", async () => {
    graph.windowClosed.add(who.waId);
    const before = graph.attempts.length;
    try {
      const r = await say("depois de 24 horas");
      expect(r.body).toMatchObject({ status: "failed", failReason: "ERR_WABA_TEMPLATE_REQUIRED: 131047 Re-engagement message" });
      expect(graph.attempts.length - before).toBe(1);
    } finally {
      graph.windowClosed.delete(who.waId);
    }
  });

  it("130429 / 429 are retried with back-off and the message goes once; 131056 past the retries fails as rate limited", async () => {
    graph.failNext(c.number.pnid, { httpStatus: 400, code: 130429, message: "Rate limit hit" }, { httpStatus: 429, code: 80007, message: "Rate limit issues" });
    const sentBefore = graph.sent.length;
    const t0 = Date.now();
    const r = await say("com calma");
    expect(r.body).toMatchObject({ status: "sent" });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(90);
    expect(graph.sent.length - sentBefore).toBe(1);

    const pair = { httpStatus: 400, code: 131056, message: "(Business Account, Consumer Account) pair rate limit hit" };
    graph.failNext(c.number.pnid, pair, pair, pair, pair);
    const attempts = graph.attempts.length;
    const limited = await say("rápido demais");
    expect(limited.body).toMatchObject({ status: "failed", failReason: "ERR_WABA_RATE_LIMITED: 131056 (Business Account, Consumer Account) pair rate limit hit" });
    expect(graph.attempts.length - attempts).toBe(4);
  });

  it("a non-retryable error is tried once and marked failed with the catalogue's code", async () => {
    graph.failNext(c.number.pnid, { httpStatus: 400, code: 131009, message: "Parameter value is not valid" });
    const attempts = graph.attempts.length;
    const r = await say("parâmetro ruim");
    expect(r.body).toMatchObject({ status: "failed", failReason: "ERR_WABA_SEND_REFUSED: 131009 Parameter value is not valid" });
    expect(graph.attempts.length - attempts).toBe(1);
  });

  it("the same core message handed over twice goes out once", async () => {
    const before = graph.sentTo(c.number.pnid).length;
    const [x, y] = await Promise.all([pluginSend({ kind: "text", body: "uma vez só" }, 987_654), pluginSend({ kind: "text", body: "uma vez só" }, 987_654)]);
    const z = await pluginSend({ kind: "text", body: "uma vez só" }, 987_654);
    expect(x).toEqual(y);
    expect(z).toEqual(x);
    expect(graph.sentTo(c.number.pnid).length - before).toBe(1);
  });

  it("reactions, read receipts and interactive buttons go as Meta's bodies", async () => {
    // (The contract's send takes no empty emoji, so a removal never reaches the plugin from the core.)
    const reacted = await pluginSend({ kind: "reaction", targetProviderId: inbound.providerId, emoji: "❤️" });
    expect(last()).toEqual({ messaging_product: "whatsapp", recipient_type: "individual", to: who.waId, type: "reaction", reaction: { message_id: inbound.providerId, emoji: "❤️" } });
    expect(reacted.providerMessageId).toMatch(/^wamid\./);
    const read = await t.core.broker.call("v1.channel-waba.markRead", { tenantId: f.tenantId, connectionId: c.id, to: { externalId: who.waId }, providerMessageIds: [inbound.providerId] });
    expect(read).toEqual({ sent: 1 });
    expect(last()).toEqual({ messaging_product: "whatsapp", status: "read", message_id: inbound.providerId });
    const interactive = { type: "button", body: "Como prefere?", buttons: [{ id: "a", title: "Vendas" }, { id: "b", title: "Suporte" }] };
    const call = () => t.core.broker.call("v1.channel-waba.sendInteractive", { tenantId: f.tenantId, connectionId: c.id, to: { externalId: who.waId }, interactive, key: "menu-1" }) as Promise<SendResult>;
    const first = await call();
    expect(await call()).toEqual(first);
    expect(graph.sentTo(c.number.pnid).filter((b) => b.type === "interactive")).toHaveLength(1);
    expect(last()).toMatchObject({ type: "interactive", interactive: { type: "button", body: { text: "Como prefere?" }, action: { buttons: [{ type: "reply", reply: { id: "a", title: "Vendas" } }, { type: "reply", reply: { id: "b", title: "Suporte" } }] } } });
    await expect(t.core.broker.call("v1.channel-waba.sendInteractive", { tenantId: f.tenantId, connectionId: c.id, to: { externalId: who.waId }, interactive: { ...interactive, buttons: [1, 2, 3, 4].map((i) => ({ id: `b${i}`, title: `B${i}` })) } })).rejects.toMatchObject({
      type: "ERR_WABA_INTERACTIVE_INVALID",
      data: { field: "buttons" },
    });
  });

  it("an expired token (190) shows the connection needs new credentials; the message waits and goes once after they are given", async () => {
    graph.failNext(c.number.pnid, TOKEN_EXPIRED);
    const r = await say("antes de trocar o token");
    expect(r.body.status).toBe("pending");
    const conn = await connectionOf(t, f.admin, c.id);
    expect(conn).toMatchObject({ status: "disconnected", statusDetail: "ERR_WABA_CREDENTIALS_REQUIRED" });
    const before = graph.sentTo(c.number.pnid).length;
    // The admin pastes a new token (Meta's side: the number's token rotates).
    c.number.token = `EAAG${Date.now()}renewed-token-abcdef`;
    expect((await t.api.put(`/connections/${c.id}`, { settings: { accessToken: c.number.token } }, f.admin)).status).toBe(200);
    expect((await t.api.post(`/connections/${c.id}/connect`, {}, f.admin)).body.status).toBe("connected");
    const sent = await waitFor("the waiting message", async () => {
      const m = (await messagesOf(t, f.admin, ticketId)).find((x) => x.body === "antes de trocar o token");
      return m?.status === "sent" ? m : null;
    });
    expect(graph.sentTo(c.number.pnid).length - before).toBe(1);
    expect(sent.providerId).toMatch(/^wamid\./);
  });
});
