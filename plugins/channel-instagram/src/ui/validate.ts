import type { ConnectionSettings } from "@openatende/plugin-sdk/ui";

/** What the API shows instead of a stored secret; sent back unchanged, it keeps the stored value. */
export const MASKED = "********";
/** The same rules as the manifest's settingsSchema (and the plugin's settings.ts). */
export const FLAVOURS = ["instagram", "page"] as const;
export const ID_PATTERN = /^[0-9]{5,30}$/;
export const VERSION_PATTERN = /^v[0-9]{1,3}\.[0-9]{1,2}$/;
export const URL_PATTERN = /^https?:\/\/[^\s/]+[^\s]*$/i;
export const NO_SPACES = /^\S+$/;
export const DEFAULT_VERSION = "v23.0";

type T = (k: string, vars?: Record<string, unknown>) => string;
const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

function secret(errors: Record<string, string>, v: ConnectionSettings, k: string, min: number, max: number, t: T) {
  const s = str(v[k]);
  if (!s) errors[k] = t(`err_${k}_required`);
  else if (s !== MASKED && (s.length < min || s.length > max || !NO_SPACES.test(s))) errors[k] = t("errSecretFormat", { min, max });
}

/** The flavour a value names ("instagram" when none). */
export function flavourOf(v: ConnectionSettings): (typeof FLAVOURS)[number] {
  return str(v.flavour) === "page" ? "page" : "instagram";
}

/** Field → message for what is wrong; empty when the settings can be saved. */
export function validateInstagram(v: ConnectionSettings, t: T): Record<string, string> {
  const errors: Record<string, string> = {};
  const flavour = str(v.flavour);
  if (flavour && !(FLAVOURS as readonly string[]).includes(flavour)) errors.flavour = t("errFlavour");
  const ids = flavourOf(v) === "page" ? (["igAccountId", "pageId"] as const) : (["igAccountId"] as const);
  for (const k of ids) {
    const s = str(v[k]);
    if (!s) errors[k] = t(`err_${k}_required`);
    else if (!ID_PATTERN.test(s)) errors[k] = t("errDigits");
  }
  if (flavourOf(v) === "instagram" && str(v.pageId) && !ID_PATTERN.test(str(v.pageId))) errors.pageId = t("errDigits");
  secret(errors, v, "accessToken", 20, 1000, t);
  secret(errors, v, "appSecret", 16, 200, t);
  secret(errors, v, "verifyToken", 8, 200, t);
  const version = str(v.apiVersion);
  if (version && !VERSION_PATTERN.test(version)) errors.apiVersion = t("errVersion");
  const graphUrl = str(v.graphUrl);
  if (graphUrl && (!URL_PATTERN.test(graphUrl) || graphUrl.length > 500)) errors.graphUrl = t("errUrl");
  return errors;
}

/** The URL Meta is given as the app's callback URL for this connection. */
export function webhookUrlOf(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, "")}/api/instagram/${encodeURIComponent(token)}/webhook`;
}

/** A new verification token: 32 characters from the browser's random source. */
export function newVerifyToken(fill: (bytes: Uint8Array<ArrayBuffer>) => void = (b) => crypto.getRandomValues(b)): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = new Uint8Array(32);
  fill(bytes);
  return Array.from(bytes, (n) => alphabet[n % alphabet.length]).join("");
}
