/**
 * What one Instagram webhook delivery means (WHATSAPP.md §5; Meta's Instagram messaging
 * webhooks): the envelope `{object:"instagram", entry:[{id:<IG account id>, time, messaging:[…]}]}`
 * flattened into events, each naming the Instagram account it belongs to (the entry's id) and
 * the customer (the IGSID on the other side). Pure functions, tested beside.
 *
 *   message     {sender, recipient, timestamp, message:{mid, text?, attachments?:[{type, payload:{url}}], reply_to?:{mid}, is_echo?, is_deleted?, is_unsupported?}}
 *   reaction    {sender, recipient, timestamp, reaction:{mid, action:"react"|"unreact", reaction?, emoji?}}
 *   postback    {sender, recipient, timestamp, postback:{mid, title, payload}}
 *   seen        {sender, recipient, timestamp, read:{mid}}
 *   referral    {sender, recipient, timestamp, referral:{ref, source, type}}
 *
 * An echo (`is_echo`: a message the account sent, through us or from the Instagram app) has
 * the account as its sender: the customer is then the recipient.
 */

export class PayloadError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "PayloadError";
  }
}

export interface InboundFile {
  url: string;
  mimeType: string;
}

interface Base {
  /** The Instagram account (the entry's id). */
  account: string;
  /** The customer's IGSID. */
  customer: string;
  timestamp: number;
}

export type IgEvent =
  | (Base & { kind: "message"; mid: string; echo: boolean; text?: string; files: InboundFile[]; replyTo?: string })
  | (Base & { kind: "deleted"; mid: string })
  | (Base & { kind: "reaction"; mid: string; emoji: string; fromAccount: boolean })
  | (Base & { kind: "postback"; mid: string; title: string; payload: string })
  | (Base & { kind: "seen"; mid: string })
  | (Base & { kind: "referral"; ref: string; source: string })
  | { kind: "skip"; account: string; reason: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "");

/** Meta's timestamps are ms; a value in seconds (older samples) is made ms; anything else is now. */
export function timeOf(v: unknown, now = Date.now()): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) return now;
  return Math.round(n < 1e12 ? n * 1000 : n);
}

/** Instagram's attachment types as MIME types (the core reads the real type when it fetches the file). */
const MIME: Record<string, string> = { image: "image/jpeg", video: "video/mp4", audio: "audio/mp4", file: "application/octet-stream" };
/** Attachments that are links to Instagram content, kept as their URL in the text. */
const LINKS = new Set(["share", "story_mention", "ig_reel", "reel", "ig_post"]);

function messageOf(base: Base, m: Obj): IgEvent {
  const mid = str(m.mid);
  if (!mid) return { kind: "skip", account: base.account, reason: "a message without mid" };
  if (m.is_deleted === true) return { ...base, kind: "deleted", mid };
  const files: InboundFile[] = [];
  const links: string[] = [];
  const attachments = Array.isArray(m.attachments) ? (m.attachments as unknown[]).filter(isObj) : [];
  for (const a of attachments) {
    const type = str(a.type).toLowerCase();
    const url = isObj(a.payload) ? str(a.payload.url) : "";
    if (!url || !/^https?:\/\//i.test(url)) continue;
    // Stickers and GIFs are not supported by the API (they come as an image with a sticker id, or not at all).
    if (isObj(a.payload) && a.payload.sticker_id !== undefined) continue;
    if (MIME[type]) files.push({ url, mimeType: MIME[type] });
    else if (LINKS.has(type)) links.push(url);
  }
  const text = [str(m.text), ...links].filter(Boolean).join("\n");
  if (!text && !files.length) return { kind: "skip", account: base.account, reason: m.is_unsupported === true ? "a message type the API does not deliver" : "a message with nothing readable" };
  const replyTo = isObj(m.reply_to) ? str(m.reply_to.mid) : "";
  return { ...base, kind: "message", mid, echo: m.is_echo === true, ...(text ? { text } : {}), files, ...(replyTo ? { replyTo } : {}) };
}

function eventOf(account: string, e: Obj): IgEvent {
  const sender = isObj(e.sender) ? str(e.sender.id) : "";
  const recipient = isObj(e.recipient) ? str(e.recipient.id) : "";
  const fromAccount = sender === account;
  const customer = fromAccount ? recipient : sender;
  if (!customer) return { kind: "skip", account, reason: "an event without sender or recipient" };
  const base: Base = { account, customer, timestamp: timeOf(e.timestamp) };
  if (isObj(e.message)) return messageOf(base, e.message);
  if (isObj(e.reaction)) {
    const mid = str(e.reaction.mid);
    if (!mid) return { kind: "skip", account, reason: "a reaction without mid" };
    const emoji = str(e.reaction.action) === "unreact" ? "" : str(e.reaction.emoji) || (str(e.reaction.reaction) === "love" ? "❤️" : str(e.reaction.reaction));
    return { ...base, kind: "reaction", mid, emoji, fromAccount };
  }
  if (isObj(e.postback)) {
    const payload = str(e.postback.payload);
    const title = str(e.postback.title) || payload;
    const mid = str(e.postback.mid) || `postback:${customer}:${base.timestamp}`;
    if (!title) return { kind: "skip", account, reason: "a postback without title or payload" };
    return { ...base, kind: "postback", mid, title, payload };
  }
  if (isObj(e.read)) {
    const mid = str(e.read.mid);
    return mid ? { ...base, kind: "seen", mid } : { kind: "skip", account, reason: "a read receipt without mid" };
  }
  if (isObj(e.referral)) return { ...base, kind: "referral", ref: str(e.referral.ref), source: str(e.referral.source) };
  return { kind: "skip", account, reason: `an event of a kind not read (${Object.keys(e).filter((k) => !["sender", "recipient", "timestamp"].includes(k)).join(", ") || "empty"})` };
}

/** The events of a checked delivery's body; PayloadError for a body that is not Instagram's envelope. */
export function eventsOf(body: Buffer | string): IgEvent[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString());
  } catch {
    throw new PayloadError("the body is not valid JSON");
  }
  if (!isObj(parsed) || parsed.object !== "instagram" || !Array.isArray(parsed.entry)) throw new PayloadError('the body is not an "instagram" envelope');
  const out: IgEvent[] = [];
  for (const entry of parsed.entry as unknown[]) {
    if (!isObj(entry)) continue;
    const account = str(entry.id);
    // "standby" (another app holds the thread) and "changes" (comments, mentions) are not this channel's.
    for (const e of Array.isArray(entry.messaging) ? (entry.messaging as unknown[]) : []) if (isObj(e)) out.push(eventOf(account, e));
  }
  return out;
}
