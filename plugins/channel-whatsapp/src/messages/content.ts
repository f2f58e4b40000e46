/**
 * What a message's content (already unwrapped by normalizeMessageContent) says, as the
 * contract's parts: a readable body, a file to download, a location, a contact card and the
 * quoted message. Pure: nothing is downloaded here (inbound-media.ts does that).
 *
 * Every content kind a person can send ends up with something visible: a kind this file does
 * not know becomes "[unsupported WhatsApp message: <type>]" rather than nothing.
 */
import type { proto } from "@whiskeysockets/baileys";

export type MediaKind = "image" | "video" | "audio" | "document" | "sticker";

export interface MediaInfo {
  kind: MediaKind;
  /** What the agent reads in a note when the file cannot be fetched ("voice note", "document report.pdf"). */
  label: string;
  mimeType: string;
  fileName: string;
  /** As WhatsApp declared it (fileLength). */
  size?: number;
}

export interface Described {
  body?: string;
  media?: MediaInfo;
  location?: { latitude: number; longitude: number; name?: string };
  contactCard?: { name: string; phone?: string };
  replyToProviderId?: string;
}

/** Kinds that carry no message of their own (signalling, encrypted votes, album headers). */
export const SIGNALLING_KINDS = new Set([
  "pollUpdateMessage",
  "keepInChatMessage",
  "pinInChatMessage",
  "encReactionMessage",
  "encEventResponseMessage",
  "encCommentMessage",
  "albumMessage",
  "stickerSyncRmrMessage",
]);

/** Keys that ride along with a message's content (key distribution for groups) and are never the content. */
const CARRIERS = new Set(["senderKeyDistributionMessage", "fastRatchetKeySenderKeyDistributionMessage", "messageContextInfo"]);

/**
 * The content's kind, as Baileys' getContentType tells it, except that every key carrier is
 * passed over (getContentType skips only senderKeyDistributionMessage, so a group message
 * with a fast-ratchet key beside its text would read as that key).
 */
export function contentTypeOf(content: proto.IMessage | null | undefined): string | undefined {
  if (!content) return undefined;
  return Object.keys(content).find((k) => (k === "conversation" || k.includes("Message")) && !CARRIERS.has(k) && (content as Record<string, unknown>)[k] != null);
}

export const POLL_KINDS = ["pollCreationMessage", "pollCreationMessageV2", "pollCreationMessageV3", "pollCreationMessageV4", "pollCreationMessageV5"] as const;

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
  "audio/amr": "amr",
  "application/pdf": "pdf",
};

/** "audio/ogg; codecs=opus" → "audio/ogg". */
export function baseMime(m: string | null | undefined, fallback: string): string {
  const b = (m ?? "").split(";")[0].trim().toLowerCase();
  return b.includes("/") ? b : fallback;
}

const numberOf = (v: unknown): number | undefined => {
  if (v === null || v === undefined) return undefined;
  const n = typeof v === "object" && "toNumber" in (v as object) ? (v as { toNumber(): number }).toNumber() : Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};

const text = (s: string | null | undefined): string | undefined => (typeof s === "string" && s.trim() ? s : undefined);

