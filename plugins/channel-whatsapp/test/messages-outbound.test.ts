/**
 * The core's sends as Baileys payloads. Each payload is also passed through the library's own
 * generateWAMessageContent (with a stub upload) to prove it is what sendMessage accepts and
 * becomes the protobuf WhatsApp expects.
 */
import { generateWAMessageContent, generateWAMessageFromContent, proto, type AnyMessageContent, type WAMessage } from "@whiskeysockets/baileys";
import type { MediaRef, OutboundMessage } from "@openatende/plugin-sdk";
import { buildSend, readReceipt, sendAsFor, targetJid } from "../src/messages";
import { CUSTOMER, CUSTOMER_JID, CUSTOMER_LID, FakeSession, GROUP_JID, MemoryKeys, ME, waMessage } from "./fixtures/wa";

const readMedia = async (m: MediaRef) => Buffer.from(m.data ?? "", "base64");
const uploads: string[] = [];
/** What Baileys does with a payload before it reaches the socket: upload (stubbed) and build the protobuf. */
const generate = (content: AnyMessageContent) =>
  generateWAMessageContent(content, {
    upload: async (_path, { mediaType }) => {
      uploads.push(mediaType);
      return { mediaUrl: `https://mmg.whatsapp.net/${mediaType}`, directPath: `/${mediaType}` };
    },
  });

function setup() {
  const session = new FakeSession();
  const keys = new MemoryKeys();
  const received = waMessage({ id: "IN1", remoteJid: CUSTOMER_JID, message: { conversation: "Qual o prazo?" } });
  const sent = waMessage({ id: "OUT1", remoteJid: CUSTOMER_JID, fromMe: true, message: { conversation: "Até sexta" } });
  const inGroup = waMessage({ id: "GIN1", remoteJid: GROUP_JID, participant: "5511933334444@s.whatsapp.net", message: { conversation: "e aí" } });
  for (const m of [received, sent, inGroup]) void keys.remember(m);
  return { session, keys };
}

const build = (o: OutboundMessage, to = CUSTOMER) => {
  const { session, keys } = setup();
  return buildSend(session, keys, to, o, readMedia);
};

describe("targets", () => {
  it.each([
    [CUSTOMER, CUSTOMER_JID],
    ["+55 (11) 98888-7777", CUSTOMER_JID],
    [GROUP_JID, GROUP_JID],
    [CUSTOMER_LID, CUSTOMER_LID],
    ["5511988887777:3@s.whatsapp.net", CUSTOMER_JID],
  ])("%s → %s", (id, jid) => {
    expect(targetJid(id)).toBe(jid);
  });

  it("an identity that names no one is the catalogue's invalid-number error", () => {
    for (const bad of ["", "abc", "12", "x@newsletter"]) {
      expect(() => targetJid(bad)).toThrow(expect.objectContaining({ type: "ERR_CONTACT_NUMBER_INVALID", code: 400 }));
    }
  });
});

describe("text", () => {
  it("plain text", async () => {
    const b = await build({ kind: "text", body: "Olá!" });
    expect(b).toEqual({ jid: CUSTOMER_JID, content: { text: "Olá!" } });
    const m = await generate(b.content);
    expect(m.extendedTextMessage?.text ?? m.conversation).toBe("Olá!");
  });

  it("a reply quotes the stored message, and Baileys builds the quote from it", async () => {
    const b = await build({ kind: "text", body: "Até sexta-feira", replyToProviderId: "IN1" });
    expect(b.options?.quoted?.key).toMatchObject({ id: "IN1", remoteJid: CUSTOMER_JID, fromMe: false });
    expect(b.options?.quoted?.message).toEqual(expect.objectContaining({ conversation: "Qual o prazo?" }));
    const full = generateWAMessageFromContent(b.jid, await generate(b.content), { userJid: ME.id, quoted: b.options!.quoted as WAMessage });
    expect(full.message?.extendedTextMessage?.contextInfo).toMatchObject({ stanzaId: "IN1", participant: CUSTOMER_JID, quotedMessage: { conversation: "Qual o prazo?" } });
  });

  it("a reply to a message this plugin does not know goes out without the quote", async () => {
    const b = await build({ kind: "text", body: "oi", replyToProviderId: "NEVER-SEEN" });
    expect(b).toEqual({ jid: CUSTOMER_JID, content: { text: "oi" } });
  });

  it("a known key whose content was never stored also goes unquoted (Baileys needs the content)", async () => {
    const session = new FakeSession();
    const keys = new MemoryKeys();
    void keys.remember(waMessage({ id: "STUB1", message: null }));
    const b = await buildSend(session, keys, CUSTOMER, { kind: "text", body: "x", replyToProviderId: "STUB1" }, readMedia);
    expect(b.options).toBeUndefined();
  });
});

