/** Test messages as a mail client writes them (nodemailer's MIME composer), plus small waits. */
import { randomBytes } from "node:crypto";
import MailComposer from "nodemailer/lib/mail-composer";
import type Mail from "nodemailer/lib/mailer";

export const uid = () => randomBytes(4).toString("hex");

export function messageId(tag = uid()): string {
  return `<${tag}.${uid()}@customer.test>`;
}

export async function compose(opts: Mail.Options): Promise<Buffer> {
  return new MailComposer({ date: new Date(), ...opts }).compile().build();
}

/** A bounce (RFC 3464) from the receiving side about one of our messages. */
export function bounce(opts: { to: string; originalMessageId: string; recipient: string; status?: string; diagnostic?: string }): string {
  const b = `b-${uid()}`;
  return [
    "From: Mail Delivery System <MAILER-DAEMON@mx.customer.test>",
    `To: ${opts.to}`,
    "Subject: Undelivered Mail Returned to Sender",
    `Message-ID: <bounce-${uid()}@mx.customer.test>`,
    `Date: ${new Date().toUTCString()}`,
    "Auto-Submitted: auto-replied",
    "MIME-Version: 1.0",
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${b}"`,
    "",
    `--${b}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Your message could not be delivered.",
    "",
    `--${b}`,
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.customer.test",
    "",
    `Final-Recipient: rfc822; ${opts.recipient}`,
    "Action: failed",
    `Status: ${opts.status ?? "5.1.1"}`,
    `Diagnostic-Code: smtp; ${opts.diagnostic ?? "550 5.1.1 User unknown"}`,
    "",
    `--${b}`,
    "Content-Type: text/rfc822-headers",
    "",
    `From: ${opts.to}`,
    `To: ${opts.recipient}`,
    `Message-ID: ${opts.originalMessageId}`,
    "Subject: Re: something",
    "",
    `--${b}--`,
    "",
  ].join("\r\n");
}

export async function waitFor<T>(what: string, get: () => T | undefined | null | false | Promise<T | undefined | null | false>, ms = 15_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await get();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
