/**
 * One webhook delivery of the hub, as it came over HTTP. NotificaMe signs nothing (no client
 * seen checks a signature, INTEGRATIONS.md §2.4), so what proves a delivery comes from the
 * subscription we made is the connection's secret in the URL we gave the hub:
 * POST /api/hub/<connection token>/webhook/<secret>. It is compared in constant time, before
 * the body is read.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The largest delivery read: events carry file URLs, never the files. */
export const MAX_DELIVERY_BYTES = 1024 * 1024;

export class DeliveryError extends Error {
  constructor(
    readonly code: "ERR_PAYLOAD_TOO_LARGE" | "ERR_HUB_PAYLOAD_INVALID",
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "DeliveryError";
  }
}

/** Constant-time comparison of the secret in a webhook's path with the connection's. */
export function secretMatches(given: string | undefined, expected: string): boolean {
  if (typeof given !== "string" || !expected) return false;
  // Digests first: both sides one length, so neither the length nor a prefix leaks.
  const a = createHmac("sha256", "openatende:hub:webhook").update(given).digest();
  const b = createHmac("sha256", "openatende:hub:webhook").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Reads a request body stream into one buffer, refusing more than `max` bytes (the rest is drained). */
export async function readBody(stream: AsyncIterable<unknown> | null | undefined, max = MAX_DELIVERY_BYTES): Promise<Buffer> {
  if (!stream) return Buffer.alloc(0);
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
    total += buf.length;
    if (total <= max) parts.push(buf);
  }
  if (total > max) throw new DeliveryError("ERR_PAYLOAD_TOO_LARGE", 413, `The delivery is larger than ${max} bytes`);
  return Buffer.concat(parts);
}

/** The delivery's JSON (the hub posts application/json). */
export function parseBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new DeliveryError("ERR_HUB_PAYLOAD_INVALID", 400, "the body is not valid JSON");
  }
}

/** Drains a request body nobody will read. */
export async function drain(stream: AsyncIterable<unknown> | null | undefined): Promise<void> {
  if (!stream) return;
  for await (const _chunk of stream) {
    /* discarded */
  }
}
