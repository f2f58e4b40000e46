/**
 * The provider's callbacks over HTTP. Comtele (and Zenvia, and NotificaMe) sign nothing, so
 * each connection's callback address carries a secret of its own after the connection's token:
 *
 *   POST <public URL>/api/sms/<connection token>/<webhook secret>/status    delivery reports
 *   POST <public URL>/api/sms/<connection token>/<webhook secret>/inbound   customers' messages
 *
 * The token finds the connection (channels.resolveToken); the secret, compared in constant time
 * by the provider (verifyWebhook), proves the caller was given the address. The body is read
 * raw (a stream route) so a provider that signs its bytes can be checked on them.
 */
import { readWebhookBody } from "@openatende/plugin-sdk";

export const WEBHOOK_EVENTS = ["status", "inbound"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A callback carries a few reports or one message: 1 MB is far more than any. */
export const MAX_DELIVERY_BYTES = 1024 * 1024;

/** Headers the webhook route reads (the gateway hands an action only those it declares). */
export const WEBHOOK_HEADERS = ["content-type", "x-twilio-signature"];

/** Per public address and per connection, in a 60 s window (the core's counters, shared by every node). */
export const WEBHOOK_LIMITS = { perAddress: 600, perConnection: 1200, windowSeconds: 60 };

/** A delivery larger than the reader's ceiling: the SDK's (answered 413, nothing kept). */
export { WebhookBodyTooLarge as DeliveryTooLarge } from "@openatende/plugin-sdk";

/** Reads a request body stream into one buffer, refusing (and draining) more than `max` bytes. */
export const readBody = (stream: AsyncIterable<unknown> | null | undefined, max = MAX_DELIVERY_BYTES): Promise<Buffer> => readWebhookBody(stream, max);

/** The connection's callback addresses, to paste in the provider's panel. */
export function webhookUrls(publicUrl: string, connectionToken: string, secret: string): Record<WebhookEvent, string> {
  const base = `${publicUrl.replace(/\/+$/, "")}/api/sms/${encodeURIComponent(connectionToken)}/${encodeURIComponent(secret)}`;
  return { status: `${base}/status`, inbound: `${base}/inbound` };
}
