/**
 * wuzapi's events → the channel contract. Pure: no I/O; channel.ts does what the result says.
 *
 * A `Message` event carries whatsmeow's events.Message marshalled by Go's encoding/json:
 * `Info` (MessageSource fields Chat, Sender, IsFromMe, IsGroup, SenderAlt, RecipientAlt, then
 * ID, Type, PushName, Timestamp, Edit …) and `Message`, the waE2E protobuf struct with its
 * json tags (conversation, extendedTextMessage{text, contextInfo{stanzaID, participant}},
 * imageMessage{caption, mimetype}, … protocolMessage{key{remoteJID, fromMe, ID}, type,
 * editedMessage}, reactionMessage{key, text}); enums as numbers. Beside it, wuzapi adds the
 * downloaded file (`base64`, `mimeType`, `fileName`) or, with S3 delivery, `s3.url`.
 *
 * The provider id of a message is WhatsApp's own message id (Info.ID): replies
 * (contextInfo.stanzaID), receipts (MessageIDs), reactions, edits and revokes (key.ID) name it.
 */
import type { AckEvent, InboundMessage, MediaRef, MessageChange } from "@openatende/plugin-sdk";
import { bareJid, isGroupJid, isNotAChat, phoneOf, serverOf } from "./jid";

export type InboundDraft = Omit<InboundMessage, "tenantId" | "connectionId">;

export type MessageAction =
  | { kind: "inbound"; draft: InboundDraft; sender: string }
  | { kind: "change"; targetId: string; change: MessageChange; timestamp: number }
  | { kind: "skip"; reason: string };

/** Spec §9: a chat file is at most 10 MB. */
export const FILE_MAX_BYTES = 10 * 1024 * 1024;

type Obj = Record<string, any>;
const isObj = (x: unknown): x is Obj => !!x && typeof x === "object" && !Array.isArray(x);
const text = (x: unknown): string | undefined => (typeof x === "string" && x.trim() ? x : undefined);

/** Wrappers whatsmeow usually opens before the event (events.Message.UnwrapRaw); opened again when they come closed. */
const WRAPPERS = ["deviceSentMessage", "botInvokeMessage", "ephemeralMessage", "viewOnceMessage", "viewOnceMessageV2", "viewOnceMessageV2Extension", "lottieStickerMessage", "documentWithCaptionMessage", "editedMessage"];
/** Parts that travel beside content (encryption keys, thread metadata): a message of only these has nothing to show. */
const NOT_CONTENT = new Set(["senderKeyDistributionMessage", "fastRatchetKeySenderKeyDistributionMessage", "messageContextInfo"]);

export function unwrap(m: unknown): Obj {
  let cur: Obj = isObj(m) ? m : {};
  for (let depth = 0; depth < 6; depth++) {
    const w = WRAPPERS.find((k) => isObj(cur[k]) && isObj(cur[k].message));
    if (!w) break;
    cur = cur[w].message;
  }
  return cur;
}

function msOf(ts: unknown): number {
  const n = typeof ts === "number" ? (ts < 1e12 ? ts * 1000 : ts) : typeof ts === "string" ? Date.parse(ts) : NaN;
  // Go's zero time ("0001-01-01T00:00:00Z") and missing stamps: the time it arrived.
  return Number.isFinite(n) && n > 1e12 ? n : Date.now();
}

function coordinates(lat: number, lng: number): string {
  return `${Number(lat.toFixed(6))}, ${Number(lng.toFixed(6))}`;
}

/** The phone number of a vCard (WhatsApp puts it as TEL;…waid=<digits>:+55 …). */
export function vcardPhone(vcard: unknown): string | undefined {
  if (typeof vcard !== "string") return undefined;
  const waid = /waid=(\d{6,20})/i.exec(vcard);
  if (waid) return waid[1];
  const tel = /^TEL[^:]*:(.+)$/im.exec(vcard);
  return tel ? tel[1].trim() : undefined;
}

/** The quoted message's id, from the content's contextInfo. */
function quotedId(content: Obj): string | undefined {
  for (const v of Object.values(content)) {
    if (isObj(v) && isObj(v.contextInfo)) {
      const id = text(v.contextInfo.stanzaID) ?? text(v.contextInfo.stanzaId);
      if (id) return id;
    }
  }
  return undefined;
}