function mediaOf(content: proto.IMessage, type: string, id: string): { media: MediaInfo; caption?: string } | undefined {
  const file = (kind: MediaKind, label: string, m: { mimetype?: string | null; fileLength?: unknown }, fallbackMime: string, name?: string | null) => {
    const mimeType = baseMime(m.mimetype, fallbackMime);
    const fileName = text(name) ?? `${kind === "audio" && label === "voice note" ? "voice" : kind}-${id}.${EXT[mimeType] ?? "bin"}`;
    const size = numberOf(m.fileLength);
    return { kind, label, mimeType, fileName, ...(size !== undefined ? { size } : {}) };
  };
  switch (type) {
    case "imageMessage": {
      const m = content.imageMessage!;
      return { media: file("image", "image", m, "image/jpeg"), caption: text(m.caption) };
    }
    case "videoMessage":
    case "ptvMessage": {
      const m = (type === "videoMessage" ? content.videoMessage : content.ptvMessage)!;
      const label = type === "ptvMessage" ? "video note" : m.gifPlayback ? "GIF" : "video";
      return { media: file("video", label, m, "video/mp4"), caption: text(m.caption) };
    }
    case "audioMessage": {
      const m = content.audioMessage!;
      return { media: file("audio", m.ptt ? "voice note" : "audio", m, "audio/ogg") };
    }
    case "documentMessage": {
      const m = content.documentMessage!;
      const media = file("document", "document", m, "application/octet-stream", m.fileName ?? m.title);
      media.label = `document ${media.fileName}`;
      return { media, caption: text(m.caption) };
    }
    case "stickerMessage": {
      const m = content.stickerMessage!;
      return { media: file("sticker", "sticker", m, "image/webp") };
    }
    default:
      return undefined;
  }
}

/** A vCard's name and first phone (the WhatsApp id "waid" preferred: it is the bare number). */
export function parseVcard(vcard: string | null | undefined, displayName?: string | null): { name: string; phone?: string } {
  const lines = (vcard ?? "").split(/\r?\n/);
  const fn = lines.find((l) => /^FN[;:]/i.test(l))?.replace(/^FN[^:]*:/i, "").trim();
  const tel = lines.find((l) => /^(item\d+\.)?TEL[;:]/i.test(l));
  let phone: string | undefined;
  if (tel) {
    const waid = /waid=(\d+)/i.exec(tel)?.[1];
    const digits = (waid ?? tel.slice(tel.lastIndexOf(":") + 1)).replace(/\D/g, "");
    if (digits) phone = digits;
  }
  const name = text(displayName)?.trim() ?? (fn || phone || "?");
  return { name, ...(phone ? { phone } : {}) };
}

const coordinates = (lat: number, lng: number) => `${Number(lat.toFixed(6))}, ${Number(lng.toFixed(6))}`;

function pollText(p: proto.Message.IPollCreationMessage): string {
  const options = (p.options ?? []).map((o) => `• ${o.optionName ?? ""}`).join("\n");
  return `📊 ${p.name ?? ""}${options ? `\n${options}` : ""}`;
}

function templateText(t: proto.Message.ITemplateMessage): string | undefined {
  const h = t.hydratedTemplate ?? t.hydratedFourRowTemplate;
  return text(h?.hydratedContentText) ?? text(h?.hydratedTitleText) ?? text(t.fourRowTemplate?.content?.namespace);
}

/** The readable text of content kinds that are text one way or another; undefined for others. */
function textOf(content: proto.IMessage, type: string): string | undefined {
  switch (type) {
    case "conversation":
      return content.conversation ?? "";
    case "extendedTextMessage":
      return content.extendedTextMessage?.text ?? "";
    case "buttonsResponseMessage": {
      const m = content.buttonsResponseMessage!;
      return text(m.selectedDisplayText) ?? text(m.selectedButtonId) ?? "";
    }
    case "listResponseMessage": {
      const m = content.listResponseMessage!;
      const t = [text(m.title), text(m.description)].filter(Boolean).join("\n");
      return t || (text(m.singleSelectReply?.selectedRowId) ?? "");
    }
    case "templateButtonReplyMessage": {
      const m = content.templateButtonReplyMessage!;
      return text(m.selectedDisplayText) ?? text(m.selectedId) ?? "";
    }
    case "interactiveResponseMessage": {
      const m = content.interactiveResponseMessage!;
      return text(m.body?.text) ?? text(m.nativeFlowResponseMessage?.name) ?? "";
    }
    case "buttonsMessage": {
      const m = content.buttonsMessage!;
      return [text(m.contentText), text(m.footerText)].filter(Boolean).join("\n");
    }
    case "listMessage": {
      const m = content.listMessage!;
      return [text(m.title), text(m.description), text(m.footerText)].filter(Boolean).join("\n");
    }
    case "templateMessage":
      return templateText(content.templateMessage!) ?? "";
    case "interactiveMessage": {
      const m = content.interactiveMessage!;
      return [text(m.header?.title), text(m.body?.text), text(m.footer?.text)].filter(Boolean).join("\n");
    }
    case "groupInviteMessage": {
      const m = content.groupInviteMessage!;
      return `👥 Group invitation: ${m.groupName ?? ""}${text(m.caption) ? `\n${m.caption}` : ""}`;
    }
    case "eventMessage": {
      const m = content.eventMessage!;
      const start = numberOf(m.startTime);
      return `📅 ${m.name ?? ""}${text(m.description) ? `\n${m.description}` : ""}${start ? `\n${new Date(start * 1000).toISOString()}` : ""}`;
    }
    default:
      if ((POLL_KINDS as readonly string[]).includes(type)) return pollText((content as Record<string, proto.Message.IPollCreationMessage>)[type]);
      return undefined;
  }
}

