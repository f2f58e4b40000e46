/**
 * What differs between two providers of the WhatsApp Cloud API, and nothing else: the plugin
 * built on this library (plugin.ts) gives one CloudProvider, and every other file of the
 * library reads only it. Meta's own Graph API (channel-waba) and 360dialog (channel-360) are
 * two of them.
 *
 * - settings: each plugin reads its own connection settings into a CloudSettings (the number's
 *   id the webhooks name, the account its templates belong to, its secrets to hide in logs);
 * - profile: the host, headers and paths of the calls (profile.ts);
 * - the webhook: its route, how a delivery is proven to be the provider's (a signature over the
 *   raw body, a secret header), whether it answers Meta's GET handshake, whether a delivery may
 *   carry changes of another connection's number (Meta: one app serves many numbers);
 * - the templates' endpoints and list shape (template-api.ts);
 * - what connecting does after the credentials are proven (360dialog: registers the webhook);
 * - the prefix of the plugin's error codes (each plugin's manifest declares its own codes).
 */
import type { ProviderProfile } from "./profile";
import type { TemplateApi } from "./template-api";

export interface CloudSettings {
  /** The number's id as webhooks name it (metadata.phone_number_id), or the provider's key of the number. */
  phoneNumberId: string;
  /** The account the number's templates belong to (Meta: the WhatsApp Business Account id). */
  businessAccountId: string;
  /** Values that never go to logs, statuses or failure reasons. */
  secrets: string[];
}

export type SettingsRead<S> = { ok: true; settings: S } | { ok: false; detail: string; field: string };

export type Headers = Record<string, string | undefined>;

/** The error codes the library throws, made with the plugin's prefix (`ERR_WABA` → `ERR_WABA_TEMPLATE_REQUIRED`). */
export const CODE_NAMES = [
  "CREDENTIALS_REQUIRED",
  "TEMPLATE_REQUIRED",
  "RATE_LIMITED",
  "UNREACHABLE",
  "RECIPIENT_UNAVAILABLE",
  "MEDIA_FAILED",
  "SEND_REFUSED",
  "INTERACTIVE_INVALID",
  "TEMPLATE_INVALID",
  "TEMPLATE_NOT_FOUND",
  "TEMPLATE_REFUSED",
  "PAYLOAD_INVALID",
  "TEMPLATE_SAMPLE_REQUIRED",
  "TEMPLATE_SAMPLE_TYPE",
  "TEMPLATE_SAMPLE_TOO_LARGE",
] as const;
export type CodeName = (typeof CODE_NAMES)[number];

export const codeOf = (prefix: string, name: CodeName): string => `${prefix}_${name}`;

/** The prefix of channel-waba's codes: the library's pure functions default to it (their unit tests). */
export const WABA_CODES = "ERR_WABA";

export interface WebhookContext {
  /** The connection's public token (the webhook URL's path). */
  token: string;
}

export interface CloudProvider<S extends CloudSettings = CloudSettings> {
  /** The manifest's id (logs, Redis keys). */
  pluginId: string;
  /** The error codes' prefix: every `<prefix>_<CodeName>` is in the plugin's manifest. */
  codes: string;
  /** Who answers, for texts ("Meta", "360dialog"). */
  label: string;
  /** The webhook's path segment under the API: `/<segment>/:token/webhook`. */
  webhookSegment: string;
  /**
   * How the connection's token is written in the webhook URL, when not as is (360dialog takes
   * no underscore in a webhook URL, and the core's tokens are base64url): `decode` answers null
   * for what no encode could have made.
   */
  urlToken?: { encode(token: string): string; decode(param: string): string | null };
  /** The request headers the webhook route keeps (lower case). */
  webhookHeaders: string[];
  readSettings(raw: Record<string, unknown> | null | undefined): SettingsRead<S>;
  profile(settings: S): ProviderProfile;
  /** Whether a POST to the connection's URL is the provider's (checked on the raw bytes, in constant time). */
  authentic(settings: S, body: Buffer, headers: Headers, ctx: WebhookContext): boolean;
  /** Meta's GET handshake: the challenge to echo, or null to refuse; absent when the provider has none. */
  handshake?(settings: S, query: Record<string, unknown>): string | null;
  /** The code a refused handshake answers (403). */
  handshakeRefused?: string;
  /**
   * Whether connection `other` may take a change that came to `own`'s URL for its number
   * (Meta: both are numbers of the app whose secret signed it). Absent: a change goes only to
   * the URL's own connection.
   */
  sharesWebhooks?(own: S, other: S): boolean;
  /** Whether a template status change of account `entryId` is the connection's. */
  ownsAccount(settings: S, entryId: string): boolean;
  templates: TemplateApi<S>;
  /** The test button's answer once the probe call went through. */
  accepted(settings: S, probe: Record<string, unknown>): string;
  /** Runs when a connection connected with proven credentials (360dialog registers its webhook). Throws to report a failure. */
  afterConnect?(call: ProviderCall, settings: S, webhook: { url: string; token: string }): Promise<void>;
}

/** A call through the connection's client (graph.ts), for a provider's hooks. */
export type ProviderCall = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<T>;

/** Hides a connection's secrets in texts that go to logs, statuses and failure reasons. */
export function redact(text: string, settings?: Pick<CloudSettings, "secrets"> | null): string {
  let out = text;
  for (const secret of settings?.secrets ?? []) if (secret) out = out.split(secret).join("<secret>");
  return out;
}

/** The URL of a connection's webhook: `<public URL>/api/<segment>/<token>/webhook`. */
export function webhookUrl(publicUrl: string, segment: string, connectionToken: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/api/${segment}/${encodeURIComponent(connectionToken)}/webhook`;
}