describe("media", () => {
  const file = (mimeType: string, bytes = "file-bytes", fileName?: string): MediaRef => ({ data: Buffer.from(bytes).toString("base64"), mimeType, ...(fileName ? { fileName } : {}) });

  it.each([
    ["image/jpeg", "image"],
    ["image/png", "image"],
    ["image/jpg", "image"],
    ["image/webp", "sticker"],
    ["video/mp4", "video"],
    ["audio/ogg; codecs=opus", "voice"],
    ["audio/ogg", "voice"],
    ["audio/mpeg", "audio"],
    ["application/pdf", "document"],
    ["image/gif", "document"],
    ["audio/webm", "document"],
  ])("%s goes as %s", (mime, as) => {
    expect(sendAsFor(mime)).toBe(as);
  });

  it("image with caption", async () => {
    const b = await build({ kind: "media", body: "Catálogo", media: file("image/jpeg") });
    expect(b).toEqual({ jid: CUSTOMER_JID, content: { image: Buffer.from("file-bytes"), mimetype: "image/jpeg", caption: "Catálogo" } });
    const m = await generate(b.content);
    expect(m.imageMessage).toMatchObject({ caption: "Catálogo", mimetype: "image/jpeg", url: "https://mmg.whatsapp.net/image" });
    expect(uploads).toContain("image");
  });

  it("video with caption", async () => {
    const b = await build({ kind: "media", body: "vídeo", media: file("video/mp4") });
    expect(b.content).toEqual({ video: Buffer.from("file-bytes"), mimetype: "video/mp4", caption: "vídeo" });
    expect((await generate(b.content)).videoMessage).toMatchObject({ caption: "vídeo", mimetype: "video/mp4" });
  });

  it("an Ogg/Opus recording is a voice note; its text goes after it", async () => {
    const b = await build({ kind: "media", body: "ouça", media: file("audio/ogg") });
    expect(b).toEqual({ jid: CUSTOMER_JID, content: { audio: Buffer.from("file-bytes"), mimetype: "audio/ogg; codecs=opus", ptt: true }, followUps: [{ text: "ouça" }] });
    const m = await generate(b.content);
    expect(m.audioMessage).toMatchObject({ ptt: true, mimetype: "audio/ogg; codecs=opus" });
  });

  it("an mp3 is plain audio", async () => {
    const b = await build({ kind: "media", media: file("audio/mpeg") });
    expect(b).toEqual({ jid: CUSTOMER_JID, content: { audio: Buffer.from("file-bytes"), mimetype: "audio/mpeg", ptt: false } });
    expect((await generate(b.content)).audioMessage?.ptt).toBe(false);
  });

  it("a document keeps its name and type, with caption", async () => {
    const b = await build({ kind: "media", body: "segue", media: file("application/pdf", "%PDF-1.4", "proposta.pdf") });
    expect(b.content).toEqual({ document: Buffer.from("%PDF-1.4"), mimetype: "application/pdf", fileName: "proposta.pdf", caption: "segue" });
    expect((await generate(b.content)).documentMessage).toMatchObject({ fileName: "proposta.pdf", mimetype: "application/pdf", caption: "segue" });
  });

  it("a document without a name is 'file'", async () => {
    const b = await build({ kind: "media", media: file("application/zip") });
    expect(b.content).toMatchObject({ fileName: "file", mimetype: "application/zip" });
  });

  it("a WebP is a sticker", async () => {
    const b = await build({ kind: "media", media: file("image/webp") });
    expect(b.content).toEqual({ sticker: Buffer.from("file-bytes"), mimetype: "image/webp" });
    expect((await generate(b.content)).stickerMessage?.mimetype).toBe("image/webp");
  });

  it("the sticker kind is Baileys' sticker, whatever the file is named, and a reply quotes", async () => {
    const b = await build({ kind: "sticker", media: file("image/webp", "RIFF....WEBPVP8L", "figurinha.webp"), replyToProviderId: "IN1" });
    expect(b.content).toEqual({ sticker: Buffer.from("RIFF....WEBPVP8L"), mimetype: "image/webp" });
    expect(b.options?.quoted?.key?.id).toBe("IN1");
    expect(b.followUps).toBeUndefined();
    expect((await generate(b.content)).stickerMessage).toMatchObject({ mimetype: "image/webp", url: "https://mmg.whatsapp.net/sticker" });
  });

  it("a media reply quotes too", async () => {
    const b = await build({ kind: "media", media: file("image/png"), replyToProviderId: "IN1" });
    expect(b.options?.quoted?.key?.id).toBe("IN1");
  });

  it("a file over 10 MB is refused with the catalogue's code, by its declared size before it is read", async () => {
    const session = new FakeSession();
    let read = 0;
    const reader = async (m: MediaRef) => {
      read++;
      return readMedia(m);
    };
    const big: MediaRef = { path: "tenants/7/big.mp4", mimeType: "video/mp4", size: 10 * 1024 * 1024 + 1 };
    await expect(buildSend(session, new MemoryKeys(), CUSTOMER, { kind: "media", media: big }, reader)).rejects.toMatchObject({
      type: "ERR_MEDIA_TOO_LARGE",
      code: 413,
      data: { field: "message.media", size: 10 * 1024 * 1024 + 1, max: 10 * 1024 * 1024 },
    });
    expect(read).toBe(0);
  });

  it("…and by its real size when none was declared", async () => {
    const reader = async () => Buffer.alloc(10 * 1024 * 1024 + 5);
    await expect(buildSend(new FakeSession(), new MemoryKeys(), CUSTOMER, { kind: "media", media: { path: "x", mimeType: "application/pdf" } }, reader)).rejects.toMatchObject({
      type: "ERR_MEDIA_TOO_LARGE",
    });
  });

  it("…and when the reader itself refuses a too-large file (413)", async () => {
    const reader = async () => {
      throw Object.assign(new Error("the file is larger than 10485760 bytes"), { code: 413 });
    };
    await expect(buildSend(new FakeSession(), new MemoryKeys(), CUSTOMER, { kind: "media", media: { path: "x", mimeType: "application/pdf" } }, reader)).rejects.toMatchObject({
      type: "ERR_MEDIA_TOO_LARGE",
    });
  });
});

