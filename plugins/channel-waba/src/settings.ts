/**
 * A WABA connection's settings (spec §3 Channel, "WABA fields: phone-number id, access token,
 * business account id, app id, version, verification token, webhook url"), read from what the
 * core stored, with the reason when they cannot be used. The manifest's settingsSchema holds
 * the same rules; this is the plugin's own reading (a connection saved before a rule changed
 * must not crash it). The webhook URL is not a setting: it is made from the connection's token.
 *
 * `appSecret` is the Meta app's secret, which signs every webhook (X-Hub-Signature-256);
 * `graphUrl` points the connection at another Graph host (tests point it at the local fake).
 */

export const DEFAULT_GRAPH_URL = "https://graph.facebook.com";
export const DEFAULT_API_VERSION = "v23.0";

import type { SettingsRead } from "@openatende/whatsapp-cloud";

export interface WabaSettings {
  phoneNumberId: string;
  accessToken: string;
  businessAccountId: string;
  appId: string;
  apiVersion: string;
  verifyToken: string;
  appSecret: string;
  /** The Graph API's base URL, no trailing slash. */
  graphUrl: string;
  /** The access token, app secret and verification token: never in logs (the library's redact). */
  secrets: string[];
}

const ID = /^[0-9]{5,30}$/;
const TOKEN = /^\S+$/;
const VERSION = /^v[0-9]{1,3}\.[0-9]{1,2}$/;
const URL_PATTERN = /^https?:\/\/[^\s/]+[^\s]*$/i;

const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

export function readSettings(raw: Record<string, unknown> | null | undefined): SettingsRead<WabaSettings> {
  const s = raw ?? {};
  const bad = (field: string, detail: string): SettingsRead<WabaSettings> => ({ ok: false, field, detail });
  const phoneNumberId = str(s.phoneNumberId);
  if (!ID.test(phoneNumberId)) return bad("phoneNumberId", "The phone-number id is missing or is not a number (5 to 30 digits)");
  const accessToken = str(s.accessToken);
  if (accessToken.length < 20 || accessToken.length > 1000 || !TOKEN.test(accessToken)) return bad("accessToken", "The access token is missing or malformed (20 to 1000 characters, no spaces)");
  const businessAccountId = str(s.businessAccountId);
  if (!ID.test(businessAccountId)) return bad("businessAccountId", "The business account id is missing or is not a number (5 to 30 digits)");
  const appId = str(s.appId);
  if (!ID.test(appId)) return bad("appId", "The app id is missing or is not a number (5 to 30 digits)");
  const apiVersion = str(s.apiVersion) || DEFAULT_API_VERSION;
  if (!VERSION.test(apiVersion)) return bad("apiVersion", 'The Graph API version must look like "v23.0"');
  const verifyToken = str(s.verifyToken);
  if (verifyToken.length < 8 || verifyToken.length > 200 || !TOKEN.test(verifyToken)) return bad("verifyToken", "The verification token is missing or malformed (8 to 200 characters, no spaces)");
  const appSecret = str(s.appSecret);
  if (appSecret.length < 16 || appSecret.length > 200 || !TOKEN.test(appSecret)) return bad("appSecret", "The app secret is missing or malformed (16 to 200 characters, no spaces)");
  const graphUrl = (str(s.graphUrl) || DEFAULT_GRAPH_URL).replace(/\/+$/, "");
  if (!URL_PATTERN.test(graphUrl) || graphUrl.length > 500) return bad("graphUrl", "The Graph API URL is not an http(s) URL");
  return { ok: true, settings: { phoneNumberId, accessToken, businessAccountId, appId, apiVersion, verifyToken, appSecret, graphUrl, secrets: [accessToken, appSecret, verifyToken] } };
}
