/**
 * A wuzapi connection's settings (spec §3 Channel, "Wuzapi: session, session token, API token,
 * API URL"), read from what the core stored, with the reason when they cannot be used.
 * The manifest's settingsSchema holds the same rules; this is the plugin's own reading of them
 * (a connection made before a rule changed must not crash the plugin).
 */

export type WebhookFormat = "json" | "form";

export interface WuzapiSettings {
  /** The wuzapi server's base URL, no trailing slash. */
  apiUrl: string;
  /** The wuzapi user's token (header `Token`): one WhatsApp session. */
  sessionToken: string;
  /** wuzapi's admin token (`WUZAPI_ADMIN_TOKEN`): when given, a missing user is created. */
  apiToken?: string;
  /** The key wuzapi signs webhooks with (x-hmac-signature); set on wuzapi at connect. */
  hmacKey: string;
  /** How the server delivers webhooks (its WEBHOOK_FORMAT); both are accepted, see webhook.ts. */
  webhookFormat: WebhookFormat;
  /** The wuzapi user's name, used when the plugin creates it. */
  session?: string;
}

export const HMAC_KEY_MIN = 32;
const URL_PATTERN = /^https?:\/\/[^\s/]+[^\s]*$/i;
const TOKEN_PATTERN = /^\S{4,200}$/;
const SESSION_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;

const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

export function readSettings(raw: Record<string, unknown> | null | undefined): { ok: true; settings: WuzapiSettings } | { ok: false; detail: string } {
  const s = raw ?? {};
  const apiUrl = str(s.apiUrl).replace(/\/+$/, "");
  if (!URL_PATTERN.test(apiUrl) || apiUrl.length > 500) return { ok: false, detail: "The wuzapi API URL is missing or is not an http(s) URL" };
  const sessionToken = str(s.sessionToken);
  if (!TOKEN_PATTERN.test(sessionToken)) return { ok: false, detail: "The wuzapi session token is missing or malformed (4 to 200 characters, no spaces)" };
  const apiToken = str(s.apiToken);
  if (apiToken && !TOKEN_PATTERN.test(apiToken)) return { ok: false, detail: "The wuzapi API (admin) token is malformed (4 to 200 characters, no spaces)" };
  const hmacKey = typeof s.hmacKey === "string" ? s.hmacKey : "";
  if (hmacKey.length < HMAC_KEY_MIN || hmacKey.length > 256) return { ok: false, detail: `The HMAC key must have ${HMAC_KEY_MIN} to 256 characters (wuzapi refuses shorter keys)` };
  const session = str(s.session);
  if (session && !SESSION_PATTERN.test(session)) return { ok: false, detail: "The session name may only hold letters, digits, '.', '_' and '-'" };
  if (s.webhookFormat !== undefined && s.webhookFormat !== "json" && s.webhookFormat !== "form") return { ok: false, detail: 'The webhook format must be "json" or "form"' };
  const webhookFormat: WebhookFormat = s.webhookFormat === "form" ? "form" : "json";
  return { ok: true, settings: { apiUrl, sessionToken, hmacKey, webhookFormat, ...(apiToken ? { apiToken } : {}), ...(session ? { session } : {}) } };
}

/** The connection's public webhook address (what wuzapi is told to call). */
export function webhookUrl(publicUrl: string, connectionToken: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/api/wuzapi/${encodeURIComponent(connectionToken)}/webhook`;
}

/** Hides the tokens of a connection in texts that go to logs and statuses. */
export function redact(text: string, settings?: Pick<WuzapiSettings, "sessionToken" | "apiToken" | "hmacKey">): string {
  let out = text;
  for (const secret of [settings?.sessionToken, settings?.apiToken, settings?.hmacKey]) if (secret) out = out.split(secret).join("<secret>");
  return out;
}
