/**
 * A WhatsApp connection's own settings (the manifest's settingsSchema; name, default flag,
 * greeting and farewell are the core's connection fields): proxy, the phone number for
 * pairing by code, the name the phone shows for this linked device, and the import settings
 * of spec §3 applied to the history the device receives when it is linked.
 */
import type { ImportSettings } from "../ports";

export interface WhatsAppSettings {
  /** Proxy URL with its password put back in (http, https, socks4/5). */
  proxyUrl?: string;
  /** Digits with country code: pair by code instead of QR. */
  pairingPhone?: string;
  /** [platform, browser, version] as Baileys takes it; the phone lists the device as "<browser> (<platform>)". */
  browser: [string, string, string];
  importSettings: ImportSettings;
}

export type SettingsResult = { ok: true; settings: WhatsAppSettings } | { ok: false; detail: string };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const PROXY = /^(https?|socks[45]h?):\/\/[^\s]+$/;
/** Browser names WhatsApp knows as platforms; "Desktop" is given the most history. */
export const DEFAULT_BROWSER_NAME = "Desktop";

const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");
const bool = (v: unknown) => v === true || v === "true" || v === 1;

export function parseImportSettings(raw: unknown): ImportSettings | string {
  const o = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const from = str(o.from);
  const to = str(o.to);
  if (from && !DATE.test(from)) return "importSettings.from must be a date (yyyy-mm-dd)";
  if (to && !DATE.test(to)) return "importSettings.to must be a date (yyyy-mm-dd)";
  if (from && to && from > to) return "importSettings.from must not be after importSettings.to";
  return {
    messages: bool(o.messages),
    groupMessages: bool(o.groupMessages),
    closeTickets: bool(o.closeTickets),
    contacts: bool(o.contacts),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

export function parseSettings(raw: Record<string, unknown> | undefined): SettingsResult {
  const s = raw ?? {};
  let proxyUrl: string | undefined;
  const proxy = str(s.proxyUrl);
  if (proxy) {
    if (!PROXY.test(proxy)) return { ok: false, detail: "proxyUrl must be an http, https or socks URL" };
    let u: URL;
    try {
      u = new URL(proxy);
    } catch {
      return { ok: false, detail: "proxyUrl is not a valid URL" };
    }
    const password = str(s.proxyPassword);
    if (password && password !== "********") u.password = password;
    proxyUrl = u.toString();
  }
  let pairingPhone: string | undefined;
  const phone = str(s.pairingPhone);
  if (phone) {
    const digits = phone.replace(/[\s()+.-]/g, "");
    if (!/^\d{8,15}$/.test(digits)) return { ok: false, detail: "pairingPhone must be a phone number with country code (8 to 15 digits)" };
    pairingPhone = digits;
  }
  const name = str(s.browserName) || DEFAULT_BROWSER_NAME;
  if (name.length > 40 || /[\u0000-\u001f]/.test(name)) return { ok: false, detail: "browserName must be at most 40 printable characters" };
  const imports = parseImportSettings(s.importSettings);
  if (typeof imports === "string") return { ok: false, detail: imports };
  return { ok: true, settings: { proxyUrl, pairingPhone, browser: ["Mac OS", name, "14.4.1"], importSettings: imports } };
}

/** Whether the device should ask the phone for its full history (only when something is imported). */
export function wantsHistory(s: WhatsAppSettings): boolean {
  return s.importSettings.messages || s.importSettings.groupMessages || s.importSettings.contacts;
}
