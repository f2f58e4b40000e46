/**
 * Agents' messages out to Telegram from the real core, against a local Bot API server:
 * the right chat, files uploaded intact, stickers with sendSticker (also from the outbox),
 * replies, edits and deletions, failures recorded
 * with Telegram's reason, and Telegram's limits kept (1 message/s per chat, 429 retry_after).
 */
import { startCore, createTenant, TestCore, TenantFixture, uid } from "@openatende/core/testkit";
import type { SendResult } from "@openatende/plugin-sdk";
import { FakeBotApi, FakeCall } from "./fake-bot-api";
import { connectTelegram, messagesOf, TelegramConnection, ticketWithMessages, MessageView, LOOPBACK_FAKES } from "./helpers";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

describe("Telegram outbound, real core", () => {
  let api: FakeBotApi;
  let t: TestCore;
  let f: TenantFixture;
  let c: TelegramConnection;
  const chat = { id: 6_660_001, first_name: `Davi ${uid()}` };
  let ticketId: number;
  let inboundMessage: MessageView;

  beforeAll(async () => {
    api = await FakeBotApi.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PLUS" });
    c = await connectTelegram(t, f, api, "polling", "Telegram saída");
    api.pushUpdate(c.bot.token, { message: FakeBotApi.message(chat, { text: "Oi, quero falar com alguém" }, 77) });
    const got = await ticketWithMessages(t, f.admin, chat.first_name, 1);
    ticketId = got.ticket.id;
    inboundMessage = got.messages[0];
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.agent)).status).toBe(200);
  });
  afterAll(async () => {
    await t?.stop();
    await api?.close();
  });

  const sendsTo = (chatId: number | string, method?: string) => api.sends(c.bot.token, { chatId, method });
  /** The plugin's send action, as the core calls it. */
  const pluginSend = (to: string | number, body: string) =>
    t.core.broker.call("v1.channel-telegram.send", { tenantId: f.tenantId, connectionId: c.id, to: { externalId: String(to) }, message: { kind: "text", body } }) as Promise<SendResult>;

  it("an agent's text goes to the contact's chat; quoting a message makes it a reply", async () => {
    const r = await t.api.post(`/messages/${ticketId}`, { body: "Olá! Como posso ajudar?" }, f.agent);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ fromMe: true, status: "sent" });
    const [call] = sendsTo(chat.id, "sendMessage").filter((x) => x.params.text === "Olá! Como posso ajudar?");
    expect(call).toBeDefined();
    expect(String(call.params.chat_id)).toBe(String(chat.id));
    expect(r.body.providerId).toBe(`${chat.id}:${(call.result as { message_id: number }).message_id}`);

    const q = await t.api.post(`/messages/${ticketId}`, { body: "Sobre isto:", quotedMsgId: inboundMessage.id }, f.agent);
    expect(q.body.status).toBe("sent");
    const [reply] = sendsTo(chat.id, "sendMessage").filter((x) => x.params.text === "Sobre isto:");
    expect(reply.params.reply_parameters).toEqual({ message_id: 77, allow_sending_without_reply: true });
  });

  it("an agent's photo is uploaded with sendPhoto, bytes and caption intact; a PDF with sendDocument", async () => {
    const r = await t.api.post(`/messages/${ticketId}`, { body: "Veja a foto", medias: [{ fileName: "produto.png", mimeType: "image/png", data: PNG.toString("base64") }] }, f.agent);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: "sent", mediaType: "image" });
    const photo = sendsTo(chat.id, "sendPhoto").at(-1)!;
    expect(String(photo.params.chat_id)).toBe(String(chat.id));
    expect(photo.params.caption).toBe("Veja a foto");
    expect(photo.files.photo.filename).toBe("produto.png");
    expect(photo.files.photo.data.equals(PNG)).toBe(true);

    const pdf = Buffer.from("%PDF-1.4 orçamento");
    const d = await t.api.post(`/messages/${ticketId}`, { medias: [{ fileName: "orcamento.pdf", mimeType: "application/pdf", data: pdf.toString("base64") }] }, f.agent);
    expect(d.body).toMatchObject({ status: "sent", mediaType: "document" });
    const doc = sendsTo(chat.id, "sendDocument").at(-1)!;
    expect(doc.files.document.filename).toBe("orcamento.pdf");
    expect(doc.files.document.data.equals(pdf)).toBe(true);
    expect(doc.params.caption).toBeUndefined();
  });

  it("a sticker made in the composer is uploaded with sendSticker: the 512x512 WebP the core made, no caption, stored as a sticker", async () => {
    const picture = { fileName: "foto.png", mimeType: "image/png", data: PNG.toString("base64") };
    const preview = await t.api.post("/stickers/preview", { media: picture }, f.agent);
    expect(preview.body).toMatchObject({ mimeType: "image/webp", width: 512, height: 512 });
    const r = await t.api.post(`/messages/${ticketId}/sticker`, { media: picture }, f.agent);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: "sent", mediaType: "sticker", media: { fileName: "foto.webp", mimeType: "image/webp" } });
    const call = sendsTo(chat.id, "sendSticker").at(-1)!;
    expect(String(call.params.chat_id)).toBe(String(chat.id));
    expect(call.params.caption).toBeUndefined();
    expect(call.files.sticker.filename).toBe("foto.webp");
    expect(call.files.sticker.data.equals(Buffer.from(preview.body.data, "base64"))).toBe(true);
    expect(r.body.providerId).toBe(`${chat.id}:${(call.result as { message_id: number }).message_id}`);
    expect(sendsTo(chat.id, "sendPhoto").filter((x) => x.files.photo?.filename === "foto.webp")).toHaveLength(0);
  });

  it("edits and deletions of a sent message reach Telegram for that message", async () => {
    const r = await t.api.post(`/messages/${ticketId}`, { body: "com erro" }, f.agent);
    const messageId = Number(String(r.body.providerId).split(":")[1]);
    expect((await t.api.post(`/messagesEdit/${r.body.id}`, { body: "corrigido" }, f.agent)).status).toBe(200);
    const edit = api.calls.filter((x) => x.method === "editMessageText").at(-1)!;
    expect(edit.params).toMatchObject({ chat_id: String(chat.id), message_id: messageId, text: "corrigido" });
    expect((await t.api.del(`/messages/${r.body.id}`, f.agent)).status).toBe(200);
    const del = api.calls.filter((x) => x.method === "deleteMessage").at(-1)!;
    expect(del.params).toMatchObject({ chat_id: String(chat.id), message_id: messageId });
  });

  it("a message Telegram refuses is kept as failed with Telegram's reason", async () => {
    api.failNext("sendMessage", { error_code: 403, description: "Forbidden: bot was blocked by the user" }, { chatId: chat.id });
    const r = await t.api.post(`/messages/${ticketId}`, { body: "você está aí?" }, f.agent);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: "failed" });
    expect(r.body.failReason).toContain("bot was blocked by the user");
    const stored = (await messagesOf(t, f.agent, ticketId)).find((m) => m.id === r.body.id)!;
    expect(stored).toMatchObject({ status: "failed" });
    expect(stored.failReason).toContain("Forbidden");
  });

  it("one message a second per chat: three quick sends to a chat are a second apart, and another chat is not held up", async () => {
    const a = 6_660_101;
    const b = 6_660_102;
    const t0 = Date.now();
    const results = await Promise.all([1, 2, 3].flatMap((i) => [pluginSend(a, `a${i}`), pluginSend(b, `b${i}`)]));
    const took = Date.now() - t0;
    expect(new Set(results.map((x) => x.providerMessageId)).size).toBe(6);
    const at = (chatId: number) => sendsTo(chatId, "sendMessage").map((x) => x.at);
    for (const chatId of [a, b]) {
      const times = at(chatId);
      expect(sendsTo(chatId, "sendMessage").map((x) => x.params.text)).toEqual(chatId === a ? ["a1", "a2", "a3"] : ["b1", "b2", "b3"]);
      expect(times).toHaveLength(3);
      expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
      expect(times[2] - times[1]).toBeGreaterThanOrEqual(950);
    }
    // The chats go side by side: each one's n-th message about when the other's goes.
    for (let i = 0; i < 3; i++) expect(Math.abs(at(a)[i] - at(b)[i])).toBeLessThan(700);
    // Serialised, six sends would take five seconds or more.
    expect(took).toBeLessThan(3600);
  });

  it("a 429 with retry_after=1 holds the message, then delivers it once", async () => {
    api.failNext("sendMessage", { error_code: 429, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } }, { chatId: chat.id });
    const body = `depois do limite ${uid()}`;
    const t0 = Date.now();
    const r = await t.api.post(`/messages/${ticketId}`, { body }, f.agent);
    expect(r.body).toMatchObject({ status: "sent" });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    const attempts: FakeCall[] = api.calls.filter((x) => x.method === "sendMessage" && x.params.text === body);
    expect(attempts.map((x) => x.status)).toEqual([429, 200]);
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(1000);
    expect(r.body.providerId).toBe(`${chat.id}:${(attempts[1].result as { message_id: number }).message_id}`);
  });

  it("a retry_after longer than a send may wait fails the message with the reason", async () => {
    api.failNext("sendMessage", { error_code: 429, description: "Too Many Requests: retry after 300", parameters: { retry_after: 300 } }, { chatId: chat.id });
    const t0 = Date.now();
    const r = await t.api.post(`/messages/${ticketId}`, { body: "muito cedo" }, f.agent);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(r.body).toMatchObject({ status: "failed" });
    expect(r.body.failReason).toContain("Too Many Requests");
  });

  it("a disconnected connection sends nothing meanwhile; the message waits and goes out once when it is connected again", async () => {
    await t.api.post(`/connections/${c.id}/disconnect`, {}, f.admin);
    const before = api.calls.length;
    const body = `ninguém ouve ${uid()}`;
    const r = await t.api.post(`/messages/${ticketId}`, { body }, f.agent);
    expect(r.body).toMatchObject({ status: "pending" });
    const sends = () => api.calls.slice(before).filter((x) => x.method === "sendMessage" && x.params.text === body);
    expect(sends()).toHaveLength(0);

    await t.api.post(`/connections/${c.id}/connect`, {}, f.admin);
    const end = Date.now() + 15_000;
    let status = "pending";
    while (status !== "sent" && Date.now() < end) {
      await new Promise((res) => setTimeout(res, 100));
      const msgs = (await t.api.get(`/messages/${ticketId}`, f.agent)).body.messages as Array<{ id: number; status: string }>;
      status = msgs.find((m) => m.id === r.body.id)?.status ?? status;
    }
    expect(status).toBe("sent");
    expect(sends()).toHaveLength(1);
  });

  it("a sticker sent while disconnected waits in the outbox and goes out once as a sticker when it is connected again", async () => {
    await t.api.post(`/connections/${c.id}/disconnect`, {}, f.admin);
    const before = api.calls.length;
    const r = await t.api.post(`/messages/${ticketId}/sticker`, { media: { fileName: `espera-${uid()}.png`, mimeType: "image/png", data: PNG.toString("base64") } }, f.agent);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: "pending", mediaType: "sticker" });
    const stickers = () => api.calls.slice(before).filter((x) => x.method === "sendSticker" && x.files.sticker?.filename === r.body.media.fileName && x.status === 200);
    expect(stickers()).toHaveLength(0);

    await t.api.post(`/connections/${c.id}/connect`, {}, f.admin);
    const end = Date.now() + 15_000;
    let status = "pending";
    while (status !== "sent" && Date.now() < end) {
      await new Promise((res) => setTimeout(res, 100));
      const msgs = (await t.api.get(`/messages/${ticketId}`, f.agent)).body.messages as Array<{ id: number; status: string }>;
      status = msgs.find((m) => m.id === r.body.id)?.status ?? status;
    }
    expect(status).toBe("sent");
    expect(stickers()).toHaveLength(1);
    expect(api.calls.slice(before).filter((x) => x.method === "sendPhoto")).toHaveLength(0);
  });
});
