/**
 * A Telegram update → the channel contract's inbound message. Pure: the file of a media
 * message is only named here (its id, name, type, size); media.ts downloads it.
 *
 * Ids: a Telegram message is identified by its chat and its message_id (message ids count
 * per chat), so the provider id is "<chat id>:<message id>", for inbound and outbound alike.
 * A redelivered update carries the same provider id, so the core stores it once even when the
 * plugin's own update_id memory is gone (a restart).
 */
import type { Message, Update } from "telegraf/types";
import type { InboundMessage } from "@openatende/plugin-sdk";

export type InboundDraft = Omit<InboundMessage, "tenantId" | "connectionId">;

export interface FileToFetch {
  fileId: string;
  fileName: string;
  mimeType: string;
  /** As Telegram reported it; absent for some files. */
  size?: number;
}

export interface Normalised {
  draft: InboundDraft;
  file?: FileToFetch;
}

export function providerId(chatId: number | string, messageId: number): string {
  return `${chatId}:${messageId}`;
}

/** "<chat>:<message>" → its parts (the chat may be "@name", so the last colon splits). */
export function parseProviderId(id: string): { chatId: string; messageId: number } | null {
  const i = id.lastIndexOf(":");
  if (i <= 0) return null;
  const messageId = Number(id.slice(i + 1));
  if (!Number.isInteger(messageId) || messageId <= 0) return null;
  return { chatId: id.slice(0, i), messageId };
}

type AnyMessage = Message & Record<string, any>;

function personName(u: { first_name?: string; last_name?: string; username?: string; id?: number } | undefined): string | undefined {
  if (!u) return undefined;
  const full = [u.first_name, u.last_name].filter((x) => typeof x === "string" && x.trim()).join(" ").trim();
  return full || (u.username ? `@${u.username}` : undefined);
}

function chatName(m: AnyMessage): string {
  const c = m.chat as { type: string; id: number; title?: string; first_name?: string; last_name?: string; username?: string };
  if (c.type === "private") return personName(c) ?? personName(m.from) ?? String(c.id);
  return c.title ?? (c.username ? `@${c.username}` : String(c.id));
}

/** The file of a media message, or null when the message carries none. */
function fileOf(m: AnyMessage): FileToFetch | null {
  const uid = (f: { file_unique_id?: string; file_id: string }) => f.file_unique_id ?? f.file_id.slice(-12);
  if (Array.isArray(m.photo) && m.photo.length) {
    // Sizes come smallest first; the largest is what the customer sent.
    const p = m.photo[m.photo.length - 1];
    return { fileId: p.file_id, fileName: `photo-${uid(p)}.jpg`, mimeType: "image/jpeg", size: p.file_size };
  }
  if (m.animation) {
    const a = m.animation;
    return { fileId: a.file_id, fileName: a.file_name ?? `animation-${uid(a)}.mp4`, mimeType: a.mime_type ?? "video/mp4", size: a.file_size };
  }
  if (m.video) {
    const v = m.video;
    return { fileId: v.file_id, fileName: v.file_name ?? `video-${uid(v)}.mp4`, mimeType: v.mime_type ?? "video/mp4", size: v.file_size };
  }
  if (m.video_note) {
    const v = m.video_note;
    return { fileId: v.file_id, fileName: `video-note-${uid(v)}.mp4`, mimeType: "video/mp4", size: v.file_size };
  }
  if (m.voice) {
    const v = m.voice;
    return { fileId: v.file_id, fileName: `voice-${uid(v)}.ogg`, mimeType: v.mime_type ?? "audio/ogg", size: v.file_size };
  }
  if (m.audio) {
    const a = m.audio;
    const title = [a.performer, a.title].filter(Boolean).join(" - ");
    return { fileId: a.file_id, fileName: a.file_name ?? `${title || `audio-${uid(a)}`}.mp3`, mimeType: a.mime_type ?? "audio/mpeg", size: a.file_size };
  }
  if (m.sticker) {
    const s = m.sticker;
    const [ext, mime] = s.is_animated ? ["tgs", "application/x-tgsticker"] : s.is_video ? ["webm", "video/webm"] : ["webp", "image/webp"];
    return { fileId: s.file_id, fileName: `sticker-${uid(s)}.${ext}`, mimeType: mime, size: s.file_size };
  }
  if (m.document) {
    const d = m.document;
    return { fileId: d.file_id, fileName: d.file_name ?? `document-${uid(d)}`, mimeType: d.mime_type ?? "application/octet-stream", size: d.file_size };
  }
  return null;
}

function coordinates(lat: number, lng: number): string {
  return `${Number(lat.toFixed(6))}, ${Number(lng.toFixed(6))}`;
}

/**
 * The inbound message of an update, or null for updates that are not a customer's message
 * (service messages such as a member joining, polls, games, other update kinds).
 */
export function normaliseUpdate(update: Update): Normalised | null {
  const m = (update as Update.MessageUpdate).message as AnyMessage | undefined;
  if (!m || !m.chat || typeof m.message_id !== "number") return null;

  const isGroup = m.chat.type !== "private";
  const draft: InboundDraft = {
    providerMessageId: providerId(m.chat.id, m.message_id),
    timestamp: (typeof m.date === "number" && m.date > 0 ? m.date : Math.floor(Date.now() / 1000)) * 1000,
    from: { externalId: String(m.chat.id), name: chatName(m) },
  };
  if (isGroup) draft.isGroup = true;
  if (m.reply_to_message?.message_id) draft.replyToProviderId = providerId(m.chat.id, m.reply_to_message.message_id);

  let body: string | undefined = typeof m.text === "string" ? m.text : typeof m.caption === "string" ? m.caption : undefined;
  const file = fileOf(m);

  if (m.location && !file) {
    const { latitude, longitude } = m.location as { latitude: number; longitude: number };
    const venue = m.venue as { title?: string; address?: string } | undefined;
    const name = venue ? [venue.title, venue.address].filter(Boolean).join(", ") : undefined;
    draft.location = { latitude, longitude, ...(name ? { name } : {}) };
    body = `📍 ${name ? `${name} ` : ""}(${coordinates(latitude, longitude)})`;
  } else if (m.contact) {
    const c = m.contact as { first_name: string; last_name?: string; phone_number?: string };
    const name = [c.first_name, c.last_name].filter(Boolean).join(" ").trim() || c.phone_number || "?";
    draft.contactCard = { name, ...(c.phone_number ? { phone: c.phone_number } : {}) };
    body = `👤 ${name}${c.phone_number ? ` ${c.phone_number}` : ""}`;
  } else if (m.sticker && body === undefined && m.sticker.emoji) {
    body = m.sticker.emoji;
  } else if (!file && body === undefined) {
    return null;
  }

  // In a group the ticket is the group's: the sender is named in the text.
  if (isGroup) {
    const who = personName(m.from) ?? "?";
    body = body ? `${who}: ${body}` : who;
  }
  if (body !== undefined) draft.body = body;
  return file ? { draft, file } : { draft };
}
