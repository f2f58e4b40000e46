/**
 * The Cloud API's webhook as it comes over HTTP (the body read and its HMAC checked with the
 * SDK's webhook-security):
 *
 * - the verification handshake (GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…):
 *   the challenge answered as is when the token is the connection's, refused otherwise;
 * - every POST signed: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(raw body, app secret)>`,
 *   checked on the exact bytes before anything is parsed (re-serialised JSON would not match:
 *   Meta escapes unicode as \uXXXX), in constant time;
 * - the envelope `{object:"whatsapp_business_account", entry:[{id, changes:[{field, value}]}]}`
 *   flattened into its changes (a POST may carry several entries, each several changes).
 */
import { sameSecret } from "@openatende/plugin-sdk";

/** Meta's signature header (`sha256=<hex>`; the SDK's hmacSignatureValid checks it). */
export const SIGNATURE_HEADER = "x-hub-signature-256";
/** The deliveries are small JSON (media come by id): anything larger is not the provider's. */
export const MAX_DELIVERY_BYTES = 3 * 1024 * 1024;

/** A body that is not the Cloud API's envelope (deliveries.ts answers it with the plugin's PAYLOAD_INVALID code). */
export class DeliveryError extends Error {
  readonly code = "PAYLOAD_INVALID";
  readonly status = 400;
  constructor(message: string) {
    super(message);
    this.name = "DeliveryError";
  }
}

/** The handshake's answer: the challenge to echo, or null when it must be refused. */
export function verificationAnswer(query: Record<string, unknown>, verifyToken: string): string | null {
  const get = (k: string) => {
    const flat = query[`hub.${k}`];
    const nested = (query.hub as Record<string, unknown> | undefined)?.[k];
    const v = flat ?? nested;
    return typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
  };
  const token = get("verify_token");
  const challenge = get("challenge");
  if (get("mode") !== "subscribe" || token === undefined || challenge === undefined) return null;
  return sameSecret(token, verifyToken) ? challenge : null;
}

export interface WebhookChange {
  /** The entry's id: the WhatsApp Business Account. */
  wabaId: string;
  field: string;
  value: Record<string, unknown>;
}

/** The changes of a verified delivery; throws DeliveryError for a body that is not Meta's envelope. */
export function parseEnvelope(body: Buffer): WebhookChange[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    throw new DeliveryError("The delivery is not valid JSON");
  }
  const env = parsed as { object?: unknown; entry?: unknown };
  if (!env || typeof env !== "object" || env.object !== "whatsapp_business_account" || !Array.isArray(env.entry)) {
    throw new DeliveryError('The delivery is not a "whatsapp_business_account" envelope');
  }
  const out: WebhookChange[] = [];
  for (const entry of env.entry as Array<{ id?: unknown; changes?: unknown }>) {
    if (!entry || !Array.isArray(entry.changes)) continue;
    for (const change of entry.changes as Array<{ field?: unknown; value?: unknown }>) {
      if (!change || typeof change.field !== "string" || !change.value || typeof change.value !== "object") continue;
      out.push({ wabaId: String(entry.id ?? ""), field: change.field, value: change.value as Record<string, unknown> });
    }
  }
  return out;
}

/** The phone-number id a "messages" change is for (its metadata), or null. */
export function phoneNumberIdOf(change: WebhookChange): string | null {
  const meta = change.value.metadata as { phone_number_id?: unknown } | undefined;
  const id = meta?.phone_number_id;
  return typeof id === "string" || typeof id === "number" ? String(id) : null;
}
