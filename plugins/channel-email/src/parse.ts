/**
 * A raw message (RFC 5322 source) → what the channel needs of it: who sent it, its provider
 * id (the Message-ID), threading headers, readable text, sanitised HTML, attachments, and
 * whether it is a delivery or read report for a message we sent.
 */
import { createHash } from "node:crypto";
import type { AddressObject, ParsedMail } from "mailparser";
import { htmlToText, sanitizeEmailHtml } from "./sanitize";

/** The core stores provider ids of at most 191 characters. */
export const MAX_PROVIDER_ID = 191;
/** The core keeps bodies of at most 64 KiB. */
export const MAX_BODY = 60_000;

export interface MailAttachment {
  fileName: string;
  mimeType: string;
  content: Buffer;
}

export interface MailReport {
  /** DSN (RFC 3464) or MDN (RFC 8098). */
  kind: "dsn" | "mdn";
  /** Message-ID of the message the report is about (one we sent). */
  originalMessageId: string;
  status: "delivered" | "failed" | "read";
  reason?: string;
}

export interface ParsedEmail {
  /** Provider id: the Message-ID ("<…>"), hashed when too long, made from the content when missing. */
  providerId: string;
  messageId: string | null;
  from: { address: string; name?: string } | null;
  subject: string;
  /** Header Date in ms, when it has one. */
  date: number | null;
  /** The new text of the message: quoted history cut off, at most MAX_BODY characters. */
  text: string;
  /** Sanitised HTML, when the message has an HTML part. */
  html: string | null;
  attachments: MailAttachment[];
  inReplyTo: string | null;
  references: string[];
  /** First message of the conversation (first of References, else In-Reply-To, else itself). */
  threadKey: string;
  report: MailReport | null;
}

const sha = (x: string | Buffer) => createHash("sha256").update(x).digest("hex");

/** "<id>" form of a Message-ID; null when there is none. */
export function normaliseMessageId(raw: string | null | undefined): string | null {
  const s = String(raw ?? "").trim();
  if (!s) return null;
  const m = /<[^<>\s]+>/.exec(s);
  if (m) return m[0];
  return /^[^<>\s]+$/.test(s) ? `<${s}>` : null;
}

/** Message-IDs of a References / In-Reply-To header (string or list). */
export function messageIdList(raw: string | string[] | null | undefined): string[] {
  const all = (Array.isArray(raw) ? raw : [raw ?? ""]).join(" ");
  return all.match(/<[^<>\s]+>/g) ?? [];
}

/** The provider id of a Message-ID (plus a part suffix), within the core's 191 characters. */
export function providerIdOf(messageId: string, part?: number): string {
  const id = part === undefined ? messageId : `${messageId}#${part}`;
  return id.length <= MAX_PROVIDER_ID ? id : `<${sha(id)}@hashed.message-id>`;
}

