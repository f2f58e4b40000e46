/**
 * Meta's Cloud API as the library's provider (@openatende/whatsapp-cloud, provider.ts): the
 * Graph API at `<graph URL>/<version>/<phone-number id>/…` with the connection's Bearer token;
 * webhooks signed with the app secret (X-Hub-Signature-256) and checked with Meta's GET
 * handshake; one app's webhook may carry changes of every number of the app, so a change for
 * another connection's number goes to it when that connection holds the same app secret;
 * templates under the WhatsApp Business Account (`/<WABA id>/message_templates`), a media
 * header's sample uploaded through the app (`/<app id>/uploads`, the Resumable Upload API).
 */
import { hmacSignatureValid, sameSecret } from "@openatende/plugin-sdk";
import { metaTemplateApi, SIGNATURE_HEADER, verificationAnswer, type CloudProvider, type ProviderProfile } from "@openatende/whatsapp-cloud";
import { readSettings, type WabaSettings } from "./settings";

/** Meta's Cloud API: `https://graph.facebook.com/<version>/<phone-number id>/…`, Bearer token. */
export function cloudApiProfile(s: Pick<WabaSettings, "graphUrl" | "apiVersion" | "phoneNumberId" | "accessToken">): ProviderProfile {
  const pnid = encodeURIComponent(s.phoneNumberId);
  return {
    name: "cloud-api",
    baseUrl: `${s.graphUrl}/${s.apiVersion}`,
    headers: { authorization: `Bearer ${s.accessToken}` },
    messagesPath: `/${pnid}/messages`,
    mediaUploadPath: `/${pnid}/media`,
    mediaInfoPath: (id) => `/${encodeURIComponent(id)}?phone_number_id=${pnid}`,
    downloadUrl: (url) => url,
    probePath: `/${pnid}?fields=display_phone_number,verified_name`,
  };
}

export const wabaProvider: CloudProvider<WabaSettings> = {
  pluginId: "channel-waba",
  codes: "ERR_WABA",
  label: "Meta",
  webhookSegment: "waba",
  webhookHeaders: [SIGNATURE_HEADER],
  readSettings,
  profile: cloudApiProfile,
  authentic: (s, body, headers) => hmacSignatureValid(body, s.appSecret, headers[SIGNATURE_HEADER]),
  handshake: (s, query) => verificationAnswer(query, s.verifyToken),
  handshakeRefused: "ERR_WABA_VERIFY_TOKEN_MISMATCH",
  sharesWebhooks: (own, other) => sameSecret(other.appSecret, own.appSecret),
  ownsAccount: (s, entryId) => entryId === s.businessAccountId,
  templates: metaTemplateApi<WabaSettings>({ appIdOf: (s) => s.appId, tokenOf: (s) => s.accessToken }),
  // What the test shows under its translated title: the number as Meta knows it (data, no prose in one language).
  accepted: (s, who) => [who.verified_name, who.display_phone_number].filter(Boolean).join(" · ") || s.phoneNumberId,
};
