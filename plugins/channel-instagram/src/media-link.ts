/**
 * Public links Meta fetches our files from. The Send API takes a file by URL only, and the
 * core's own file route needs a signed-in user; so a file stored in the core is offered at
 *
 *   GET /api/instagram/<connection token>/media/<expires>/<signature>?p=<path, base64url>
 *
 * signed with the connection's app secret (HMAC-SHA256 over connection, path and expiry) and
 * checked with the SDK's constant-time comparison, for one day (Meta fetches within seconds;
 * a leaked link dies). The path is read through the SDK's readMedia, which keeps it inside the
 * connection's tenant folder.
 */
import { createHmac } from "node:crypto";
import { sameSecret } from "@openatende/plugin-sdk";

export const MEDIA_LINK_TTL_MS = 24 * 3600_000;

export interface MediaLinkParts {
  expires: number;
  signature: string;
  /** base64url of the stored path */
  p: string;
}

function signatureOf(secret: string, connectionId: number, path: string, expires: number): string {
  return createHmac("sha256", secret).update(`openatende:instagram:media:${connectionId}:${expires}:${path}`).digest("base64url");
}

export function mediaLink(opts: { publicUrl: string; token: string; secret: string; connectionId: number; path: string; now?: number }): string {
  const expires = (opts.now ?? Date.now()) + MEDIA_LINK_TTL_MS;
  const sig = signatureOf(opts.secret, opts.connectionId, opts.path, expires);
  const p = Buffer.from(opts.path, "utf8").toString("base64url");
  return `${opts.publicUrl.replace(/\/+$/, "")}/api/instagram/${encodeURIComponent(opts.token)}/media/${expires}/${sig}?p=${p}`;
}

/** The stored path a link names, or null when its signature is wrong or it expired. */
export function checkMediaLink(parts: MediaLinkParts, secret: string, connectionId: number, now = Date.now()): string | null {
  if (!Number.isFinite(parts.expires) || parts.expires < now) return null;
  const path = Buffer.from(parts.p, "base64url").toString("utf8");
  if (!path) return null;
  return sameSecret(parts.signature, signatureOf(secret, connectionId, path, parts.expires)) ? path : null;
}