/** The Message-ID part of a provider id (attachments carry "#n" after it). */
export function messageIdOfProviderId(providerId: string): string | null {
  const m = /^(<[^<>\s]+>)(#\d+)?$/.exec(providerId.trim());
  return m ? m[1] : null;
}

/** Subject without its "Re:"/"Fwd:"/"RES:"/"Enc:" prefixes, for threading and "Re: …". */
export function baseSubject(subject: string): string {
  let s = subject.trim();
  for (;;) {
    const next = s.replace(/^(re|res|fw|fwd|enc|tr|aw|wg|rv|sv|antw|отв|пер)(\[\d+\])?\s*:\s*/i, "").trim();
    if (next === s) return s;
    s = next;
  }
}

const ATTRIBUTION = /^(on|em|el|le|am|il|op|в)\b.{0,200}(wrote|escreveu|escribió|a écrit|schrieb|ha scritto|schreef|написал[а]?)\s*:?\s*$/i;
const ORIGINAL = /^\s*(-{2,}\s*(original message|mensagem original|mensaje original|message d'origine|исходное сообщение)\s*-{2,}|_{10,})\s*$/i;

/**
 * The new part of a reply: the trailing quoted block ("> …" lines and the "On … wrote:" line
 * before them) and an Outlook-style "Original Message" trailer are cut. The whole text stays
 * when nothing new would be left.
 */
export function stripQuoted(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let end = lines.length;
  const outlook = lines.findIndex((l) => ORIGINAL.test(l));
  if (outlook > 0) end = outlook;
  else {
    let i = end - 1;
    let quoted = 0;
    while (i >= 0 && (lines[i].startsWith(">") || !lines[i].trim())) {
      if (lines[i].startsWith(">")) quoted++;
      i--;
    }
    if (quoted > 0) {
      end = i + 1;
      let j = i;
      while (j >= 0 && !lines[j].trim()) j--;
      // The attribution line may be wrapped over two lines by the sender's client.
      if (j >= 0 && ATTRIBUTION.test(lines[j])) end = j;
      else if (j >= 1 && ATTRIBUTION.test(`${lines[j - 1]} ${lines[j]}`)) end = j - 1;
    }
  }
  const kept = lines.slice(0, end).join("\n").trim();
  return kept || text.trim();
}

function firstAddress(a: AddressObject | AddressObject[] | undefined): { address: string; name?: string } | null {
  const list = Array.isArray(a) ? a : a ? [a] : [];
  for (const o of list) {
    for (const v of o.value) {
      if (v.address && /^[^\s@]+@[^\s@]+$/.test(v.address)) return { address: v.address.toLowerCase(), name: v.name?.trim() || undefined };
    }
  }
  return null;
}

/** "Field: value" lines of a report part (folded lines joined). */
function reportFields(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.replace(/\r\n?/g, "\n").replace(/\n[ \t]+/g, " ").split("\n")) {
    const m = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
    if (m && !out.has(m[1].toLowerCase())) out.set(m[1].toLowerCase(), m[2].trim());
  }
  return out;
}

/**
 * A delivery (DSN, RFC 3464) or read (MDN, RFC 8098) report about a message we sent, or null.
 * mailparser shows the machine-readable part either as an attachment or inline in the text,
 * so both are looked at.
 */
function reportOf(mail: ParsedMail): MailReport | null {
  const type = mail.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined;
  if (type?.value?.toLowerCase() !== "multipart/report") return null;
  const kind = (type.params?.["report-type"] ?? "").toLowerCase();
  const part = (...mimes: string[]) => mail.attachments.find((a) => mimes.includes(a.contentType.toLowerCase()))?.content.toString("utf8");
  const text = mail.text ?? "";
  const original = part("message/rfc822", "text/rfc822-headers", "message/rfc822-headers");
  const originalId =
    normaliseMessageId(original ? reportFields(original.split(/\r?\n\r?\n/)[0]).get("message-id") : undefined) ??
    normaliseMessageId(/^Message-ID:\s*(<[^<>\s]+>)/im.exec(text)?.[1]) ??
    messageIdList(mail.inReplyTo)[0] ??
    null;
  if (kind === "delivery-status") {
    const status = part("message/delivery-status", "message/global-delivery-status") ?? text;
    // Per-message fields first, then one block per recipient: the first recipient's verdict counts.
    const rcpt = status.replace(/\r\n?/g, "\n").split(/\n\s*\n/).map(reportFields).find((b) => b.has("action"));
    if (!rcpt || !originalId) return null;
    const action = (rcpt.get("action") ?? "").toLowerCase();
    if (action === "failed") {
      const reason = [rcpt.get("status"), rcpt.get("diagnostic-code")?.replace(/^smtp;\s*/i, "")].filter(Boolean).join(" ");
      return { kind: "dsn", originalMessageId: originalId, status: "failed", reason: reason || "bounced" };
    }
    if (["delivered", "relayed", "expanded"].includes(action)) return { kind: "dsn", originalMessageId: originalId, status: "delivered" };
    return null; // "delayed": nothing final yet
  }
  if (kind === "disposition-notification") {
    const f = reportFields(part("message/disposition-notification", "message/global-disposition-notification") ?? text);
    const id = normaliseMessageId(f.get("original-message-id")) ?? originalId;
    if (!id || !/displayed/i.test(f.get("disposition") ?? "")) return null;
    return { kind: "mdn", originalMessageId: id, status: "read" };
  }
  return null;
}

export async function parseEmail(source: Buffer): Promise<ParsedEmail> {
  // Heavy: loaded on the first mail, not when the core loads the plugin.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { simpleParser } = require("mailparser") as typeof import("mailparser");
  const mail = await simpleParser(source, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, keepCidLinks: true });
  const messageId = normaliseMessageId(mail.messageId);
  const providerId = messageId ? providerIdOf(messageId) : `<${sha(source)}@no-message-id>`;
  const references = messageIdList(mail.references);
  const inReplyTo = messageIdList(mail.inReplyTo)[0] ?? null;
  const html = typeof mail.html === "string" && mail.html.trim() ? sanitizeEmailHtml(mail.html) : null;
  const rawText = mail.text?.trim() ? mail.text : html ? htmlToText(html) : "";
  const report = reportOf(mail);
  const reportParts = ["message/delivery-status", "message/global-delivery-status", "message/disposition-notification", "message/global-disposition-notification", "message/rfc822", "text/rfc822-headers"];
  const attachments = mail.attachments
    .filter((a) => !(report && reportParts.includes(a.contentType.toLowerCase())))
    .map((a, i) => ({
      fileName: (a.filename ?? "").trim() || `anexo-${i + 1}${extensionOf(a.contentType)}`,
      mimeType: a.contentType || "application/octet-stream",
      content: a.content,
    }));
  return {
    providerId,
    messageId,
    from: firstAddress(mail.from),
    subject: (mail.subject ?? "").trim(),
    date: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date.getTime() : null,
    text: stripQuoted(rawText).slice(0, MAX_BODY),
    html,
    attachments,
    inReplyTo,
    references,
    threadKey: references[0] ?? inReplyTo ?? messageId ?? providerId,
    report,
  };
}

function extensionOf(mime: string): string {
  const map: Record<string, string> = { "image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "application/pdf": ".pdf", "text/plain": ".txt", "text/calendar": ".ics" };
  return map[mime.toLowerCase()] ?? "";
}
