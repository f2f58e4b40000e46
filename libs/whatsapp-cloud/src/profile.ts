/**
 * A provider profile: where the Cloud API's calls go and how they are authorised. Meta's own
 * Graph API is one profile; a BSP that fronts the same API (360dialog: another host, a
 * `D360-API-KEY` header, no phone-number id in the paths, media re-hosted) is another, built
 * on the same transport (graph.ts) and the same payloads (outbound.ts). Nothing else in the
 * plugin names a host or a header.
 *
 * How to extend: the provider's `profile(settings)` (provider.ts) answers one.
 */

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
