/**
 * An Instagram connection's settings, read from what the core stored (the manifest's
 * settingsSchema holds the same rules; this is the plugin's own reading, so a connection saved
 * before a rule changed never crashes it). Two flavours of Meta's API (WHATSAPP.md §5):
 *
 * - "instagram": Business Login for Instagram. Sends go to
 *   graph.instagram.com/{version}/{igAccountId}/messages with an Instagram user token.
 * - "page": the Facebook Page flow. Sends go to graph.facebook.com/{version}/{pageId}/messages
 *   with the page's token.
 *
 * Either way the webhook's entries name the Instagram account (`entry[].id`), which is how a
 * delivery finds its connection. `appSecret` signs every webhook (X-Hub-Signature-256);
 * `humanAgentTag` lets agents answer up to 7 days after the customer's last message
 * (MESSAGE_TAG HUMAN_AGENT); `graphUrl` points both flavours at another host (the tests' fake).
 */

export const FLAVOURS = ["instagram", "page"] as const;
export type Flavour = (typeof FLAVOURS)[number];

export const DEFAULT_HOSTS: Record<Flavour, string> = { instagram: "https://graph.instagram.com", page: "https://graph.facebook.com" };
export const DEFAULT_API_VERSION = "v23.0";

export interface InstagramSettings {
  flavour: Flavour;
  igAccountId: string;
  /** The Facebook Page's id ("page" flavour only; "" otherwise). */
  pageId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  apiVersion: string;
  humanAgentTag: boolean;
  /** The Graph API's base URL, no trailing slash. */
  graphUrl: string;
}

export const ID_PATTERN = /^[0-9]{5,30}$/;
const TOKEN = /^\S+$/;
const VERSION = /^v[0-9]{1,3}\.[0-9]{1,2}$/;
const URL_PATTERN = /^https?:\/\/[^\s/]+[^\s]*$/i;

const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

export type SettingsRead = { ok: true; settings: InstagramSettings } | { ok: false; field: string; detail: string };

export function readSettings(raw: Record<string, unknown> | null | undefined): SettingsRead {
  const s = raw ?? {};
  const bad = (field: string, detail: string): SettingsRead => ({ ok: false, field, detail });
  const flavour = (str(s.flavour) || "instagram") as Flavour;
  if (!FLAVOURS.includes(flavour)) return bad("flavour", `The flavour must be one of ${FLAVOURS.join(", ")}`);
  const igAccountId = str(s.igAccountId);
  if (!ID_PATTERN.test(igAccountId)) return bad("igAccountId", "The Instagram account id is missing or is not a number (5 to 30 digits)");
  const pageId = str(s.pageId);
  if (flavour === "page" && !ID_PATTERN.test(pageId)) return bad("pageId", "The Facebook Page id is missing or is not a number (5 to 30 digits)");
  if (flavour === "instagram" && pageId && !ID_PATTERN.test(pageId)) return bad("pageId", "The Facebook Page id is not a number (5 to 30 digits)");
  const accessToken = str(s.accessToken);
  if (accessToken.length < 20 || accessToken.length > 1000 || !TOKEN.test(accessToken)) return bad("accessToken", "The access token is missing or malformed (20 to 1000 characters, no spaces)");
  const appSecret = str(s.appSecret);
  if (appSecret.length < 16 || appSecret.length > 200 || !TOKEN.test(appSecret)) return bad("appSecret", "The app secret is missing or malformed (16 to 200 characters, no spaces)");
  const verifyToken = str(s.verifyToken);
  if (verifyToken.length < 8 || verifyToken.length > 200 || !TOKEN.test(verifyToken)) return bad("verifyToken", "The verification token is missing or malformed (8 to 200 characters, no spaces)");
  const apiVersion = str(s.apiVersion) || DEFAULT_API_VERSION;
  if (!VERSION.test(apiVersion)) return bad("apiVersion", 'The Graph API version must look like "v23.0"');
  const graphUrl = (str(s.graphUrl) || DEFAULT_HOSTS[flavour]).replace(/\/+$/, "");
  if (!URL_PATTERN.test(graphUrl) || graphUrl.length > 500) return bad("graphUrl", "The Graph API URL is not an http(s) URL");
  const humanAgentTag = s.humanAgentTag === true || s.humanAgentTag === "true";
  return { ok: true, settings: { flavour, igAccountId, pageId: flavour === "page" ? pageId : pageId || "", accessToken, appSecret, verifyToken, apiVersion, humanAgentTag, graphUrl } };
}

/** The id whose /messages edge sends for this connection: the Instagram account, or the Page. */
export function senderIdOf(s: Pick<InstagramSettings, "flavour" | "igAccountId" | "pageId">): string {
  return s.flavour === "page" ? s.pageId : s.igAccountId;
}

/** The path of a connection's webhook under the API (Meta is given `<publicUrl>/api<path>`). */
export function webhookPath(connectionToken: string): string {
  return `/instagram/${encodeURIComponent(connectionToken)}/webhook`;
}

/** Hides a connection's secrets in texts that go to logs, statuses and failure reasons. */
export function redact(text: string, s?: Partial<Pick<InstagramSettings, "accessToken" | "appSecret" | "verifyToken">>): string {
  let out = text;
  for (const secret of [s?.accessToken, s?.appSecret, s?.verifyToken]) if (secret) out = out.split(secret).join("<secret>");
  return out;
}
