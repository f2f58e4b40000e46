/**
 * One webhook delivery of the hub, as it came over HTTP. NotificaMe signs nothing (no client
 * seen checks a signature, INTEGRATIONS.md §2.4), so what proves a delivery comes from the
 * subscription we made is the connection's secret in the URL we gave the hub:
 * POST /api/hub/<connection token>/webhook/<secret>. It is compared in constant time, before
 * the body is read.
 */
import { readWebhookBody, sameSecret, WebhookBodyTooLarge } from "@openatende/plugin-sdk";

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

/** Constant-time comparison of the secret in a webhook's path with the connection's (the SDK's). */
export const secretMatches = (given: string | undefined, expected: string): boolean => sameSecret(given, expected);

/** Reads a request body stream into one buffer, refusing more than `max` bytes (the SDK's reader). */
export async function readBody(stream: AsyncIterable<unknown> | null | undefined, max = MAX_DELIVERY_BYTES): Promise<Buffer> {
  return readWebhookBody(stream, max).catch((err: unknown) => {
    throw err instanceof WebhookBodyTooLarge ? new DeliveryError("ERR_PAYLOAD_TOO_LARGE", 413, err.message) : err;
  });
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
