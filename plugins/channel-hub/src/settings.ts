/**
 * A hub connection's settings, read once from what the core stored (already checked against
 * the manifest's settingsSchema; read again here because a plugin node or a test may hand
 * anything over).
 *
 * - variant: which of the hub's channels this connection is (the path segment of its send
 *   API: /channels/<variant>/messages).
 * - channelToken: the spec's "connection token" (§5: required): the UUID the NotificaMe panel
 *   gives each connected channel. It is the `from` of every send and the `subscriptionId` /
 *   `message.to` of every webhook.
 * - apiToken: the account's token, sent as X-API-Token.
 * - webhookSecret: ours, made by the connection form; the hub does not sign its webhooks, so
 *   the secret rides in the webhook's path and is compared in constant time.
 */
export const HUB_VARIANTS = ["facebook", "instagram", "email", "whatsapp", "telegram", "mercadolivre", "olx", "webchat"] as const;
export type HubVariant = (typeof HUB_VARIANTS)[number];

/** NotificaMe's API (INTEGRATIONS.md §2.1: api. and hub.notificame.com.br/v1 answer alike). */
export const DEFAULT_API_URL = "https://api.notificame.com.br/v1";
export const DEFAULT_EMAIL_SUBJECT = "Atendimento";

export const CHANNEL_TOKEN_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;
export const API_TOKEN_PATTERN = /^\S{8,200}$/;
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;
export const URL_PATTERN = /^https?:\/\/[^\s/]+[^\s]*$/i;

export interface HubSettings {
  variant: HubVariant;
  channelToken: string;
  apiToken: string;
  webhookSecret: string;
  /** Without a trailing slash. */
  apiUrl: string;
  emailSubject: string;
}

export type ReadSettings = { ok: true; settings: HubSettings } | { ok: false; detail: string };

const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");

export function readSettings(raw: Record<string, unknown> | null | undefined): ReadSettings {
  const s = raw ?? {};
  const variant = str(s.variant);
  if (!(HUB_VARIANTS as readonly string[]).includes(variant)) return { ok: false, detail: `variant must be one of ${HUB_VARIANTS.join(", ")}` };
  const channelToken = str(s.channelToken);
  if (!CHANNEL_TOKEN_PATTERN.test(channelToken)) return { ok: false, detail: "the connection token (the hub channel's id) is missing or malformed" };
  const apiToken = str(s.apiToken);
  if (!API_TOKEN_PATTERN.test(apiToken)) return { ok: false, detail: "the API token is missing or malformed" };
  const webhookSecret = typeof s.webhookSecret === "string" ? s.webhookSecret : "";
  if (!SECRET_PATTERN.test(webhookSecret)) return { ok: false, detail: "the webhook secret must be 32 to 128 letters, digits, - or _" };
  const apiUrl = str(s.apiUrl) || DEFAULT_API_URL;
  if (!URL_PATTERN.test(apiUrl) || apiUrl.length > 500) return { ok: false, detail: "the API URL must be an http(s) address" };
  const emailSubject = str(s.emailSubject) || DEFAULT_EMAIL_SUBJECT;
  if (emailSubject.length > 200) return { ok: false, detail: "the e-mail subject may have up to 200 characters" };
  return { ok: true, settings: { variant: variant as HubVariant, channelToken, apiToken, webhookSecret, apiUrl: apiUrl.replace(/\/+$/, ""), emailSubject } };
}

/** Takes the account's token out of a text that may quote it (an error of the hub). */
export function redact(text: string, s: Pick<HubSettings, "apiToken">): string {
  return s.apiToken ? text.split(s.apiToken).join("***") : text;
}
