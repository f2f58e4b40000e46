/**
 * The plugin's answers for what goes wrong, as codes of its manifest (platform.errors, texts in
 * four languages) or of the core's catalogue. Provider failures arrive as ProviderErrors and
 * leave as one of these; the provider's own words ride in `data` with the secrets taken out.
 */
import { Errors } from "moleculer";
import { PluginError } from "@openatende/plugin-sdk";
import { ProviderError } from "./providers";
import { SendUnconfirmedError } from "./store";

export const CODES = {
  tokenRefused: "ERR_SMS_TOKEN_REFUSED",
  noCredits: "ERR_SMS_NO_CREDITS",
  providerUnavailable: "ERR_SMS_PROVIDER_UNAVAILABLE",
  providerRefused: "ERR_SMS_PROVIDER_REFUSED",
  sendUnconfirmed: "ERR_SMS_SEND_UNCONFIRMED",
  numberInvalid: "ERR_SMS_NUMBER_INVALID",
} as const;

export const tokenRefused = (data: Record<string, unknown> = {}) => new PluginError(CODES.tokenRefused, 400, { field: "token", ...data });
export const noCredits = (balance: number, needed: number) => new PluginError(CODES.noCredits, 402, { balance, needed });
export const numberInvalid = (number: string) => new PluginError(CODES.numberInvalid, 400, { field: "to.externalId", number });

/** A connection the plugin is not running: the core's outbox keeps its messages until it is. */
export const notConnected = (connectionId: number, why: string) =>
  new Errors.MoleculerClientError(`The SMS connection is not connected: ${why}`, 409, "ERR_SESSION_NOT_INITIALIZED", { connectionId });

export const connectionNotFound = (field = "token") => new Errors.MoleculerClientError("Connection not found", 404, "ERR_CONNECTION_NOT_FOUND", { field });

/** The error a provider failure becomes; `redact` takes the connection's secrets out of its words. */
export function providerFailure(err: unknown, redact: (s: string) => string, ctx: { balance?: number; needed?: number; number?: string } = {}): Error {
  if (err instanceof SendUnconfirmedError) return new PluginError(CODES.sendUnconfirmed, 409, {});
  if ((err as { unreachable?: boolean })?.unreachable) return new Errors.MoleculerRetryableError("The plugin's sent log is unavailable", 503, "ERR_SERVICE_UNAVAILABLE");
  if (!(err instanceof ProviderError)) return err as Error;
  const reason = redact(err.message).slice(0, 200);
  switch (err.kind) {
    case "unauthorized":
      return tokenRefused({ reason });
    case "no-credits":
      return noCredits(ctx.balance ?? 0, ctx.needed ?? 1);
    case "invalid-number":
      return new PluginError(CODES.numberInvalid, 400, { field: "to.externalId", number: ctx.number ?? "", reason });
    case "refused":
      return new PluginError(CODES.providerRefused, 422, { reason });
    case "unreachable":
      return new PluginError(CODES.providerUnavailable, 503, { reason });
    case "uncertain":
      return new PluginError(CODES.sendUnconfirmed, 409, { reason });
  }
}

/** A failure after which nothing was sent: the sent log lets the message go again later. */
export function certainlyUnsent(err: unknown): boolean {
  return err instanceof ProviderError ? err.kind !== "uncertain" : !(err instanceof SendUnconfirmedError);
}
