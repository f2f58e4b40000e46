/**
 * A 360dialog connection's settings (spec §1/§3, the "360" connection type): the API key of one
 * phone number (360dialog issues one key per number), the number itself for display, the
 * partner's webhook secret when the platform is a 360dialog partner (x-360dialog-signature),
 * and the API's base URL (tests point it at the local fake). Read from what the core stored,
 * with the reason when they cannot be used; the manifest's settingsSchema holds the same rules.
 *
 * What the library needs of every provider (CloudSettings): the number's key is its digits; the
 * templates' account is the API key's (one number's key reaches its WABA's templates), named by
 * a digest of the key so that the key itself never goes to Redis or the screens.
 */
import { createHash } from "node:crypto";
import type { CloudSettings, SettingsRead } from "@openatende/whatsapp-cloud";

export const DEFAULT_BASE_URL = "https://waba-v2.360dialog.io";

export interface D360Settings extends CloudSettings {
  apiKey: string;
  /** The number's digits (as 360dialog's hub shows it, without "+"). */
  phoneNumber: string;
  /** The partner's webhook secret (x-360dialog-signature), when given. */
  webhookSecret: string | null;
  /** The API's base URL, no trailing slash. */
  baseUrl: string;
}

const KEY = /^\S{16,200}$/;
const PHONE = /^[0-9]{8,20}$/;
const URL_PATTERN = /^https?:\/\/[^\s/]+[^\s]*$/i;
const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

export function readSettings(raw: Record<string, unknown> | null | undefined): SettingsRead<D360Settings> {
  const s = raw ?? {};
  const bad = (field: string, detail: string): SettingsRead<D360Settings> => ({ ok: false, field, detail });
  const apiKey = str(s.apiKey);
  if (!KEY.test(apiKey)) return bad("apiKey", "The 360dialog API key is missing or malformed (16 to 200 characters, no spaces)");
  const phoneNumber = str(s.phoneNumber).replace(/[\s+().-]/g, "");
  if (!PHONE.test(phoneNumber)) return bad("phoneNumber", "The phone number is missing or is not a number (8 to 20 digits, country code first)");
  const secret = str(s.webhookSecret);
  if (secret && !KEY.test(secret)) return bad("webhookSecret", "The partner webhook secret is malformed (16 to 200 characters, no spaces)");
  const baseUrl = (str(s.baseUrl) || DEFAULT_BASE_URL).replace(/\/+$/, "");
  if (!URL_PATTERN.test(baseUrl) || baseUrl.length > 500) return bad("baseUrl", "The 360dialog API URL is not an http(s) URL");
  const account = `d360-${createHash("sha256").update(apiKey).digest("hex").slice(0, 24)}`;
  return {
    ok: true,
    settings: { apiKey, phoneNumber, webhookSecret: secret || null, baseUrl, phoneNumberId: phoneNumber, businessAccountId: account, secrets: [apiKey, ...(secret ? [secret] : [])] },
  };
}