describe("reactions, edits, deletes", () => {
  it("a reaction names the stored key; Baileys builds reactionMessage", async () => {
    const b = await build({ kind: "reaction", targetProviderId: "IN1", emoji: "👍" });
    expect(b).toEqual({ jid: CUSTOMER_JID, content: { react: { text: "👍", key: { remoteJid: CUSTOMER_JID, fromMe: false, id: "IN1" } } } });
    const m = await generate(b.content);
    expect(m.reactionMessage).toMatchObject({ text: "👍", key: { id: "IN1", remoteJid: CUSTOMER_JID } });
  });

  it("an empty emoji removes the reaction", async () => {
    const b = await build({ kind: "reaction", targetProviderId: "OUT1", emoji: "" });
    expect(b.content).toEqual({ react: { text: "", key: { remoteJid: CUSTOMER_JID, fromMe: true, id: "OUT1" } } });
  });

  it("a reaction in a group carries the member's key and goes to the group", async () => {
    const b = await build({ kind: "reaction", targetProviderId: "GIN1", emoji: "🙏" }, GROUP_JID);
    expect(b).toEqual({ jid: GROUP_JID, content: { react: { text: "🙏", key: { remoteJid: GROUP_JID, fromMe: false, id: "GIN1", participant: "5511933334444@s.whatsapp.net" } } } });
  });

  it("an edit of the account's message; Baileys wraps it in a MESSAGE_EDIT protocol message", async () => {
    const b = await build({ kind: "edit", targetProviderId: "OUT1", body: "Até sábado" });
    expect(b).toEqual({ jid: CUSTOMER_JID, content: { text: "Até sábado", edit: { remoteJid: CUSTOMER_JID, fromMe: true, id: "OUT1" } } });
    const m = await generate(b.content);
    expect(m.protocolMessage?.type).toBe(proto.Message.ProtocolMessage.Type.MESSAGE_EDIT);
    expect(m.protocolMessage?.key?.id).toBe("OUT1");
    expect(m.protocolMessage?.editedMessage?.extendedTextMessage?.text ?? m.protocolMessage?.editedMessage?.conversation).toBe("Até sábado");
  });

  it("a customer's message cannot be edited", async () => {
    await expect(build({ kind: "edit", targetProviderId: "IN1", body: "x" })).rejects.toMatchObject({ type: "ERR_MESSAGE_EDIT_NOT_ALLOWED", code: 409 });
  });

  it("a delete for everyone; Baileys makes it a REVOKE", async () => {
    const b = await build({ kind: "delete", targetProviderId: "OUT1" });
    expect(b).toEqual({ jid: CUSTOMER_JID, content: { delete: { remoteJid: CUSTOMER_JID, fromMe: true, id: "OUT1" } } });
    const m = await generate(b.content);
    expect(m.protocolMessage).toMatchObject({ type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: "OUT1" } });
  });

  it.each([
    ["reaction", { kind: "reaction", targetProviderId: "GONE", emoji: "👍" }],
    ["edit", { kind: "edit", targetProviderId: "GONE", body: "x" }],
    ["delete", { kind: "delete", targetProviderId: "GONE" }],
  ] as Array<[string, OutboundMessage]>)("a %s of an unknown message is ERR_MESSAGE_NOT_FOUND", async (_k, o) => {
    await expect(build(o)).rejects.toMatchObject({ type: "ERR_MESSAGE_NOT_FOUND", code: 404, data: { providerMessageId: "GONE" } });
  });

  it("templates are not a linked device's", async () => {
    await expect(build({ kind: "template", name: "t", language: "pt_BR" })).rejects.toMatchObject({ type: "ERR_CHANNEL_UNSUPPORTED", code: 400 });
  });
});

describe("read receipts", () => {
  it("marks the known received messages read, once each, and names the unknown", async () => {
    const { session, keys } = setup();
    const r = await readReceipt(session, keys, ["IN1", "GIN1", "IN1", "OUT1", "NOPE"]);
    expect(r).toEqual({ read: ["IN1", "GIN1"], unknown: ["NOPE"] });
    expect(session.callsOf("readMessages")).toEqual([
      [
        [
          { remoteJid: CUSTOMER_JID, id: "IN1", fromMe: false },
          { remoteJid: GROUP_JID, id: "GIN1", fromMe: false, participant: "5511933334444@s.whatsapp.net" },
        ],
      ],
    ]);
  });

  it("nothing to read asks nothing of the session", async () => {
    const { session, keys } = setup();
    expect(await readReceipt(session, keys, ["OUT1"])).toEqual({ read: [], unknown: [] });
    expect(session.callsOf("readMessages")).toEqual([]);
  });
});
