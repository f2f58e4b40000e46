/**
 * Every kind of WhatsApp message wuzapi delivers, into the real core: texts and replies,
 * files (inline base64 and large ones streamed into the core), locations, contact cards,
 * answers and unknown kinds (a visible placeholder), messages written on the phone itself
 * (agent messages), groups (the member who wrote), and reactions, edits and revokes.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { startCore, createTenant, TestCore, TenantFixture, uid } from "@openatende/core/testkit";
import { FakeWuzapi } from "./fake-wuzapi";
import { newMessageId, PROTOCOL } from "./events";
import { connectWuzapi, messagesOf, sleep, ticketsOf, ticketWithMessages, waitFor, WuzapiConnection, LOOPBACK_FAKES } from "./helpers";

/** Every file under a folder (the tenant's stored files). */
function filesOf(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
}

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

describe("wuzapi inbound kinds, real core", () => {
  let api: FakeWuzapi;
  let t: TestCore;
  let f: TenantFixture;
  let c: WuzapiConnection;

  beforeAll(async () => {
    api = await FakeWuzapi.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PLUS" });
    c = await connectWuzapi(t, f, api, { name: "WhatsApp tipos", linked: true, settings: { webhookFormat: "form" } });
  });
  afterAll(async () => {
    await t?.stop();
    await api?.close();
  });

  const customer = () => ({ jid: `55219${Math.floor(10_000_000 + Math.random() * 89_999_999)}@s.whatsapp.net`, name: `Bia ${uid()}` });
  const deliver = async (who: { jid: string; name: string }, message: Record<string, unknown>, more: Record<string, unknown> = {}) => {
    const r = await api.message(c.user.token, { chat: who.jid, pushName: who.name, message, ...more }, { origin: t.url, format: "form" });
    expect(r.status).toBe(200);
    return r;
  };
  const file = async (url: string) => {
    const res = await fetch(`${t.url}${url}`, { headers: { authorization: `Bearer ${f.agent.token}`, "x-session-id": f.agent.sessionId } });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  const one = async (who: { name: string }) => (await ticketWithMessages(t, f.admin, who.name, 1)).messages[0];

  it("text: a pending ticket for the contact, its WhatsApp name and number, WhatsApp's time", async () => {
    const who = customer();
    const at = Date.now() - 60_000;
    const r = await deliver(who, { conversation: "Bom dia!" }, { timestamp: at });
    const { ticket, messages } = await ticketWithMessages(t, f.admin, who.name, 1);
    expect(ticket.status).toBe("pending");
    expect(messages[0]).toMatchObject({ body: "Bom dia!", fromMe: false, providerId: r.id, mediaType: null });
    expect(messages[0].timestamp).toBe(at);
    const contact = await t.api.get(`/contacts/${ticket.contactId}`, f.admin);
    expect(contact.body).toMatchObject({ name: who.name, number: who.jid.split("@")[0] });
  });

  it("extended text replying to an earlier message quotes it", async () => {
    const who = customer();
    const first = await deliver(who, { conversation: "primeira" });
    await deliver(who, { extendedTextMessage: { text: "respondendo", contextInfo: { stanzaID: first.id, participant: who.jid, quotedMessage: { conversation: "primeira" } } } });
    const { messages } = await ticketWithMessages(t, f.admin, who.name, 2);
    expect(messages[1]).toMatchObject({ body: "respondendo", quotedMsgId: messages[0].id });
  });

  it("image, video, voice note, document and sticker arrive with wuzapi's file, type and name", async () => {
    const who = customer();
    const bytes = { video: randomBytes(4000), voice: randomBytes(1500), pdf: Buffer.from(`%PDF-1.4 ${randomBytes(40).toString("hex")}`), sticker: randomBytes(900) };
    await deliver(who, { imageMessage: { URL: "https://mmg.whatsapp.net/x", mimetype: "image/png", caption: "minha foto", fileLength: PNG.length } }, { extra: { base64: PNG.toString("base64"), mimeType: "image/png", fileName: "ABC.png" } });
    await deliver(who, { videoMessage: { mimetype: "video/mp4", caption: "olha isso", seconds: 3 } }, { extra: { base64: bytes.video.toString("base64"), mimeType: "application/octet-stream", fileName: "VID.mp4" } });
    await deliver(who, { audioMessage: { mimetype: "audio/ogg; codecs=opus", PTT: true, seconds: 2 } }, { extra: { base64: bytes.voice.toString("base64"), mimeType: "application/ogg", fileName: "AUD.ogg" } });
    await deliver(who, { documentMessage: { mimetype: "application/pdf", fileName: "contrato.pdf", title: "contrato" } }, { extra: { base64: bytes.pdf.toString("base64"), mimeType: "application/pdf", fileName: "DOC.pdf" } });
    await deliver(who, { stickerMessage: { mimetype: "image/webp", isAnimated: false } }, { extra: { base64: bytes.sticker.toString("base64"), mimeType: "image/webp", fileName: "STK.webp", isSticker: true } });
    const { messages: m } = await ticketWithMessages(t, f.admin, who.name, 5);
    expect(m[0]).toMatchObject({ body: "minha foto", mediaType: "image", media: { mimeType: "image/png", fileName: "ABC.png", size: PNG.length } });
    expect((await file(m[0].media!.url)).equals(PNG)).toBe(true);
    // The message's own type wins over wuzapi's sniffed one.
    expect(m[1]).toMatchObject({ body: "olha isso", mediaType: "video", media: { mimeType: "video/mp4", size: bytes.video.length } });
    expect(m[2]).toMatchObject({ mediaType: "audio", media: { mimeType: "audio/ogg; codecs=opus", size: bytes.voice.length } });
    expect(m[3]).toMatchObject({ body: null, mediaType: "document", media: { fileName: "contrato.pdf", mimeType: "application/pdf" } });
    expect((await file(m[3].media!.url)).equals(bytes.pdf)).toBe(true);
    expect(m[4]).toMatchObject({ media: { mimeType: "image/webp", fileName: "STK.webp" } });
    expect((await file(m[4].media!.url)).equals(bytes.sticker)).toBe(true);
  });

  it("a large file goes into the core's storage by stream; a replay of it is not uploaded again", async () => {
    const who = customer();
    const big = randomBytes(1_200_000);
    const r = await deliver(who, { documentMessage: { mimetype: "application/zip", fileName: "fotos.zip" } }, { extra: { base64: big.toString("base64"), mimeType: "application/zip", fileName: "X.zip" } });
    const m = await one(who);
    expect(m).toMatchObject({ mediaType: "document", media: { fileName: "fotos.zip", size: big.length } });
    expect((await file(m.media!.url)).equals(big)).toBe(true);
    const stored = filesOf(path.join(t.config.dataDir, "tenants", String(f.tenantId)));
    const again = await api.message(c.user.token, { id: r.id, chat: who.jid, pushName: who.name, message: { documentMessage: { mimetype: "application/zip", fileName: "fotos.zip" } }, extra: { base64: big.toString("base64") } }, { origin: t.url });
    expect(again.body).toMatchObject({ result: "duplicate" });
    expect(filesOf(path.join(t.config.dataDir, "tenants", String(f.tenantId)))).toEqual(stored);
  });

  it("a file wuzapi did not send becomes a visible note", async () => {
    const who = customer();
    await deliver(who, { imageMessage: { mimetype: "image/jpeg", caption: "sem arquivo" } });
    const m = await one(who);
    expect(m.media).toBeNull();
    expect(m.body).toMatch(/^sem arquivo\n📎 image-.*\.jpg: the wuzapi server did not send the file \(image\)$/);
  });

  it("location, contact card, a button answer and an unknown kind", async () => {
    const who = customer();
    await deliver(who, { locationMessage: { degreesLatitude: -23.561414, degreesLongitude: -46.655881, name: "MASP", address: "Av. Paulista, 1578" } });
    await deliver(who, { contactMessage: { displayName: "João Silva", vcard: "BEGIN:VCARD\nVERSION:3.0\nFN:João Silva\nTEL;type=CELL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD" } });
    await deliver(who, { buttonsResponseMessage: { selectedButtonID: "b1", selectedDisplayText: "Quero o plano anual" } });
    await deliver(who, { pollUpdateMessage: { pollCreationMessageKey: { ID: "X" } } });
    const { messages: m } = await ticketWithMessages(t, f.admin, who.name, 4);
    expect(m[0]).toMatchObject({ mediaType: "location", body: "📍 MASP, Av. Paulista, 1578 (-23.561414, -46.655881)" });
    expect(m[1]).toMatchObject({ mediaType: "contact", body: "👤 João Silva 5511988887777" });
    expect(m[2].body).toBe("Quero o plano anual");
    expect(m[3].body).toBe("[unsupported message: pollUpdateMessage]");
  });

  it("a message written on the phone itself is the agent's message in the contact's ticket", async () => {
    const who = customer();
    await deliver(who, { conversation: "oi, preciso de ajuda" });
    await api.message(c.user.token, { chat: who.jid, sender: api.user(c.user.token).jid, fromMe: true, pushName: "Loja", message: { conversation: "Respondi pelo celular" } }, { origin: t.url });
    const { ticket, messages } = await ticketWithMessages(t, f.admin, who.name, 2);
    expect(messages[1]).toMatchObject({ body: "Respondi pelo celular", fromMe: true, userId: null, status: "sent" });
    expect(await ticketsOf(t, f.admin, who.name)).toHaveLength(1);
    expect(ticket.contact.name).toBe(who.name);
  });

  it("a group message lands in the group's ticket naming the member who wrote", async () => {
    const group = `120363${Date.now()}@g.us`;
    const member = customer();
    const r = await api.message(c.user.token, { chat: group, sender: member.jid, pushName: member.name, isGroup: true, message: { conversation: "oi grupo" } }, { origin: t.url });
    expect(r.status).toBe(200);
    const ticket = await waitFor("the group's ticket", async () => {
      const list = await t.api.get("/tickets?status=pending,open,group&showAll=true&pageSize=100", f.admin);
      return (list.body.tickets as Array<{ id: number; isGroup: boolean; contact: { number?: string; name: string } }>).find((x) => x.isGroup && x.contact.name.includes(group.split("@")[0]));
    });
    const [m] = await messagesOf(t, f.admin, ticket.id);
    expect(m).toMatchObject({ body: "oi grupo", participant: { externalId: member.jid, name: member.name, phone: member.jid.split("@")[0] } });
  });

  it("reactions (and taking one away), edits and revokes change the stored message", async () => {
    const who = customer();
    const first = await deliver(who, { conversation: "texto original" });
    const key = { remoteJID: who.jid, fromMe: false, ID: first.id };
    const { ticket } = await ticketWithMessages(t, f.admin, who.name, 1);
    const stored = async () => (await messagesOf(t, f.admin, ticket.id)).find((m) => m.providerId === first.id)!;

    const react = await deliver(who, { reactionMessage: { key, text: "❤️", senderTimestampMS: Date.now() } });
    expect(react.body).toMatchObject({ result: "changed" });
    expect((await stored()).reactions).toEqual([{ by: who.jid, emoji: "❤️" }]);
    await deliver(who, { reactionMessage: { key, text: "", senderTimestampMS: Date.now() } });
    expect((await stored()).reactions).toEqual([]);

    await deliver(who, { protocolMessage: { key, type: PROTOCOL.MESSAGE_EDIT, editedMessage: { conversation: "texto corrigido" }, timestampMS: Date.now() } }, { edit: "1" });
    expect(await stored()).toMatchObject({ body: "texto corrigido", isEdited: true });
    await deliver(who, { protocolMessage: { key, type: PROTOCOL.REVOKE } }, { edit: "7" });
    expect(await stored()).toMatchObject({ isDeleted: true, body: null });
    // None of the changes became a message of its own.
    await sleep(100);
    expect(await messagesOf(t, f.admin, ticket.id)).toHaveLength(1);
  });

  it("status updates and protocol messages without content are acknowledged and skipped", async () => {
    const r = await api.message(c.user.token, { chat: "status@broadcast", sender: "5511911112222@s.whatsapp.net", message: { conversation: "meu status" } }, { origin: t.url });
    expect(r.body).toMatchObject({ result: "ignored" });
    const who = customer();
    const k = await deliver(who, { senderKeyDistributionMessage: { groupID: "x" } });
    expect(k.body).toMatchObject({ result: "ignored" });
    const e = await deliver(who, { protocolMessage: { type: 3, ephemeralExpiration: 86400 } });
    expect(e.body).toMatchObject({ result: "ignored" });
    expect(await ticketsOf(t, f.admin, who.name)).toEqual([]);
    expect(newMessageId()).toMatch(/^3EB0[0-9A-F]{20}$/);
  });
});
