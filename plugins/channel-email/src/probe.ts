/**
 * The settings screen's "test IMAP" and "test SMTP": a real login against the servers, with
 * an answer the UI can show as is (code to translate + the server's words).
 */
import type { ImapFlow } from "imapflow";
import type { OutboundPolicy } from "@openatende/plugin-sdk";
import { describeImapError, describeSmtpError } from "./errors";
import { serverTarget, type ServerTarget } from "./server-address";
import { imapOptions, ImapSettings, smtpOptions, SmtpSettings } from "./settings";

export interface ProbeResult {
  ok: boolean;
  /** "OK" or one of the ERR_EMAIL_* codes of errors.ts. */
  code: string;
  detail: string;
}

/** Where to connect, or the refusal as a probe's answer (the platform's outbound policy). */
async function targetOf(host: string, policy: OutboundPolicy): Promise<ServerTarget | ProbeResult> {
  try {
    return await serverTarget(host, policy);
  } catch (err) {
    const e = describeImapError(err);
    return { ok: false, code: e.code, detail: e.detail };
  }
}

/** Logs in and selects INBOX (read-only); says how many messages it holds and whether the server IDLEs. */
export async function probeImap(s: ImapSettings, policy: OutboundPolicy): Promise<ProbeResult> {
  const target = await targetOf(s.imapHost, policy);
  if ("ok" in target) return target;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ImapFlow } = require("imapflow") as typeof import("imapflow");
  const client: ImapFlow = new ImapFlow(imapOptions(s, { disableAutoIdle: true, connectionTimeout: 10_000, ...target }));
  client.on("error", () => undefined);
  try {
    try {
      await client.connect();
    } catch (err) {
      const e = describeImapError(err);
      return { ok: false, code: e.code, detail: e.detail };
    }
    try {
      const mb = await client.mailboxOpen("INBOX", { readOnly: true });
      const idle = client.capabilities.has("IDLE");
      return { ok: true, code: "OK", detail: `INBOX: ${mb.exists} message(s); IDLE ${idle ? "supported" : "not supported (polling)"}` };
    } catch (err) {
      return { ok: false, code: "ERR_EMAIL_NO_INBOX", detail: describeImapError(err).detail };
    }
  } finally {
    await Promise.race([client.logout().catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())]);
    client.close();
  }
}

/** Connects, upgrades to TLS when asked or offered, and logs in (nodemailer's verify()). */
export async function probeSmtp(s: SmtpSettings, policy: OutboundPolicy): Promise<ProbeResult> {
  const target = await targetOf(s.smtpHost, policy);
  if ("ok" in target) return target;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const nodemailer = require("nodemailer") as typeof import("nodemailer");
  const transport = nodemailer.createTransport({ ...smtpOptions(s, target), connectionTimeout: 10_000 });
  try {
    await transport.verify();
    return { ok: true, code: "OK", detail: `${s.smtpHost}:${s.smtpPort} accepted the login of ${s.smtpUser}` };
  } catch (err) {
    const e = describeSmtpError(err);
    return { ok: false, code: e.code, detail: e.detail };
  } finally {
    transport.close();
  }
}
