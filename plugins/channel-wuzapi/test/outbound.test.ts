/**
 * Agents' messages out through wuzapi from the real core: the exact requests wuzapi gets for
 * each kind (text, reply, image, document, voice note, sticker — a WebP file or the contract's
 * sticker kind —, video, reaction, deletion),
 * the id WhatsApp knows them by, and sends that meet a session that is away or logged out
 * (the contract's not-connected error; a repeat of the same message goes out once).
 */
import { startCore, createTenant, TestCore, TenantFixture, uid } from "@openatende/core/testkit";
import type { SendResult } from "@openatende/plugin-sdk";
import { FakeWuzapi, type FakeRequest } from "./fake-wuzapi";
import { connectWuzapi, messagesOf, MessageView, statusBecomes, ticketWithMessages, waitFor, WuzapiConnection, LOOPBACK_FAKES } from "./helpers";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const dataUrl = (mime: string, b: Buffer) => `data:${mime};base64,${b.toString("base64")}`;

describe("wuzapi outbound, real core", () => {
  let api: FakeWuzapi;
  let t: TestCore;
  let f: TenantFixture;
  let c: WuzapiConnection;
  const customer = { jid: `5531${Math.floor(900_000_000 + Math.random() * 99_999_999)}@s.whatsapp.net`, name: `Davi ${uid()}` };
  let ticketId: number;
  let inboundMessage: MessageView;

  beforeAll(async () => {
    api = await FakeWuzapi.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PLUS" });
    c = await connectWuzapi(t, f, api, { name: "WhatsApp saída", linked: true });
    await api.message(c.user.token, { chat: customer.jid, pushName: customer.name, message: { conversation: "Oi, quero falar com alguém" } }, { origin: t.url });
    const got = await ticketWithMessages(t, f.admin, customer.name, 1);
    ticketId = got.ticket.id;
    inboundMessage = got.messages[0];
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.agent)).status).toBe(200);
  });
  afterAll(async () => {
    await t?.stop();
    await api?.close();
  });

  const last = (path: string): FakeRequest => api.sends(c.user.token, path).at(-1)!;
  const pluginSend = (message: Record<string, unknown>, messageId?: number) =>
    t.core.broker.call("v1.channel-wuzapi.send", { tenantId: f.tenantId, connectionId: c.id, to: { externalId: customer.jid }, message, ...(messageId ? { messageId } : {}) }) as Promise<SendResult>;

  it("a text goes to the contact with a WhatsApp id of our making, which becomes the message's provider id", async () => {
    const r = await t.api.post(`/messages/${ticketId}`, { body: "Olá! Como posso ajudar?" }, f.agent);
    expect(r.body).toMatchObject({ fromMe: true, status: "sent" });
    const req = last("/chat/send/text");
    expect(req.body).toEqual({ Phone: customer.jid, Body: "Olá! Como posso ajudar?", Id: req.body.Id });
    expect(req.body.Id).toMatch(/^3EB0[0-9A-F]{20}$/);
    expect(r.body.providerId).toBe(req.body.Id);
  });

  it("quoting the customer's message makes a reply naming it and its sender; quoting our own names our number", async () => {
    await t.api.post(`/messages/${ticketId}`, { body: "Sobre isto:", quotedMsgId: inboundMessage.id }, f.agent);
    expect(last("/chat/send/text").body).toMatchObject({ Body: "Sobre isto:", ContextInfo: { StanzaId: inboundMessage.providerId, Participant: customer.jid } });
    const mine = (await messagesOf(t, f.admin, ticketId)).find((m) => m.body === "Sobre isto:")!;
    await t.api.post(`/messages/${ticketId}`, { body: "E isto também", quotedMsgId: mine.id }, f.agent);
    const own = api.user(c.user.token).jid;
    expect(last("/chat/send/text").body.ContextInfo).toEqual({ StanzaId: mine.providerId, Participant: own });
  });

  it("files go by type, bytes intact: image with caption, PDF as a document with its name, voice note, sticker, video", async () => {
    const pdf = Buffer.from("%PDF-1.4 orçamento");
    const ogg = Buffer.from("OggS fake opus audio");
    const webp = Buffer.from("RIFF....WEBPVP8 fake");
    const mp4 = Buffer.from("....ftypisom fake video");
    const send = (body: string, fileName: string, mimeType: string, data: Buffer) => t.api.post(`/messages/${ticketId}`, { body, medias: [{ fileName, mimeType, data: data.toString("base64") }] }, f.agent);

    expect((await send("Veja a foto", "produto.png", "image/png", PNG)).body).toMatchObject({ status: "sent", mediaType: "image" });
    const image = last("/chat/send/image").body;
    expect(image).toEqual({ Phone: customer.jid, Image: dataUrl("image/png", PNG), Caption: "Veja a foto", Id: image.Id });

    expect((await send("", "orcamento.pdf", "application/pdf", pdf)).body).toMatchObject({ status: "sent", mediaType: "document" });
    const doc = last("/chat/send/document").body;
    expect(doc).toEqual({ Phone: customer.jid, Document: dataUrl("application/octet-stream", pdf), FileName: "orcamento.pdf", MimeType: "application/pdf", Id: doc.Id });

    const before = api.sends(c.user.token, "/chat/send/text").length;
    const voice = await send("ouça o áudio", "audio.ogg", "audio/ogg", ogg);
    expect(voice.body.status).toBe("sent");
    const audio = last("/chat/send/audio").body;
    expect(audio).toEqual({ Phone: customer.jid, Audio: dataUrl("audio/ogg", ogg), Id: audio.Id });
    // A voice note takes no caption: the text follows as its own message, with its own id.
    const caption = api.sends(c.user.token, "/chat/send/text").slice(before);
    expect(caption.map((x) => x.body.Body)).toEqual(["ouça o áudio"]);
    expect(caption[0].body.Id).not.toBe(audio.Id);
    expect(voice.body.providerId).toBe(audio.Id);

    await send("", "figurinha.webp", "image/webp", webp);
    expect(last("/chat/send/sticker").body).toMatchObject({ Sticker: dataUrl("image/webp", webp) });
    await send("vídeo", "clip.mp4", "video/mp4", mp4);
    expect(last("/chat/send/video").body).toMatchObject({ Video: dataUrl("video/mp4", mp4), Caption: "vídeo" });
  });

  it("a sticker made in the composer goes to /chat/send/sticker as the 512x512 WebP the core made, stored as a sticker; a reply names the quoted message", async () => {
    const picture = { fileName: "foto.png", mimeType: "image/png", data: PNG.toString("base64") };
    const preview = await t.api.post("/stickers/preview", { media: picture }, f.agent);
    expect(preview.body).toMatchObject({ mimeType: "image/webp", width: 512, height: 512 });
    const r = await t.api.post(`/messages/${ticketId}/sticker`, { media: picture }, f.agent);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: "sent", mediaType: "sticker", media: { fileName: "foto.webp", mimeType: "image/webp" } });
    const req = last("/chat/send/sticker");
    expect(req.body).toEqual({ Phone: customer.jid, Sticker: `data:image/webp;base64,${preview.body.data}`, Id: req.body.Id });
    expect(r.body.providerId).toBe(req.body.Id);

    const webp = Buffer.from(preview.body.data, "base64");
    await pluginSend({ kind: "sticker", media: { data: webp.toString("base64"), mimeType: "image/webp" }, replyToProviderId: inboundMessage.providerId });
    expect(last("/chat/send/sticker").body).toMatchObject({ Sticker: dataUrl("image/webp", webp), ContextInfo: { StanzaId: inboundMessage.providerId, Participant: customer.jid } });
  });

  it("reactions name the message (ours prefixed me:), deletions revoke ours", async () => {
    await t.api.post(`/messagesReaction/${inboundMessage.id}`, { emoji: "👍" }, f.agent);
    expect(last("/chat/react").body).toEqual({ Phone: customer.jid, Body: "👍", Id: inboundMessage.providerId });
    const sent = await t.api.post(`/messages/${ticketId}`, { body: "vou apagar" }, f.agent);
    await t.api.post(`/messagesReaction/${sent.body.id}`, { emoji: "🙏" }, f.agent);
    expect(last("/chat/react").body).toEqual({ Phone: customer.jid, Body: "🙏", Id: `me:${sent.body.providerId}` });
    const del = await t.api.call("DELETE", `/messages/${sent.body.id}`, undefined, f.agent);
    expect(del.status).toBe(200);
    expect(last("/chat/delete").body).toEqual({ Phone: customer.jid, Id: sent.body.providerId });
  });

  it("the same core message handed over twice goes out once, answered the same", async () => {
    const messageId = 900_000 + Math.floor(Math.random() * 1000);
    const first = await pluginSend({ kind: "text", body: "uma vez só" }, messageId);
    const again = await pluginSend({ kind: "text", body: "uma vez só" }, messageId);
    expect(again).toEqual(first);
    expect(api.sends(c.user.token, "/chat/send/text").filter((x) => x.body.Body === "uma vez só")).toHaveLength(1);
  });

  it("wuzapi out of reach: the contract's not-connected error; once it is back the repeat goes out once, with the same WhatsApp id", async () => {
    const messageId = 910_000 + Math.floor(Math.random() * 1000);
    await api.down();
    try {
      const err = await pluginSend({ kind: "text", body: "durante a queda" }, messageId).catch((e) => e);
      expect(err).toMatchObject({ code: 409, type: "ERR_SESSION_NOT_INITIALIZED" });
      await statusBecomes(t, f.admin, c.id, "timeout");
    } finally {
      await api.up();
    }
    await statusBecomes(t, f.admin, c.id, "connected", 15_000);
    const res = await pluginSend({ kind: "text", body: "durante a queda" }, messageId);
    await pluginSend({ kind: "text", body: "durante a queda" }, messageId);
    const sent = api.sends(c.user.token, "/chat/send/text").filter((x) => x.body.Body === "durante a queda");
    expect(sent).toHaveLength(1);
    expect(res.providerMessageId).toBe(sent[0].body.Id);
  });

  it("a session logged out on the phone refuses sends with the not-connected error and sends nothing", async () => {
    const other = await connectWuzapi(t, f, api, { name: "WhatsApp deslogado", linked: true });
    await api.logoutFromPhone(other.user.token, t.url);
    await statusBecomes(t, f.admin, other.id, "disconnected");
    const call = () => t.core.broker.call("v1.channel-wuzapi.send", { tenantId: f.tenantId, connectionId: other.id, to: { externalId: customer.jid }, message: { kind: "text", body: "não vai" }, messageId: 5 });
    for (let i = 0; i < 2; i++) expect(await call().catch((e) => e)).toMatchObject({ code: 409, type: "ERR_SESSION_NOT_INITIALIZED" });
    expect(api.sends(other.user.token)).toEqual([]);
  });

  it("wuzapi's refusal of a message is recorded as the message's failure with its words", async () => {
    api.failNext("/chat/send/text", 500, "Error sending message: server returned error 479");
    const r = await t.api.post(`/messages/${ticketId}`, { body: "recusada" }, f.agent);
    expect(r.body).toMatchObject({ status: "failed", failReason: "ERR_MESSAGE_NOT_SENT" });
  });

  it("markRead (the contract's, declared as receipts) sends WhatsApp's read receipt for a chat's messages", async () => {
    const res = await t.core.broker.call("v1.channel-wuzapi.markRead", { tenantId: f.tenantId, connectionId: c.id, to: { externalId: customer.jid }, providerMessageIds: [inboundMessage.providerId] });
    expect(res).toEqual({ sent: 1 });
    expect(api.requests.filter((r) => r.token === c.user.token && r.path === "/chat/markread").at(-1)!.body).toEqual({ Id: [inboundMessage.providerId], Chat: customer.jid });
    expect((await t.core.broker.call("plugins.channelFor", { type: "wuzapi" })) as { receipts?: boolean }).toMatchObject({ receipts: true });
  });

  it("markRead on a session not connected is best effort: nothing sent, no error", async () => {
    const other = await connectWuzapi(t, f, api, { name: "WhatsApp sem recibos", linked: true });
    await api.logoutFromPhone(other.user.token, t.url);
    await statusBecomes(t, f.admin, other.id, "disconnected");
    const res = await t.core.broker.call("v1.channel-wuzapi.markRead", { tenantId: f.tenantId, connectionId: other.id, to: { externalId: customer.jid }, providerMessageIds: ["3EB0AAAA"] });
    expect(res).toEqual({ sent: 0 });
    expect(api.requests.filter((r) => r.token === other.user.token && r.path === "/chat/markread")).toEqual([]);
  });

  it("the agent holding the ticket opening it sends the read receipt of the customer's unread messages through wuzapi", async () => {
    await api.message(c.user.token, { chat: customer.jid, pushName: customer.name, message: { conversation: "Ainda está aí?" } }, { origin: t.url });
    const unread = await waitFor("the customer's new message", async () => (await messagesOf(t, f.admin, ticketId)).find((m) => m.body === "Ainda está aí?"));
    const before = api.requests.filter((r) => r.token === c.user.token && r.path === "/chat/markread").length;
    expect((await t.api.get(`/messages/${ticketId}`, f.agent)).status).toBe(200);
    const receipt = await waitFor("the read receipt", async () => api.requests.filter((r) => r.token === c.user.token && r.path === "/chat/markread").slice(before)[0]);
    expect(receipt.body).toMatchObject({ Chat: customer.jid, Id: expect.arrayContaining([unread.providerId]) });
  });
});
