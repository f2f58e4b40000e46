import type { ConnectionSettings } from "@openatende/plugin-sdk/ui";

/** What the API shows instead of a stored secret; sent back unchanged, it keeps the stored value. */
export const MASKED = "********";
/** The same rules as the manifest's settingsSchema (and the plugin's settings.ts). */
export const URL_PATTERN = /^https?:\/\/[^\s/]+[^\s]*$/i;
export const TOKEN_PATTERN = /^\S{4,200}$/;
export const SESSION_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;
export const HMAC_MIN = 32;
export const HMAC_MAX = 256;
export const FORMATS = ["json", "form"] as const;

type T = (k: string, vars?: Record<string, unknown>) => string;
const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** Field → message for what is wrong; empty when the settings can be saved. */
export function validateWuzapi(v: ConnectionSettings, t: T): Record<string, string> {
  const errors: Record<string, string> = {};
  const apiUrl = str(v.apiUrl);
  if (!apiUrl) errors.apiUrl = t("errApiUrlRequired");
  else if (!URL_PATTERN.test(apiUrl) || apiUrl.length > 500) errors.apiUrl = t("errUrl");
  const sessionToken = str(v.sessionToken);
  if (!sessionToken) errors.sessionToken = t("errSessionTokenRequired");
  else if (sessionToken !== MASKED && !TOKEN_PATTERN.test(sessionToken)) errors.sessionToken = t("errTokenFormat");
  const apiToken = str(v.apiToken);
  if (apiToken && apiToken !== MASKED && !TOKEN_PATTERN.test(apiToken)) errors.apiToken = t("errTokenFormat");
  const hmacKey = typeof v.hmacKey === "string" ? v.hmacKey : "";
  if (!hmacKey) errors.hmacKey = t("errHmacRequired");
  else if (hmacKey !== MASKED && (hmacKey.length < HMAC_MIN || hmacKey.length > HMAC_MAX)) errors.hmacKey = t("errHmacLength", { min: HMAC_MIN, max: HMAC_MAX });
  if (!FORMATS.includes(v.webhookFormat as (typeof FORMATS)[number])) errors.webhookFormat = t("errFormat");
  const session = str(v.session);
  if (session && !SESSION_PATTERN.test(session)) errors.session = t("errSession");
  return errors;
}

/** The digits of a phone number typed for a pairing code (country code included), or null. */
export function pairingPhone(typed: string): string | null {
  if (!/^\+?[\d\s().-]+$/.test(typed.trim())) return null;
  const digits = typed.replace(/\D/g, "");
  return digits.length >= 8 && digits.length <= 15 ? digits : null;
}

/** A new HMAC key: 48 characters from the browser's random source. */
export function newHmacKey(fill: (bytes: Uint8Array<ArrayBuffer>) => void = (b) => crypto.getRandomValues(b)): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = new Uint8Array(48);
  fill(bytes);
  return Array.from(bytes, (n) => alphabet[n % alphabet.length]).join("");
}
