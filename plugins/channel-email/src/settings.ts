/**
 * A connection's e-mail settings (the manifest's settingsSchema) as typed values, and the
 * client options built from them. The core has validated the whole object before connect;
 * the test actions validate only the half they probe (IMAP or SMTP) with the same rules.
 */
import Validator from "fastest-validator";
import type { ImapFlowOptions } from "imapflow";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json") as { platform: { settingsSchema: Record<string, Record<string, unknown>> } };

export interface EmailSettings {
  imapHost: string;
  imapPort: number;
  imapTls: boolean;
  imapUser: string;
  imapPassword: string;
  smtpHost: string;
  smtpPort: number;
  smtpTls: boolean;
  smtpUser: string;
  smtpPassword: string;
  fromAddress: string;
  fromName: string;
}

export type ImapSettings = Pick<EmailSettings, "imapHost" | "imapPort" | "imapTls" | "imapUser" | "imapPassword">;
export type SmtpSettings = Pick<EmailSettings, "smtpHost" | "smtpPort" | "smtpTls" | "smtpUser" | "smtpPassword" | "fromAddress" | "fromName">;

export const SETTINGS_SCHEMA = pkg.platform.settingsSchema;
export const IMAP_FIELDS = ["imapHost", "imapPort", "imapTls", "imapUser", "imapPassword"] as const;
export const SMTP_FIELDS = ["smtpHost", "smtpPort", "smtpTls", "smtpUser", "smtpPassword", "fromAddress", "fromName"] as const;
/** What the API shows instead of a stored secret (connections.service masks /pass|secret|token|key/). */
export const MASK = "********";

const v = new Validator();
const pick = (fields: readonly string[]) => Object.fromEntries(fields.map((f) => [f, SETTINGS_SCHEMA[f]]));
const checkImap = v.compile({ $$strict: "remove", ...pick(IMAP_FIELDS) } as never);
const checkSmtp = v.compile({ $$strict: "remove", ...pick(SMTP_FIELDS) } as never);
const checkAll = v.compile({ $$strict: "remove", ...SETTINGS_SCHEMA } as never);

export interface FieldError {
  field: string;
  type: string;
  message: string;
}

function run<T>(check: (x: object) => true | unknown[] | Promise<true | unknown[]>, raw: Record<string, unknown>): { ok: true; value: T } | { ok: false; errors: FieldError[] } {
  const copy = { ...raw };
  const res = check(copy) as true | FieldError[];
  if (res === true) return { ok: true, value: copy as T };
  return { ok: false, errors: res.map((e) => ({ field: `settings.${e.field}`, type: e.type, message: e.message })) };
}

export const parseImap = (raw: Record<string, unknown>) => run<ImapSettings>(checkImap, raw);
export const parseSmtp = (raw: Record<string, unknown>) => run<SmtpSettings>(checkSmtp, raw);
export const parseSettings = (raw: Record<string, unknown>) => run<EmailSettings>(checkAll, raw);

/** Identifies the mailbox a sync cursor belongs to: another account or server starts afresh. */
export function accountKey(s: ImapSettings): string {
  return `${s.imapUser.toLowerCase()}@${s.imapHost.toLowerCase()}:${s.imapPort}/INBOX`;
}

export function imapOptions(s: ImapSettings, extra: Partial<ImapFlowOptions> = {}): ImapFlowOptions {
  return {
    host: s.imapHost,
    port: s.imapPort,
    // TLS on: implicit TLS (993). Off: STARTTLS when the server offers it, else plain.
    secure: s.imapTls,
    auth: { user: s.imapUser, pass: s.imapPassword },
    logger: false,
    clientInfo: { name: "openatende-channel-email" },
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    socketTimeout: 5 * 60_000,
    ...extra,
  };
}

/** nodemailer's options; `target` is where to connect (server-address.ts: the checked address, with the name for TLS). */
export function smtpOptions(s: SmtpSettings, target: { host: string; servername?: string } = { host: s.smtpHost }): SMTPTransport.Options {
  return {
    host: target.host,
    ...(target.servername ? ({ servername: target.servername } as object) : {}),
    port: s.smtpPort,
    // TLS on: implicit TLS (465). Off: STARTTLS when the server offers it (587/25).
    secure: s.smtpTls,
    auth: { user: s.smtpUser, pass: s.smtpPassword },
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  };
}

/** The domain of the From address, for Message-IDs of sent mail. */
export function domainOf(address: string): string {
  const at = address.lastIndexOf("@");
  const d = at >= 0 ? address.slice(at + 1).trim().toLowerCase() : "";
  return /^[a-z0-9.-]+$/.test(d) && d ? d : "openatende.invalid";
}
