/**
 * What one NotificaMe webhook event becomes (INTEGRATIONS.md §2.4, samples captured by the
 * open-source clients):
 *
 *   { type: "MESSAGE", id, timestamp: "2024-03-29 10:38:07 pm", subscriptionId: <channel token>,
 *     channel: "facebook", direction: "IN",
 *     message: { id, from, to: <channel token>, direction: "IN", channel,
 *                visitor: { name, firstName, lastName, picture }, group?: { id, name },
 *                isGroup: "false", contents: [ { type: "text", text } | { type: "file", fileUrl, fileMimeType, fileName } ],
 *                timestamp } }
 *   { type: "MESSAGE_STATUS", timestamp, subscriptionId, channel, messageId, contentIndex,
 *     messageStatus: { timestamp, code: "SENT"|"DELIVERED"|"READ"|"REJECTED"|"ERROR"|…, description, error?: { message } } }
 *
 * Outbound echoes (direction "OUT") are ours: skipped. Pure functions, tested beside.
 */
import type { AckStatus, InboundMessage } from "@openatende/plugin-sdk";

export type Draft = Omit<InboundMessage, "tenantId" | "connectionId">;

/**
 * `claims`: the ids the event names its channel by (subscriptionId, message.to): the channel
 * token, or (Zenvia's reading of subscriptionId) the subscription made for it.
 */
export type Normalised =
  | { kind: "message"; claims: string[]; draft: Draft }
  | { kind: "ack"; claims: string[]; providerMessageId: string; status: AckStatus; reason?: string; timestamp?: number }
  | { kind: "skip"; claims: string[]; reason: string };

export class PayloadError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "PayloadError";
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "");

/**
 * The hub's timestamps: ISO strings, epoch numbers (s or ms), or its own "YYYY-MM-DD hh:mm:ss am|pm"
 * with no zone, read as Brasília time (UTC−3, no daylight saving since 2019: inference, the hub
 * is Brazilian and no sample carries a zone). Anything unreadable is now.
 */
export function parseHubTime(v: unknown, now = Date.now()): number {
  if (typeof v === "number" && Number.isFinite(v) && v > 0) return Math.round(v < 1e12 ? v * 1000 : v);
  const s = str(v);
  if (!s) return now;
  if (/^\d+(\.\d+)?$/.test(s)) return parseHubTime(Number(s), now);
  const own = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]m)?$/i.exec(s);
  if (own) {
    let hour = Number(own[4]);
    const ampm = own[7]?.toLowerCase();
    if (ampm === "pm" && hour < 12) hour += 12;
    if (ampm === "am" && hour === 12) hour = 0;
    const ms = Date.UTC(Number(own[1]), Number(own[2]) - 1, Number(own[3]), hour + 3, Number(own[5]), Number(own[6] ?? 0));
    return Number.isFinite(ms) ? ms : now;
  }
  const parsed = Date.parse(s);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : now;
}

/** The hub's simplified file types ("image", "photo", …) as MIME types; real MIME types kept. */
export function mimeOf(declared: unknown, type: string): string {
  const m = str(declared).toLowerCase();
  if (m.includes("/")) return m;
  const simple = m || type;
  if (simple === "image" || simple === "photo" || simple === "sticker") return simple === "sticker" ? "image/webp" : "image/jpeg";
  if (simple === "video") return "video/mp4";
  if (simple === "audio" || simple === "voice") return "audio/ogg";
  return "application/octet-stream";
}

