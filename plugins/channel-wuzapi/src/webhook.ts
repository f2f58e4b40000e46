/**
 * One webhook delivery of wuzapi, as it came over HTTP: the exact bytes, checked against the
 * `x-hmac-signature` header (hex HMAC-SHA256 with the connection's key), then read.
 *
 * wuzapi (helpers.go, callHookWithHmac) signs what it sends:
 * - WEBHOOK_FORMAT=json: a JSON body (the event, plus userID and instanceName); the signature
 *   covers that body.
 * - the default, form: `application/x-www-form-urlencoded` fields `jsonData` (the event as a
 *   JSON string), `userID`, `instanceName` (older versions: `token`); the signature covers
 *   the URL-encoded form string, which is the body.
 * Either way the signature covers the raw body, so it is checked on the bytes before anything
 * is parsed: nothing of an unsigned or tampered delivery is read.
 */
import { hmacSignatureOf, hmacSignatureValid, readWebhookBody, WebhookBodyTooLarge } from "@openatende/plugin-sdk";

export const SIGNATURE_HEADER = "x-hmac-signature";
/** The largest delivery read: a 30 MB file as base64 plus its event. */
export const MAX_DELIVERY_BYTES = 48 * 1024 * 1024;

export interface WuzapiEvent {
  type: string;
  event?: unknown;
  base64?: string;
  mimeType?: string;
  fileName?: string;
  state?: string;
  qrCodeBase64?: string;
  s3?: { url?: string; mimeType?: string; fileName?: string } & Record<string, unknown>;
  isSticker?: boolean;
  [k: string]: unknown;
}

export class DeliveryError extends Error {
  constructor(
    readonly code: "ERR_PAYLOAD_TOO_LARGE" | "ERR_INVALID_JSON" | "ERR_UNSUPPORTED_MEDIA_TYPE" | "ERR_VALIDATION",
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "DeliveryError";
  }
}

/** Reads a request body stream (Buffers, or strings) into one buffer, refusing more than `max` bytes (the SDK's reader). */
export async function readBody(stream: AsyncIterable<unknown> | null | undefined, max = MAX_DELIVERY_BYTES): Promise<Buffer> {
  return readWebhookBody(stream, max).catch((err: unknown) => {
    throw err instanceof WebhookBodyTooLarge ? new DeliveryError("ERR_PAYLOAD_TOO_LARGE", 413, err.message) : err;
  });
}

/** wuzapi's signature: the bare hex HMAC-SHA256 of the body with the connection's key. */
export const signatureOf = (body: Buffer, key: string): string => hmacSignatureOf(body, key, { prefix: "" });

/** Constant-time check of the header (bare hex, or with a `sha256=` prefix; any case) against the body's signature. */
export function signatureValid(body: Buffer, key: string, header: string | undefined): boolean {
  if (typeof header !== "string") return false;
  return hmacSignatureValid(body, key, header.trim().toLowerCase().replace(/^sha256=/, ""), { prefix: "" });
}

/** The event of a verified delivery, JSON or form-encoded as its content type says. */
export function parseDelivery(body: Buffer, contentType: string | undefined): { event: WuzapiEvent; format: "json" | "form" } {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  let raw: string;
  let format: "json" | "form";
  if (type === "application/x-www-form-urlencoded") {
    const jsonData = new URLSearchParams(body.toString("utf8")).get("jsonData");
    if (jsonData === null) throw new DeliveryError("ERR_VALIDATION", 400, "The form delivery has no jsonData field");
    raw = jsonData;
    format = "form";
  } else if (type === "application/json" || type === "" || type.endsWith("+json")) {
    raw = body.toString("utf8");
    format = "json";
  } else {
    // Multipart is what wuzapi sends with a file path attached, which the user webhook never carries (media come as base64).
    throw new DeliveryError("ERR_UNSUPPORTED_MEDIA_TYPE", 415, `Deliveries of type ${type} are not read: set WEBHOOK_FORMAT to json or leave it as form`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new DeliveryError("ERR_INVALID_JSON", 400, "The delivery is not valid JSON");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed) || typeof (parsed as { type?: unknown }).type !== "string") {
    throw new DeliveryError("ERR_VALIDATION", 400, "The delivery has no event type");
  }
  return { event: parsed as WuzapiEvent, format };
}
