/**
 * An agent's message → an SMTP reply in the customer's thread: "Re: <subject>", In-Reply-To
 * the customer's last Message-ID (or the message the agent quoted), References the thread's
 * chain, attachments from the core's files (read through the SDK's readMedia) or a URL. The
 * Message-ID we give the reply is its provider id: a bounce or read receipt about it later
 * becomes an ack.
 */
import { randomUUID } from "node:crypto";
import { Errors } from "moleculer";
import type { Transporter } from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import type { MediaRef, SendParams, SendResult } from "@openatende/plugin-sdk";
import { baseSubject, messageIdOfProviderId } from "./parse";
import { describeSmtpError } from "./errors";
import { domainOf, SmtpSettings } from "./settings";
import type { EmailStore } from "./store";

export interface OutboundDeps {
  /** A transport for this send (to the SMTP server's address checked now: the platform's outbound policy). */
  transport(): Promise<Transporter>;
  settings: SmtpSettings;
  store: EmailStore;
  /** The bytes of a MediaRef (inline, or the core's stored file; null when it has only a URL). */
  readMedia(media: MediaRef): Promise<Buffer | null>;
}

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** A send the SMTP server refused: the core records the message as failed with this message as the reason. */
export class EmailSendError extends Errors.MoleculerError {
  constructor(reason: string, data: Record<string, unknown> = {}) {
    // No `type`: the core keeps `type ?? message` as the failure reason, and the server's words say more.
    super(reason.slice(0, 255), 502, undefined as unknown as string, data);
    this.name = "EmailSendError";
  }
}

function subjectOf(threadSubject: string | undefined, body: string | undefined): string {
  if (threadSubject) return `Re: ${baseSubject(threadSubject)}`;
  const line = (body ?? "").split("\n").find((l) => l.trim())?.trim() ?? "";
  return line.length > 78 ? `${line.slice(0, 75)}...` : line;
}

/** A media reference → a nodemailer attachment; a stored file must be the tenant's (readMedia and the core check it). */
async function attachmentOf(d: OutboundDeps, media: MediaRef): Promise<Mail.Attachment> {
  const base = { filename: media.fileName || "anexo", contentType: media.mimeType };
  if (media.path || media.data) {
    let content: Buffer | null;
    try {
      content = await d.readMedia(media);
    } catch {
      content = null;
    }
    if (!content) throw new Errors.MoleculerClientError("The attachment is not in the tenant's files", 404, "ERR_EMAIL_MEDIA_NOT_FOUND", { path: media.path });
    return { ...base, content };
  }
  if (media.url && /^https?:\/\//i.test(media.url)) return { ...base, href: media.url };
  throw new Errors.MoleculerClientError("The attachment has neither a stored path nor an http(s) URL", 400, "ERR_EMAIL_MEDIA_NOT_FOUND");
}

export async function sendEmail(d: OutboundDeps, p: SendParams): Promise<SendResult> {
  const to = p.to.externalId.trim().toLowerCase();
  if (!EMAIL.test(to)) throw new Errors.MoleculerClientError(`"${p.to.externalId}" is not an e-mail address`, 400, "ERR_EMAIL_INVALID_RECIPIENT", { to: p.to.externalId });
  const m = p.message;
  if (m.kind !== "text" && m.kind !== "media") throw new Errors.MoleculerClientError(`cannot send ${m.kind}`, 400, "ERR_CHANNEL_UNSUPPORTED");
  const ref = { tenantId: p.tenantId, connectionId: p.connectionId };
  const thread = await d.store.getThread(ref, to);
  const quoted = m.replyToProviderId ? messageIdOfProviderId(m.replyToProviderId) : null;
  const inReplyTo = quoted ?? thread?.lastInbound ?? undefined;
  const references = [...(thread?.references ?? [])];
  if (inReplyTo && !references.includes(inReplyTo)) references.push(inReplyTo);
  const subject = subjectOf(thread?.subject, m.body) || d.settings.fromName;
  const messageId = `<${randomUUID()}@${domainOf(d.settings.fromAddress)}>`;
  const attachments = m.kind === "media" ? [await attachmentOf(d, m.media)] : [];

  let transport: Transporter | undefined;
  try {
    transport = await d.transport();
    await transport.sendMail({
      from: { name: d.settings.fromName, address: d.settings.fromAddress },
      to,
      subject,
      text: m.body ?? "",
      messageId,
      inReplyTo,
      references: references.length ? references : undefined,
      attachments,
    });
  } catch (err) {
    const e = describeSmtpError(err);
    throw new EmailSendError(`${e.code}: ${e.detail}`, { code: e.code });
  } finally {
    transport?.close();
  }
  await d.store.noteOutbound(ref, to, { messageId, subject: thread?.subject || subject });
  return { providerMessageId: messageId, timestamp: Date.now() };
}
