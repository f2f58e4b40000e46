import type { ConnectionSettings } from "@openatende/plugin-sdk/ui";

/** What the API shows instead of a stored secret; sent back unchanged, it keeps the stored value. */
export const MASKED = "********";
/** A bot token as @BotFather issues it (the manifest's settingsSchema has the same rule). */
export const TOKEN_PATTERN = /^\d{3,}:[A-Za-z0-9_-]{30,}$/;
export const MODES = ["webhook", "polling"] as const;

export function tokenUsable(token: unknown): token is string {
  return typeof token === "string" && TOKEN_PATTERN.test(token.trim());
}

/** The same rules as the manifest's settings schema, checked before the form is sent. */
export function validateTelegram(v: ConnectionSettings, t: (k: string, vars?: Record<string, unknown>) => string): Record<string, string> {
  const errors: Record<string, string> = {};
  const token = typeof v.token === "string" ? v.token.trim() : "";
  if (!token) errors.token = t("errTokenRequired");
  else if (token !== MASKED && !TOKEN_PATTERN.test(token)) errors.token = t("errTokenFormat");
  if (!MODES.includes(v.mode as (typeof MODES)[number])) errors.mode = t("errMode");
  const apiRoot = typeof v.apiRoot === "string" ? v.apiRoot.trim() : "";
  if (apiRoot && (!/^https?:\/\/[^\s]+$/i.test(apiRoot) || apiRoot.length > 500)) errors.apiRoot = t("errUrl");
  return errors;
}