/** The addresses of a message: who the conversation is with, and who wrote it. Prefers phone numbers to LIDs. */
export function addressesOf(info: Obj): { chat: string; sender: string; fromMe: boolean; isGroup: boolean } {
  const fromMe = info.IsFromMe === true;
  let chat = bareJid(info.Chat);
  let sender = bareJid(info.Sender);
  const isGroup = info.IsGroup === true || isGroupJid(chat);
  if (!isGroup && serverOf(chat) === "lid") {
    // A hidden-number chat: its phone number, when WhatsApp told it, names the contact.
    const alt = bareJid(fromMe ? info.RecipientAlt : info.SenderAlt);
    if (alt && serverOf(alt) !== "lid") chat = alt;
  }
  if (serverOf(sender) === "lid") {
    const alt = bareJid(info.SenderAlt);
    if (alt && serverOf(alt) !== "lid") sender = alt;
  }
  return { chat, sender, fromMe, isGroup };
}

function editedBody(m: Obj): string | undefined {
  const c = unwrap(m);
  return text(c.conversation) ?? text(c.extendedTextMessage?.text) ?? text(c.imageMessage?.caption) ?? text(c.videoMessage?.caption) ?? text(c.documentMessage?.caption);
}

const PROTOCOL_REVOKE = new Set<unknown>([0, "REVOKE", undefined]);
const PROTOCOL_EDIT = new Set<unknown>([14, "MESSAGE_EDIT"]);

interface FileOf {
  kind: string;
  mimeType: string;
  fileName?: string;
  caption?: string;
}

/** The file part of a content, when it has one. */
function fileOf(c: Obj): FileOf | null {
  if (isObj(c.imageMessage)) return { kind: "image", mimeType: text(c.imageMessage.mimetype) ?? "image/jpeg", caption: text(c.imageMessage.caption) };
  if (isObj(c.videoMessage)) return { kind: c.videoMessage.gifPlayback ? "gif" : "video", mimeType: text(c.videoMessage.mimetype) ?? "video/mp4", caption: text(c.videoMessage.caption) };
  if (isObj(c.ptvMessage)) return { kind: "video note", mimeType: text(c.ptvMessage.mimetype) ?? "video/mp4" };
  if (isObj(c.audioMessage)) return { kind: c.audioMessage.PTT ? "voice note" : "audio", mimeType: text(c.audioMessage.mimetype) ?? "audio/ogg" };
  if (isObj(c.documentMessage)) {
    const d = c.documentMessage;
    return { kind: "document", mimeType: text(d.mimetype) ?? "application/octet-stream", fileName: text(d.fileName) ?? text(d.title), caption: text(d.caption) };
  }
  if (isObj(c.stickerMessage)) return { kind: "sticker", mimeType: text(c.stickerMessage.mimetype) ?? "image/webp" };
  return null;
}

const EXT: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "video/mp4": "mp4",
  "video/3gpp": "3gp",
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/aac": "aac",
  "application/pdf": "pdf",
};

