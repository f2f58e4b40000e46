import type { ConnectionSettings } from "@openatende/plugin-sdk/ui";

/** What the API shows instead of a stored secret; sent back unchanged, it keeps the stored value. */
export const MASKED = "********";
/** The hub's channels this plugin connects, in the order the picker shows them (the spec's first). */
export const VARIANTS = ["facebook", "instagram", "email", "whatsapp", "telegram", "mercadolivre", "olx", "webchat"] as const;
/** The same rules as the manifest's settingsSchema and the plugin's settings.ts. */
export const CHANNEL_TOKEN_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;
export const API_TOKEN_PATTERN = /^\S{8,200}$/;
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;
export const URL_PATTERN = /^https?:\/\/[^\s/]+[^\s]*$/i;

type T = (k: string, vars?: Record<string, unknown>) => string;
const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** Field → message for what is wrong; empty when the settings can be saved. */
export function validateHub(v: ConnectionSettings, t: T): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!(VARIANTS as readonly string[]).includes(str(v.variant))) errors.variant = t("errVariant");
  const channelToken = str(v.channelToken);
  // Spec §5: hub channels need a connection token.
  if (!channelToken) errors.channelToken = t("errChannelTokenRequired");
  else if (channelToken !== MASKED && !CHANNEL_TOKEN_PATTERN.test(channelToken)) errors.channelToken = t("errChannelTokenFormat");
  const apiToken = str(v.apiToken);
  if (!apiToken) errors.apiToken = t("errApiTokenRequired");
  else if (apiToken !== MASKED && !API_TOKEN_PATTERN.test(apiToken)) errors.apiToken = t("errApiTokenFormat");
  const secret = typeof v.webhookSecret === "string" ? v.webhookSecret : "";
  if (!secret) errors.webhookSecret = t("errSecretRequired");
  else if (secret !== MASKED && !SECRET_PATTERN.test(secret)) errors.webhookSecret = t("errSecretFormat");
  const apiUrl = str(v.apiUrl);
  if (apiUrl && (!URL_PATTERN.test(apiUrl) || apiUrl.length > 500)) errors.apiUrl = t("errUrl");
  if (str(v.emailSubject).length > 200) errors.emailSubject = t("errSubject");
  return errors;
}

/** A new webhook secret: 48 URL-safe characters from the browser's random source. */
export function newSecret(fill: (bytes: Uint8Array<ArrayBuffer>) => void = (b) => crypto.getRandomValues(b)): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = new Uint8Array(48);
  fill(bytes);
  return Array.from(bytes, (n) => alphabet[n % alphabet.length]).join("");
}
