/**
 * What the channel needs of an SMS provider. One implementation per provider (comtele.ts
 * today); Zenvia or Twilio fill the same interface later (INTEGRATIONS.md §3.1, §3.2), and
 * nothing outside providers/ knows one provider from another.
 *
 * How to add one: implement SmsProvider in providers/<id>.ts, add its id to PROVIDER_IDS and
 * the manifest's `provider` enum, and return it from createProvider (index.ts). Failures are
 * ProviderErrors whose `kind` the channel turns into the plugin's codes:
 *
 * - unauthorized  the token was refused (→ ERR_SMS_TOKEN_REFUSED, "contact the reseller")
 * - no-credits    the account cannot pay for the message (→ ERR_SMS_NO_CREDITS)
 * - invalid-number the recipient is not a number the provider takes (→ ERR_SMS_NUMBER_INVALID)
 * - refused       any other refusal with the provider's words (→ ERR_SMS_PROVIDER_REFUSED)
 * - unreachable   no answer, and certainly nothing sent (→ ERR_SMS_PROVIDER_UNAVAILABLE)
 * - uncertain     the request left but no answer came: it may have been sent (never retried)
 */
export const PROVIDER_IDS = ["comtele"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export type ProviderErrorKind = "unauthorized" | "no-credits" | "invalid-number" | "refused" | "unreachable" | "uncertain";

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

export interface OutboundSms {
  /** Digits with the country code (E.164 without "+"). */
  to: string;
  text: string;
}

export interface SentSms {
  /** The provider's id of the message: what its delivery reports name. */
  providerMessageId: string;
  /** ms since the epoch. */
  timestamp: number;
}

export interface Balance {
  /** Messages the account can still pay for (one credit per SMS part). */
  credits: number;
}

/** A webhook delivery as it came over HTTP: which route, the exact bytes, the declared headers. */
export interface WebhookDelivery {
  /** "status": delivery reports; "inbound": messages the customers wrote. */
  event: "status" | "inbound";
  body: Buffer;
  headers: Record<string, string | undefined>;
  /** The secret of the route's path (the part after the connection's token). */
  pathSecret: string;
  /** The public URL the provider called (for providers that sign it, like Twilio). */
  url: string;
}

export interface DeliveryReport {
  providerMessageId: string;
  status: "sent" | "delivered" | "failed";
  reason?: string;
  /** ms since the epoch, when the provider says. */
  timestamp?: number;
}

export interface InboundSms {
  /** Stable across the provider's repeats of the same message (the core stores each id once). */
  providerMessageId: string;
  /** The customer's number, digits with the country code. */
  from: string;
  name?: string;
  text: string;
  /** ms since the epoch. */
  timestamp: number;
  /** The provider's id of our message this answers, when it says. */
  replyTo?: string;
}

export interface SmsProvider {
  readonly id: ProviderId;
  /** Sends one text message; throws ProviderError. */
  send(sms: OutboundSms): Promise<SentSms>;
  /** The account's balance; throws ProviderError ("unauthorized" for a bad token). */
  balance(): Promise<Balance>;
  /** Whether the delivery comes from the provider (a signature, or the connection's path secret), compared in constant time. */
  verifyWebhook(delivery: WebhookDelivery, secret: string): boolean;
  /** The delivery reports of a verified "status" delivery (empty when it carries none). */
  parseDeliveryReports(delivery: WebhookDelivery): DeliveryReport[];
  /** The customer messages of a verified "inbound" delivery. */
  parseInbound(delivery: WebhookDelivery): InboundSms[];
}

/** Thrown by the parsers for a delivery that cannot be read (HTTP 400, the provider's mistake). */
export class DeliveryFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DeliveryFormatError";
  }
}