function fileNameFor(id: string, f: FileOf, delivered?: unknown): string {
  if (f.fileName) return f.fileName;
  if (typeof delivered === "string" && /^[^/\\]{1,200}$/.test(delivered)) return delivered;
  const base = f.mimeType.split(";")[0].trim().toLowerCase();
  return `${f.kind.replace(/\s+/g, "-")}-${id}.${EXT[base] ?? "bin"}`;
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The MediaRef of a delivered file, or a note saying why there is none (never a silent loss). */
function mediaOf(evt: Obj, id: string, f: FileOf): { media?: MediaRef; note?: string } {
  const fileName = fileNameFor(id, f, evt.fileName);
  if (typeof evt.base64 === "string" && evt.base64) {
    const size = Math.floor((evt.base64.length * 3) / 4) - (evt.base64.endsWith("==") ? 2 : evt.base64.endsWith("=") ? 1 : 0);
    if (size > FILE_MAX_BYTES) return { note: `📎 ${fileName} (${sizeText(size)}): larger than 10 MB, not kept` };
    return { media: { data: evt.base64, mimeType: f.mimeType, fileName, size } };
  }
  if (isObj(evt.s3) && typeof evt.s3.url === "string" && /^https?:\/\//.test(evt.s3.url)) {
    return { media: { url: evt.s3.url, mimeType: f.mimeType, fileName } };
  }
  return { note: `📎 ${fileName}: the wuzapi server did not send the file (${f.kind})` };
}

/** What one `Message` event means for the core. */
export function normaliseMessage(evt: Obj): MessageAction {
  const e = isObj(evt.event) ? evt.event : {};
  const info: Obj = isObj(e.Info) ? e.Info : {};
  const id = text(info.ID);
  if (!id) return { kind: "skip", reason: "a message without an id" };
  const { chat, sender, fromMe, isGroup } = addressesOf(info);
  if (!chat) return { kind: "skip", reason: `message ${id} names no chat` };
  if (isNotAChat(chat)) return { kind: "skip", reason: `message ${id} is a status update or channel post (${chat})` };
  const timestamp = msOf(info.Timestamp);
  const c = unwrap(e.Message);

  // Changes of an earlier message: reactions, revokes, edits.
  if (isObj(c.reactionMessage)) {
    const target = text(c.reactionMessage.key?.ID);
    if (!target) return { kind: "skip", reason: `reaction ${id} names no message` };
    const by = sender || (fromMe ? "me" : chat);
    return { kind: "change", targetId: target, timestamp, change: { type: "reaction", emoji: typeof c.reactionMessage.text === "string" ? c.reactionMessage.text : "", by, ...(fromMe ? { fromMe: true } : {}) } };
  }
  if (isObj(c.protocolMessage)) {
    const p = c.protocolMessage;
    const target = text(p.key?.ID);
    if (target && PROTOCOL_EDIT.has(p.type)) {
      const body = editedBody(p.editedMessage);
      if (body === undefined) return { kind: "skip", reason: `edit ${id} of ${target} carries no text` };
      return { kind: "change", targetId: target, timestamp, change: { type: "edit", body } };
    }
    if (target && PROTOCOL_REVOKE.has(p.type)) return { kind: "change", targetId: target, timestamp, change: { type: "delete" } };
    return { kind: "skip", reason: `protocol message ${id} (type ${String(p.type)}) is no content` };
  }

  const draft: InboundDraft = { providerMessageId: id, timestamp, from: { externalId: chat } };
  const phone = isGroup ? undefined : phoneOf(chat);
  if (phone) draft.from.phone = phone;
  const pushName = text(info.PushName);
  if (isGroup) {
    draft.isGroup = true;
    if (sender) draft.participant = { externalId: sender, ...(pushName && !fromMe ? { name: pushName } : {}), ...(phoneOf(sender) ? { phone: phoneOf(sender) } : {}) };
  } else if (pushName && !fromMe) draft.from.name = pushName;
  if (fromMe) draft.fromMe = true;
  const quoted = quotedId(c);
  if (quoted) draft.replyToProviderId = quoted;

  let body: string | undefined = text(c.conversation) ?? text(c.extendedTextMessage?.text);
  const f = fileOf(c);
  if (f) {
    const got = mediaOf(evt, id, f);
    if (got.media) draft.media = got.media;
    body = [f.caption, got.note].filter(Boolean).join("\n") || undefined;
  } else if (isObj(c.locationMessage) || isObj(c.liveLocationMessage)) {
    const l = (c.locationMessage ?? c.liveLocationMessage) as Obj;
    const latitude = Number(l.degreesLatitude);
    const longitude = Number(l.degreesLongitude);
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return { kind: "inbound", sender, draft: { ...draft, body: `[unsupported message: location without coordinates]` } };
    const name = [text(l.name), text(l.address)].filter(Boolean).join(", ") || undefined;
    draft.location = { latitude, longitude, ...(name ? { name } : {}) };
    body = `📍 ${name ? `${name} ` : ""}(${coordinates(latitude, longitude)})`;
  } else if (isObj(c.contactMessage)) {
    const name = text(c.contactMessage.displayName) ?? "?";
    const cardPhone = vcardPhone(c.contactMessage.vcard);
    draft.contactCard = { name, ...(cardPhone ? { phone: cardPhone } : {}) };
    body = `👤 ${name}${cardPhone ? ` ${cardPhone}` : ""}`;
  } else if (isObj(c.contactsArrayMessage)) {
    const cards = (Array.isArray(c.contactsArrayMessage.contacts) ? c.contactsArrayMessage.contacts : []).filter(isObj);
    const lines = cards.map((k: Obj) => `👤 ${text(k.displayName) ?? "?"}${vcardPhone(k.vcard) ? ` ${vcardPhone(k.vcard)}` : ""}`);
    if (cards[0]) draft.contactCard = { name: text(cards[0].displayName) ?? "?", ...(vcardPhone(cards[0].vcard) ? { phone: vcardPhone(cards[0].vcard) } : {}) };
    body = lines.join("\n") || `👤 ${text(c.contactsArrayMessage.displayName) ?? "?"}`;
  } else if (body === undefined) {
    body = answerText(c);
  }
  if (body === undefined && !draft.media) {
    const kinds = Object.keys(c).filter((k) => !NOT_CONTENT.has(k));
    if (!kinds.length) return { kind: "skip", reason: `message ${id} has no content (${Object.keys(c).join(", ") || "empty"})` };
    body = `[unsupported message: ${kinds[0]}]`;
  }
  if (body !== undefined) draft.body = body;
  return { kind: "inbound", draft, sender };
}

/** Answers to buttons, lists and polls, invitations: the text the customer saw. */
function answerText(c: Obj): string | undefined {
  if (isObj(c.buttonsResponseMessage)) return text(c.buttonsResponseMessage.selectedDisplayText) ?? text(c.buttonsResponseMessage.selectedButtonID);
  if (isObj(c.templateButtonReplyMessage)) return text(c.templateButtonReplyMessage.selectedDisplayText) ?? text(c.templateButtonReplyMessage.selectedID);
  if (isObj(c.listResponseMessage)) return text(c.listResponseMessage.title) ?? text(c.listResponseMessage.singleSelectReply?.selectedRowID);
  if (isObj(c.interactiveResponseMessage)) return text(c.interactiveResponseMessage.body?.text);
  const poll = c.pollCreationMessage ?? c.pollCreationMessageV2 ?? c.pollCreationMessageV3;
  if (isObj(poll)) {
    const options = (Array.isArray(poll.options) ? poll.options : []).map((o: Obj) => `- ${text(o?.optionName) ?? "?"}`);
    return [`📊 ${text(poll.name) ?? ""}`.trim(), ...options].join("\n");
  }
  if (isObj(c.groupInviteMessage)) return `👥 ${text(c.groupInviteMessage.groupName) ?? ""} ${text(c.groupInviteMessage.caption) ?? ""}`.trim();
  return undefined;
}

/**
 * A `ReadReceipt` event → acks of the messages it names. wuzapi sends state Delivered, Read
 * (the other side read ours) and ReadSelf (one of the account's own devices read a customer's
 * message: no status of ours changes, so no ack); "Played" is mapped should a version send it.
 */
export function acksOf(evt: Obj): Array<Omit<AckEvent, "tenantId" | "connectionId">> {
  const r: Obj = isObj(evt.event) ? evt.event : {};
  // wuzapi's `state`; without it whatsmeow's receipt type, where "" is a delivery.
  const state = typeof evt.state === "string" ? evt.state.toLowerCase() : typeof r.Type === "string" ? r.Type.toLowerCase() || "delivered" : null;
  const status = state === "delivered" ? "delivered" : state === "read" ? "read" : state === "played" ? "played" : null;
  if (!status) return [];
  const ids = (Array.isArray(r.MessageIDs) ? r.MessageIDs : []).filter((x: unknown): x is string => typeof x === "string" && !!x);
  const participant = r.IsGroup === true ? bareJid(r.Sender) : "";
  const timestamp = msOf(r.Timestamp);
  return ids.map((providerMessageId: string) => ({ providerMessageId, status, timestamp, ...(participant ? { participant } : {}) }));
}
