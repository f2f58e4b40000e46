import type { ConnectionSettings } from "@openatende/plugin-sdk/ui";

type T = (k: string, vars?: Record<string, unknown>) => string;

export const IMAP_KEYS = ["imapHost", "imapPort", "imapTls", "imapUser", "imapPassword"] as const;
export const SMTP_KEYS = ["smtpHost", "smtpPort", "smtpTls", "smtpUser", "smtpPassword", "fromAddress", "fromName"] as const;
/** What the API shows instead of a saved password. */
export const MASK = "********";

/** New connections start on the usual ports: IMAP over TLS (993), SMTP submission with STARTTLS (587). */
export const DEFAULTS: ConnectionSettings = { imapPort: 993, imapTls: true, smtpPort: 587, smtpTls: false };
export const DEFAULT_PORTS = { imap: { tls: 993, plain: 143 }, smtp: { tls: 465, plain: 587 } } as const;

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

function check(v: ConnectionSettings, t: T, keys: readonly string[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const k of keys) {
    const x = v[k];
    if (k.endsWith("Tls")) {
      if (typeof x !== "boolean") errors[k] = t("errRequired");
    } else if (k.endsWith("Port")) {
      const n = typeof x === "string" && x.trim() ? Number(x) : x;
      if (x === undefined || x === null || x === "") errors[k] = t("errRequired");
      else if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > 65535) errors[k] = t("errPort");
    } else if (k.endsWith("Password")) {
      if (typeof x !== "string" || !x) errors[k] = t("errRequired");
      else if (x.length > 1024) errors[k] = t("errMax", { max: 1024 });
    } else if (!str(x)) errors[k] = t("errRequired");
    else if (k.endsWith("Host") && (/\s/.test(str(x)) || str(x).length > 255)) errors[k] = t("errHost");
    else if (k === "fromAddress" && (!EMAIL.test(str(x)) || str(x).length > 254)) errors[k] = t("errEmail");
    else if (k === "fromName" && str(x).length > 120) errors[k] = t("errMax", { max: 120 });
    else if (k.endsWith("User") && str(x).length > 255) errors[k] = t("errMax", { max: 255 });
  }
  return errors;
}

/** Every e-mail field is required (spec §5), with the manifest's settingsSchema rules. */
export function validateEmail(v: ConnectionSettings, t: T): Record<string, string> {
  return check(v, t, [...IMAP_KEYS, ...SMTP_KEYS]);
}

/** What "test IMAP" needs. */
export const validateImap = (v: ConnectionSettings, t: T) => check(v, t, IMAP_KEYS);
/** What "test SMTP" needs. */
export const validateSmtp = (v: ConnectionSettings, t: T) => check(v, t, SMTP_KEYS);
