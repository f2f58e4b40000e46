/**
 * IMAP and SMTP failures as a short code the UI translates, plus the server's own words.
 * Codes: ERR_EMAIL_AUTH_FAILED, ERR_EMAIL_CONNECTION_REFUSED, ERR_EMAIL_HOST_NOT_FOUND,
 * ERR_EMAIL_TIMEOUT, ERR_EMAIL_TLS, ERR_EMAIL_NO_INBOX, ERR_EMAIL_CONNECTION_CLOSED,
 * ERR_EMAIL_FAILED; and the platform's ERR_URL_NOT_ALLOWED (server-address.ts).
 */
export interface MailError {
  code: string;
  detail: string;
  /** Worth trying again later (network trouble), as opposed to wrong settings. */
  retry: boolean;
}

type AnyErr = {
  code?: string;
  errno?: string | number;
  message?: string;
  responseText?: string;
  response?: unknown;
  responseCode?: number;
  authenticationFailed?: boolean;
  command?: string;
};

const TLS_CODES = /^(EPROTO|ERR_SSL_|ERR_TLS_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|CERT_|UNABLE_TO_|ERR_OSSL_|HOSTNAME_MISMATCH|ETLS)/;

function common(e: AnyErr, text: string): MailError | null {
  // An address the platform does not allow stays refused: not worth trying again.
  if (e.code === "ERR_URL_NOT_ALLOWED") return { code: "ERR_URL_NOT_ALLOWED", detail: text, retry: false };
  const all = `${e.code ?? ""} ${e.errno ?? ""} ${e.message ?? ""}`;
  if (/ECONNREFUSED/.test(all)) return { code: "ERR_EMAIL_CONNECTION_REFUSED", detail: text, retry: true };
  if (/ENOTFOUND|EAI_AGAIN|EDNS/.test(all)) return { code: "ERR_EMAIL_HOST_NOT_FOUND", detail: text, retry: true };
  if (TLS_CODES.test(e.code ?? "") || /SSL|TLS|certificate|wrong version number/i.test(e.message ?? "")) return { code: "ERR_EMAIL_TLS", detail: text, retry: false };
  if (/ETIMEDOUT|CONNECT_TIMEOUT|GREETING_TIMEOUT|ETIMEOUT|UPGRADE_TIMEOUT|timed? ?out/i.test(all)) return { code: "ERR_EMAIL_TIMEOUT", detail: text, retry: true };
  if (/ECONNRESET|EPIPE|NoConnection|EConnectionClosed|ClosedAfterConnect|closed/i.test(all)) return { code: "ERR_EMAIL_CONNECTION_CLOSED", detail: text, retry: true };
  return null;
}

export function describeImapError(err: unknown): MailError {
  const e = (err ?? {}) as AnyErr;
  const text = String(e.responseText || e.message || err).slice(0, 300);
  if (e.authenticationFailed) return { code: "ERR_EMAIL_AUTH_FAILED", detail: text, retry: false };
  return common(e, text) ?? { code: "ERR_EMAIL_FAILED", detail: text, retry: true };
}

export function describeSmtpError(err: unknown): MailError {
  const e = (err ?? {}) as AnyErr;
  const text = String((typeof e.response === "string" && e.response) || e.message || err).slice(0, 300);
  if (e.code === "EAUTH" || e.responseCode === 535 || e.responseCode === 534) return { code: "ERR_EMAIL_AUTH_FAILED", detail: text, retry: false };
  return common(e, text) ?? { code: "ERR_EMAIL_FAILED", detail: text, retry: (e.responseCode ?? 0) < 500 };
}