/** The provider id of the quoted message, when the content is a reply. */
export function replyToOf(content: proto.IMessage, type: string): string | undefined {
  const inner = (content as Record<string, unknown>)[type] as { contextInfo?: proto.IContextInfo | null } | null | undefined;
  const id = inner && typeof inner === "object" ? inner.contextInfo?.stanzaId : undefined;
  return text(id);
}

/** Everything the content says; `id` names generated file names. */
export function describeContent(content: proto.IMessage, type: string, id: string): Described {
  const replyToProviderId = replyToOf(content, type);
  const out: Described = replyToProviderId ? { replyToProviderId } : {};

  const media = mediaOf(content, type, id);
  if (media) {
    out.media = media.media;
    if (media.caption) out.body = media.caption;
    return out;
  }
  if (type === "locationMessage" || type === "liveLocationMessage") {
    const live = type === "liveLocationMessage";
    const m = (live ? content.liveLocationMessage : content.locationMessage)! as proto.Message.ILocationMessage & proto.Message.ILiveLocationMessage;
    const latitude = Number(m.degreesLatitude ?? 0);
    const longitude = Number(m.degreesLongitude ?? 0);
    const name = live ? text(m.caption) : [text(m.name), text(m.address)].filter(Boolean).join(", ") || undefined;
    out.location = { latitude, longitude, ...(name ? { name } : {}) };
    out.body = `📍 ${live ? "Live location " : ""}${name ? `${name} ` : ""}(${coordinates(latitude, longitude)})`;
    return out;
  }
  if (type === "contactMessage") {
    const card = parseVcard(content.contactMessage?.vcard, content.contactMessage?.displayName);
    out.contactCard = card;
    out.body = `👤 ${card.name}${card.phone ? ` ${card.phone}` : ""}`;
    return out;
  }
  if (type === "contactsArrayMessage") {
    const cards = (content.contactsArrayMessage?.contacts ?? []).map((c) => parseVcard(c.vcard, c.displayName));
    if (cards.length) out.contactCard = cards[0];
    out.body = cards.length ? cards.map((c) => `👤 ${c.name}${c.phone ? ` ${c.phone}` : ""}`).join("\n") : `👤 ${content.contactsArrayMessage?.displayName ?? "?"}`;
    return out;
  }
  const t = textOf(content, type);
  out.body = t !== undefined ? t : `[unsupported WhatsApp message: ${type}]`;
  return out;
}

/** The text an edit replaces a message's text with (a text, or a media caption). */
export function editedTextOf(content: proto.IMessage | null | undefined, type: string | undefined): string | undefined {
  if (!content || !type) return undefined;
  const t = textOf(content, type);
  if (t !== undefined) return t;
  return mediaOf(content, type, "")?.caption;
}