const stripHtml = (html: string) =>
  html
    .replace(/<(br|\/p|\/div)\s*\/?>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .trim();

function contentsOf(contents: Obj[], draft: Draft): void {
  const texts: string[] = [];
  for (const c of contents) {
    const type = str(c.type).toLowerCase();
    if (type === "text" || type === "reply_text") texts.push(str(c.text));
    else if (type === "email") {
      const subject = str(c.subject);
      const body = str(c.text) || stripHtml(str(c.html));
      texts.push([subject, body].filter(Boolean).join("\n\n"));
    } else if (type === "location") {
      const latitude = Number(c.latitude);
      const longitude = Number(c.longitude);
      if (Number.isFinite(latitude) && Number.isFinite(longitude)) {
        const name = str(c.name) || str(c.address) || undefined;
        draft.location = { latitude, longitude, ...(name ? { name } : {}) };
        texts.push(name ?? `${latitude}, ${longitude}`);
      }
    } else if (["file", "image", "audio", "video", "document", "sticker", "photo"].includes(type) && str(c.fileUrl) && !draft.media) {
      const fileName = str(c.fileName) || undefined;
      draft.media = { url: str(c.fileUrl), mimeType: mimeOf(c.fileMimeType, type), ...(fileName ? { fileName } : {}) };
      if (str(c.fileCaption)) texts.push(str(c.fileCaption));
    }
  }
  const body = texts.filter(Boolean).join("\n");
  if (body) draft.body = body;
}

function messageOf(evt: Obj, claims: string[]): Normalised {
  const m = evt.message;
  if (!isObj(m)) throw new PayloadError("a MESSAGE event without its message");
  const direction = (str(m.direction) || str(evt.direction)).toUpperCase();
  if (direction === "OUT") return { kind: "skip", claims, reason: "an echo of a message sent from this channel" };
  const id = str(m.id) || str(evt.id);
  const from = str(m.from);
  if (!id || !from) throw new PayloadError("a message without its id or sender");
  const visitor = isObj(m.visitor) ? m.visitor : {};
  const name = str(visitor.name) || [str(visitor.firstName), str(visitor.lastName)].filter(Boolean).join(" ") || undefined;
  const channel = (str(m.channel) || str(evt.channel)).toLowerCase();
  const sender: Draft["from"] = { externalId: from, ...(name ? { name } : {}) };
  if (str(visitor.picture)) sender.avatarUrl = str(visitor.picture);
  if (channel === "email" && from.includes("@")) sender.email = from;
  if ((channel === "whatsapp" || channel === "sms") && /^\d{8,15}$/.test(from)) sender.phone = from;
  const draft: Draft = { providerMessageId: id, timestamp: parseHubTime(m.timestamp ?? evt.timestamp), from: sender };
  const group = isObj(m.group) ? m.group : null;
  if ((m.isGroup === true || str(m.isGroup).toLowerCase() === "true") && group && str(group.id)) {
    draft.isGroup = true;
    draft.from = { externalId: str(group.id), ...(str(group.name) ? { name: str(group.name) } : {}) };
    draft.participant = { externalId: from, ...(name ? { name } : {}) };
  }
  const contents = Array.isArray(m.contents) ? m.contents.filter(isObj) : [];
  contentsOf(contents, draft);
  if (!draft.body && !draft.media && !draft.location) return { kind: "skip", claims, reason: `message ${id} has no content this channel reads` };
  return { kind: "message", claims, draft };
}

const ACKS: Record<string, AckStatus> = { SENT: "sent", DELIVERED: "delivered", READ: "read", REJECTED: "failed", ERROR: "failed", NOT_DELIVERED: "failed", FAILED: "failed" };

function statusOf(evt: Obj, claims: string[]): Normalised {
  const st = evt.messageStatus;
  const providerMessageId = str(evt.messageId);
  if (!isObj(st) || !providerMessageId) throw new PayloadError("a MESSAGE_STATUS event without messageId or messageStatus");
  const code = str(st.code).toUpperCase();
  const status = ACKS[code];
  if (!status) return { kind: "skip", claims, reason: `status ${code || "(none)"} is not an ack` };
  const error = isObj(st.error) ? str(st.error.message) : "";
  const reason = status === "failed" ? (error || str(st.description) || code).slice(0, 255) : undefined;
  return { kind: "ack", claims, providerMessageId, status, timestamp: parseHubTime(st.timestamp ?? evt.timestamp), ...(reason ? { reason } : {}) };
}

/** One parsed webhook body → what to do with it; PayloadError for a body that is not the hub's. */
export function normaliseEvent(body: unknown): Normalised {
  if (!isObj(body)) throw new PayloadError("the body is not a JSON object");
  const type = str(body.type).toUpperCase();
  const msg = isObj(body.message) ? body.message : {};
  const claims = [str(body.subscriptionId), str(msg.to)].filter(Boolean);
  if (type === "MESSAGE") return messageOf(body, claims);
  if (type === "MESSAGE_STATUS") return statusOf(body, claims);
  if (!type) throw new PayloadError("the event has no type");
  return { kind: "skip", claims, reason: `event ${type} is not read` };
}
