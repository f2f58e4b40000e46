import type { ConnectionSettings } from "@openatende/plugin-sdk/ui";

/** What the API shows instead of a stored secret; sent back unchanged, it keeps the stored value. */
export const MASKED = "********";
/** The same rules as the manifest's settingsSchema and the plugin's settings.ts. */
export const TOKEN_PATTERN = /^\S{8,200}$/;
export const SENDER_PATTERN = /^[A-Za-z0-9 ._-]{1,20}$/;
export const URL_PATTERN = /^https?:\/\/[^\s/]+[^\s]*$/i;
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;
export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;
export const PASSWORD_MIN = 6;
export const TAXPAYER_TYPES = ["PF", "PJ"] as const;
export const PROVIDERS = ["comtele"] as const;

type T = (k: string, vars?: Record<string, unknown>) => string;
const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** The digits of a mobile typed with or without formatting, "+" kept: "+55 (11) 98888-7777" → "+5511988887777". */
export function mobileOf(typed: string): string {
  const t = typed.trim();
  return (t.startsWith("+") ? "+" : "") + t.replace(/\D/g, "");
}

/** Field → message for what is wrong; empty when the settings can be saved. */
export function validateSms(v: ConnectionSettings, t: T): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!PROVIDERS.includes((v.provider ?? "comtele") as (typeof PROVIDERS)[number])) errors.provider = t("errProvider");
  const token = str(v.token);
  if (!token) errors.token = t("errTokenRequired");
  else if (token !== MASKED && !TOKEN_PATTERN.test(token)) errors.token = t("errTokenFormat");
  const sender = str(v.sender);
  if (sender && !SENDER_PATTERN.test(sender)) errors.sender = t("errSender");
  const apiUrl = str(v.apiUrl);
  if (apiUrl && (!URL_PATTERN.test(apiUrl) || apiUrl.length > 500)) errors.apiUrl = t("errUrl");
  const secret = typeof v.webhookSecret === "string" ? v.webhookSecret : "";
  if (!secret) errors.webhookSecret = t("errSecretRequired");
  else if (secret !== MASKED && !SECRET_PATTERN.test(secret)) errors.webhookSecret = t("errSecretFormat");
  if (!str(v.firstName)) errors.firstName = t("errFirstName");
  else if (str(v.firstName).length > 100) errors.firstName = t("errTooLong");
  if (!str(v.lastName)) errors.lastName = t("errLastName");
  else if (str(v.lastName).length > 100) errors.lastName = t("errTooLong");
  const email = str(v.email);
  if (!EMAIL_PATTERN.test(email) || email.length > 191) errors.email = t("errEmail");
  if (!/^\+?[0-9]{10,15}$/.test(str(v.mobile))) errors.mobile = t("errMobile");
  const password = typeof v.password === "string" ? v.password : "";
  // Spec §5: the SMS account's password has at least 6 characters.
  if (!password) errors.password = t("errPasswordRequired");
  else if (password !== MASKED && (password.length < PASSWORD_MIN || password.length > 100)) errors.password = t("errPasswordLength", { min: PASSWORD_MIN });
  if (!TAXPAYER_TYPES.includes(v.taxpayerType as (typeof TAXPAYER_TYPES)[number])) errors.taxpayerType = t("errTaxpayerType");
  return errors;
}

/** A new webhook secret: 40 letters and digits from the browser's random source. */
export function newWebhookSecret(fill: (bytes: Uint8Array<ArrayBuffer>) => void = (b) => crypto.getRandomValues(b)): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = new Uint8Array(40);
  fill(bytes);
  return Array.from(bytes, (n) => alphabet[n % alphabet.length]).join("");
}
