/**
 * A fetched mail → the core: the text (subject first when the conversation's subject
 * changes) with the sanitised HTML beside it as a file, then one message per attachment;
 * delivery and read reports about mail we sent become acks instead.
 *
 * Provider ids: the body carries the Message-ID, attachment n carries "<Message-ID>#n", so a
 * mail read again (crash, re-sync, the same mail delivered twice) adds nothing.
 * replyToProviderId is the In-Reply-To: the core links the reply to the message it answers.
 */
import { ack, inbound, type Caller, type ConnectionRef, type InboundMessage } from "@openatende/plugin-sdk";
import type { CallingOptions } from "moleculer";
import type { FetchedMail, Handled } from "./mailbox";
import { baseSubject, MAX_PROVIDER_ID, normaliseMessageId, parseEmail, ParsedEmail, providerIdOf } from "./parse";
import type { EmailStore } from "./store";

/** The core stores files of at most 10 MB (spec §9); bigger attachments are named, not imported. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

export interface InboundDeps {
  broker: Caller;
  /** Calls are made as the plugin's service, so the core checks the connection is one of its own. */
  callOpts: CallingOptions;
  store: EmailStore;
  ref: ConnectionRef;
  /** The connection's own address: its mail found in the INBOX (a copy, a loop) is not a customer's. */
  ownAddress: string;
  log: { warn(...a: unknown[]): void; debug(...a: unknown[]): void };
}

/** A failure worth retrying later (the core is away) rather than a message the core refuses. */
export function isRetryable(err: unknown): boolean {
  const e = err as { retryable?: boolean; code?: number; type?: string; name?: string };
  if (e.retryable) return true;
  if (typeof e.code === "number" && e.code >= 400 && e.code < 500) return false;
  return ["ServiceNotFoundError", "ServiceNotAvailableError", "RequestTimeoutError", "BrokerDisconnectedError"].includes(e.name ?? "") || !e.code || e.code >= 500;
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export async function handleMail(d: InboundDeps, fetched: FetchedMail, _mode: "new" | "resync"): Promise<Handled> {
  if (!fetched.source) return handleTooLarge(d, fetched);
  let mail: ParsedEmail;
  try {
    mail = await parseEmail(fetched.source);
  } catch (err) {
    d.log.warn(`mail uid ${fetched.uid} cannot be parsed, skipped: ${(err as Error).message}`);
    return "done";
  }
  if (mail.report) return handleReport(d, mail);
  if (!mail.from) {
    d.log.warn(`mail uid ${fetched.uid} ${mail.providerId} has no sender address, skipped`);
    return "done";
  }
  if (mail.from.address === d.ownAddress.toLowerCase()) return "done";

  const timestamp = fetched.internalDate || mail.date || Date.now();
  // The core keeps addresses of at most 190 characters and names of at most 200.
  if (mail.from.address.length > 190) {
    d.log.warn(`mail ${mail.providerId}: sender address too long, skipped`);
    return "done";
  }
  const from = { externalId: mail.from.address, name: (mail.from.name || mail.from.address).slice(0, 200), email: mail.from.address };
  const thread = await d.store.getThread(d.ref, mail.from.address);
  const newSubject = mail.subject && (!thread || baseSubject(thread.subject) !== baseSubject(mail.subject));
  const body = [newSubject ? `✉️ ${mail.subject}` : "", mail.text].filter(Boolean).join("\n\n") || (mail.attachments.length ? "" : `✉️ ${mail.subject}`.trim());
  const base = { ...d.ref, timestamp, from };
  const parts: InboundMessage[] = [];
  const first: InboundMessage = { ...base, providerMessageId: mail.providerId };
  if (body) first.body = body;
  if (mail.html) {
    const doc = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(mail.subject)}</title></head><body>${mail.html}</body></html>`;
    const data = Buffer.from(doc, "utf8");
    first.media = { data: data.toString("base64"), mimeType: "text/html", fileName: "email.html", size: data.length };
  }
  if (mail.inReplyTo && mail.inReplyTo.length <= MAX_PROVIDER_ID) first.replyToProviderId = mail.inReplyTo;
  if (first.body || first.media) parts.push(first);
  const idBase = mail.messageId ?? mail.providerId;
  mail.attachments.forEach((a, i) => {
    const providerMessageId = parts.length || i ? providerIdOf(idBase, i + 1) : mail.providerId;
    if (a.content.length > MAX_ATTACHMENT_BYTES) {
      parts.push({ ...base, providerMessageId, body: `📎 ${a.fileName} (${mb(a.content.length)})` });
    } else {
      parts.push({ ...base, providerMessageId, media: { data: a.content.toString("base64"), mimeType: a.mimeType, fileName: a.fileName, size: a.content.length } });
    }
  });

  for (const msg of parts) {
    try {
      await inbound(d.broker, msg, d.callOpts);
    } catch (err) {
      if (isRetryable(err)) {
        d.log.warn(`mail ${mail.providerId}: the core did not take it (${(err as Error).message}); retrying later`);
        return "retry";
      }
      d.log.warn(`mail ${mail.providerId}: part ${msg.providerMessageId} refused by the core, skipped: ${(err as Error).message}`);
    }
  }
  await d.store.noteInbound(d.ref, mail.from.address, { messageId: mail.messageId, subject: mail.subject, references: mail.references, inReplyTo: mail.inReplyTo });
  await d.store.markSeen(d.ref, mail.providerId, timestamp);
  return "done";
}

/** A bounce or read receipt: the message it is about gets its status (failed with the reason, delivered, read). */
async function handleReport(d: InboundDeps, mail: ParsedEmail): Promise<Handled> {
  const r = mail.report!;
  try {
    await ack(d.broker, { ...d.ref, providerMessageId: providerIdOf(r.originalMessageId), status: r.status, reason: r.reason?.slice(0, 255), timestamp: mail.date ?? Date.now() }, d.callOpts);
  } catch (err) {
    if (isRetryable(err)) return "retry";
    d.log.warn(`report ${mail.providerId} about ${r.originalMessageId}: ack refused: ${(err as Error).message}`);
  }
  await d.store.markSeen(d.ref, mail.providerId);
  return "done";
}

/** A message too large to download: the ticket gets a line saying so, with its subject. */
async function handleTooLarge(d: InboundDeps, fetched: FetchedMail): Promise<Handled> {
  const sender = fetched.envelope?.from?.find((a) => a.address && /@/.test(a.address));
  const messageId = normaliseMessageId(fetched.envelope?.messageId);
  if (!sender?.address || !messageId || sender.address.length > 190) return "done";
  const address = sender.address.toLowerCase();
  if (address === d.ownAddress.toLowerCase()) return "done";
  try {
    await inbound(
      d.broker,
      {
        ...d.ref,
        providerMessageId: providerIdOf(messageId),
        timestamp: fetched.internalDate,
        from: { externalId: address, name: (sender.name || address).slice(0, 200), email: address },
        body: `✉️ ${fetched.envelope?.subject ?? ""}\n\n📎 ${mb(fetched.size)}`.trim(),
      },
      d.callOpts,
    );
  } catch (err) {
    if (isRetryable(err)) return "retry";
  }
  await d.store.markSeen(d.ref, providerIdOf(messageId), fetched.internalDate);
  return "done";
}
