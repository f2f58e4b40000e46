/**
 * The connection form's and the new-group form's rules, checked in the browser before anything
 * is sent: the same as the manifest's settingsSchema and the plugin's own settings parser
 * (src/session/settings.ts), and spec §5 Group for a new group. Messages are translated keys.
 */
import type { ConnectionSettings } from "@openatende/plugin-sdk/ui";

type T = (k: string, vars?: Record<string, unknown>) => string;

/** What the API shows instead of a stored secret; sent back unchanged, it keeps the stored value. */
export const MASKED = "********";
export const PROXY_PATTERN = /^(https?|socks[45]h?):\/\/[^\s]+$/;
/** The manifest's pattern for pairingPhone: a leading digit, separators allowed. */
const PHONE_SHAPE = /^\+?[0-9][0-9 ().-]{6,30}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export const GROUP_NAME_MAX = 100;
export const GROUP_PARTICIPANTS_MAX = 1023;
export const GROUP_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const GROUP_PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"];

/** Digits of a phone number with country code (8 to 15), or null when it is not one. */
export function phoneDigits(v: unknown): string | null {
  if (typeof v !== "string" || !PHONE_SHAPE.test(v.trim())) return null;
  const digits = v.replace(/[\s()+.-]/g, "");
  return /^\d{8,15}$/.test(digits) ? digits : null;
}

/** A real calendar day written yyyy-mm-dd. */
export function isDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** Field → message; field names as the server names them under `settings.` ("importSettings.from"). */
export function validateWhatsApp(v: ConnectionSettings, t: T): Record<string, string> {
  const errors: Record<string, string> = {};
  const proxy = str(v.proxyUrl);
  if (proxy && (proxy.length > 500 || !PROXY_PATTERN.test(proxy))) errors.proxyUrl = t("errProxyUrl");
  const password = typeof v.proxyPassword === "string" ? v.proxyPassword : "";
  if (password.length > 200) errors.proxyPassword = t("errProxyPassword");
  const phone = str(v.pairingPhone);
  if (phone && !phoneDigits(phone)) errors.pairingPhone = t("errPhone");
  const name = typeof v.browserName === "string" ? v.browserName : "";
  // eslint-disable-next-line no-control-regex
  if (name.length > 40 || /[\u0000-\u001f]/.test(name)) errors.browserName = t("errBrowserName");
  const imports = (v.importSettings && typeof v.importSettings === "object" ? v.importSettings : {}) as Record<string, unknown>;
  const from = str(imports.from);
  const to = str(imports.to);
  if (from && !isDate(from)) errors["importSettings.from"] = t("errDate");
  if (to && !isDate(to)) errors["importSettings.to"] = t("errDate");
  if (from && to && isDate(from) && isDate(to) && from > to) errors["importSettings.to"] = t("errDateOrder");
  return errors;
}

export interface NewGroupDraft {
  name: string;
  connectionToken?: string | null;
  contactIds: number[];
  photo?: { type: string; size: number } | null;
}

/** Why a file cannot be a group photo (an image of at most 5 MB), or null when it can. */
export function photoProblem(file: { type: string; size: number }, t: T): string | null {
  if (!GROUP_PHOTO_TYPES.includes(file.type)) return t("errPhotoType");
  if (file.size > GROUP_PHOTO_MAX_BYTES) return t("errPhotoSize");
  return null;
}

/** Spec §5 Group: name, WhatsApp connection and contacts required; at most 1,023 participants. */
export function validateNewGroup(g: NewGroupDraft, t: T): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = g.name.trim();
  if (!name) errors.name = t("errGroupName");
  else if (name.length > GROUP_NAME_MAX) errors.name = t("errGroupNameMax", { max: GROUP_NAME_MAX });
  if (!g.connectionToken) errors.connection = t("errGroupConnection");
  const n = new Set(g.contactIds).size;
  if (!n) errors.contacts = t("errGroupContacts");
  else if (n > GROUP_PARTICIPANTS_MAX) errors.contacts = t("errGroupContactsMax", { max: GROUP_PARTICIPANTS_MAX });
  const photo = g.photo ? photoProblem(g.photo, t) : null;
  if (photo) errors.photo = photo;
  return errors;
}
