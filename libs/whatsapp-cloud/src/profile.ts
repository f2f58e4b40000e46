/**
 * A provider profile: where the Cloud API's calls go and how they are authorised. Meta's own
 * Graph API is one profile; a BSP that fronts the same API (360dialog: another host, a
 * `D360-API-KEY` header, no phone-number id in the paths, media re-hosted) is another, built
 * on the same transport (graph.ts) and the same payloads (outbound.ts). Nothing else in the
 * plugin names a host or a header.
 *
 * How to extend: write a function returning a ProviderProfile for the provider; the channel
 * takes it from `profileFor` (channel-360 passes its own).
 */
import type { WabaSettings } from "./settings";

export interface ProviderProfile {
  /** For logs: "cloud-api", "360dialog", … */
  name: string;
  /** Base of every call, no trailing slash (Meta: `<graph host>/<version>`). */
  baseUrl: string;
  /** The authorisation headers of every call, media downloads included. */
  headers: Record<string, string>;
  /** Where messages, statuses ("read") and reactions are POSTed. */
  messagesPath: string;
  /** Where a file is uploaded (multipart). */
  mediaUploadPath: string;
  /** Where a media id is looked up (answers a short-lived download URL). */
  mediaInfoPath(mediaId: string): string;
  /** The URL the file is fetched from, given the one the lookup answered. */
  downloadUrl(url: string): string;
  /** A call that proves the credentials (the test button). */
  probePath: string;
}

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
