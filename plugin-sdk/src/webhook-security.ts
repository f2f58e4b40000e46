/**
 * What every webhook-receiving plugin needs before it trusts a delivery, written once:
 *
 * - `readWebhookBody` reads the request stream into one buffer with a ceiling (the rest is
 *   drained, not kept), so a signature is checked over the exact bytes received — re-serialised
 *   JSON would not match (Meta, for one, escapes unicode as \uXXXX);
 * - `hmacSignatureValid` checks a provider's HMAC header (`sha256=<hex>` by default, Meta's
 *   X-Hub-Signature-256; 360dialog's partner signature is the bare hex) in constant time;
 * - `sameSecret` compares a secret given in a path or header with the stored one in constant
 *   time, lengths included (both sides are digested first, so neither length nor prefix leaks).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** A delivery larger than the reader's ceiling (answer 413, keep nothing). */
export class WebhookBodyTooLarge extends Error {
  readonly code = "ERR_PAYLOAD_TOO_LARGE";
  readonly status = 413;
  constructor(readonly max: number) {
    super(`The delivery is larger than ${max} bytes`);
    this.name = "WebhookBodyTooLarge";
  }
}

/** Reads a request body stream into one buffer, refusing more than `max` bytes. */
export async function readWebhookBody(stream: AsyncIterable<unknown> | null | undefined, max: number): Promise<Buffer> {
  if (!stream) return Buffer.alloc(0);
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
    total += buf.length;
    if (total <= max) parts.push(buf);
  }
  if (total > max) throw new WebhookBodyTooLarge(max);
  return Buffer.concat(parts);
}

export interface HmacSignatureOptions {
  /** What precedes the hex digest in the header: "sha256=" (Meta, the default) or "" (bare hex). */
  prefix?: string;
  /** The HMAC's hash: "sha256" (the default) or "sha1". */
  algorithm?: "sha256" | "sha1";
}

/** The header value a provider would send for `body` signed with `secret` (for tests and fakes). */
export function hmacSignatureOf(body: Buffer | string, secret: string, options: HmacSignatureOptions = {}): string {
  const { prefix = "sha256=", algorithm = "sha256" } = options;
  return `${prefix}${createHmac(algorithm, secret).update(body).digest("hex")}`;
}

/** Constant-time check of a provider's HMAC signature header over the raw body. */
export function hmacSignatureValid(body: Buffer, secret: string, header: string | undefined | null, options: HmacSignatureOptions = {}): boolean {
  if (typeof header !== "string" || !secret) return false;
  const { prefix = "sha256=", algorithm = "sha256" } = options;
  const value = header.trim();
  if (!value.startsWith(prefix)) return false;
  const hex = value.slice(prefix.length);
  const length = algorithm === "sha1" ? 40 : 64;
  if (hex.length !== length || !/^[0-9a-fA-F]+$/.test(hex)) return false;
  const expected = createHmac(algorithm, secret).update(body).digest();
  return timingSafeEqual(Buffer.from(hex, "hex"), expected);
}

/** Constant-time equality of a given secret and the stored one (unequal lengths are unequal). */
export function sameSecret(given: string | undefined | null, expected: string | undefined | null): boolean {
  if (typeof given !== "string" || typeof expected !== "string" || !expected) return false;
  const a = createHmac("sha256", "openatende:webhook-secret").update(given).digest();
  const b = createHmac("sha256", "openatende:webhook-secret").update(expected).digest();
  return timingSafeEqual(a, b);
}
