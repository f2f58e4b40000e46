import type { ConnectionSettings } from "@openatende/plugin-sdk/ui";

/** What the API shows instead of a stored secret; sent back unchanged, it keeps the stored value. */
export const MASKED = "********";
/** The same rules as the manifest's settingsSchema (and the plugin's settings.ts). */
export const PHONE_CHARS = /^\+?[0-9 ().-]{8,30}$/;
export const URL_PATTERN = /^https?:\/\/[^\s/]+[^\s]*$/i;
export const NO_SPACES = /^\S+$/;

/** The fields every 360dialog connection needs. */
export const REQUIRED = ["apiKey", "phoneNumber"] as const;

type T = (k: string, vars?: Record<string, unknown>) => string;
const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

function secretProblem(s: string, t: T): string | null {
  return s !== MASKED && (s.length < 16 || s.length > 200 || !NO_SPACES.test(s)) ? t("errSecretFormat", { min: 16, max: 200 }) : null;
}

/** Field → message for what is wrong; empty when the settings can be saved. */
export function validate360(v: ConnectionSettings, t: T): Record<string, string> {
  const errors: Record<string, string> = {};
  const key = str(v.apiKey);
  const keyProblem = key ? secretProblem(key, t) : t("err_apiKey_required");
  if (keyProblem) errors.apiKey = keyProblem;
  const phone = str(v.phoneNumber);
  const digits = phone.replace(/[\s+().-]/g, "");
  if (!phone) errors.phoneNumber = t("err_phoneNumber_required");
  else if (!PHONE_CHARS.test(phone) || !/^[0-9]{8,20}$/.test(digits)) errors.phoneNumber = t("errPhone");
  const secret = str(v.webhookSecret);
  const secretBad = secret ? secretProblem(secret, t) : null;
  if (secretBad) errors.webhookSecret = secretBad;
  const baseUrl = str(v.baseUrl);
  if (baseUrl && (!URL_PATTERN.test(baseUrl) || baseUrl.length > 500)) errors.baseUrl = t("errUrl");
  return errors;
}

/** The URL registered at 360dialog for this connection: its token in hex (360dialog takes no "_" in a webhook URL). */
export function webhookUrlOf(origin: string, token: string): string {
  const hex = Array.from(new TextEncoder().encode(token), (b) => b.toString(16).padStart(2, "0")).join("");
  return `${origin.replace(/\/+$/, "")}/api/d360/${hex}/webhook`;
}
