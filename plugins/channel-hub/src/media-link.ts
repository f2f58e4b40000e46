/**
 * Links the hub fetches our files from. The hub takes a file by URL only (`fileUrl`), and the
 * core's own file route needs a signed-in user; so a file stored in the core is offered at
 *
 *   GET /api/hub/<connection token>/media/<expires>/<signature>?p=<path, base64url>
 *
 * signed with the connection's webhook secret (HMAC-SHA256 over connection, path and expiry),
 * checked in constant time, for one day: long enough for the hub's retries, short enough that
 * a leaked link dies. The path is read through the SDK's readMedia, which keeps it inside the
 * connection's tenant folder.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const MEDIA_LINK_TTL_MS = 24 * 3600_000;

export interface MediaLinkParts {
  expires: number;
  signature: string;
  /** base64url of the stored path */
  p: string;
}

function signatureOf(secret: string, connectionId: number, path: string, expires: number): string {
  return createHmac("sha256", secret).update(`openatende:hub:media:${connectionId}:${expires}:${path}`).digest("base64url");
}

/** The public address of a stored file for the hub (under publicUrl, the product's external base URL). */
export function mediaLink(opts: { publicUrl: string; token: string; secret: string; connectionId: number; path: string; now?: number }): string {
  const expires = (opts.now ?? Date.now()) + MEDIA_LINK_TTL_MS;
  const sig = signatureOf(opts.secret, opts.connectionId, opts.path, expires);
  const p = Buffer.from(opts.path, "utf8").toString("base64url");
  return `${opts.publicUrl.replace(/\/+$/, "")}/api/hub/${encodeURIComponent(opts.token)}/media/${expires}/${sig}?p=${p}`;
}

/** The stored path a link names, or null when its signature is wrong or it expired. */
export function checkMediaLink(parts: MediaLinkParts, secret: string, connectionId: number, now = Date.now()): string | null {
  if (!Number.isFinite(parts.expires) || parts.expires < now) return null;
  let path: string;
  try {
    path = Buffer.from(parts.p, "base64url").toString("utf8");
  } catch {
    return null;
  }
  if (!path) return null;
  const want = Buffer.from(signatureOf(secret, connectionId, path, parts.expires));
  const got = Buffer.from(parts.signature);
  return got.length === want.length && timingSafeEqual(got, want) ? path : null;
}
