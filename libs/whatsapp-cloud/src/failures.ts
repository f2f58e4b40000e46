/**
 * What Meta's errors mean for a message and for the connection, in one place: the error a
 * refused send throws (its type is what the core records as the message's failReason, a code
 * of the manifest's catalogue the shell translates), and the reason a `failed` status webhook
 * puts on the message (Meta's code and title, or the catalogue code when one says it better).
 */
import { Errors } from "moleculer";
import { PluginError } from "@openatende/plugin-sdk";
import { GraphError } from "./graph";
import { codeOf, WABA_CODES } from "./provider";

/** Free-form message outside the 24-hour window (470: the On-Premise API's code for it). */
export const TEMPLATE_REQUIRED_CODES = new Set([131047, 470]);
/** The access token is expired, revoked or not this app's: only new credentials help. */
export const CREDENTIAL_CODES = new Set([190]);
const RECIPIENT_CODES = new Set([131026, 131030, 131021, 131045]);
const MEDIA_CODES = new Set([131052, 131053]);

/** What `status` and the outbox read: the connection is unusable until it is given new credentials (`<prefix>_CREDENTIALS_REQUIRED`). */
export const credentialsDetail = (prefix: string): string => codeOf(prefix, "CREDENTIALS_REQUIRED");

export function needsCredentials(err: unknown): boolean {
  return err instanceof GraphError && (CREDENTIAL_CODES.has(err.code) || (err.httpStatus === 401 && !err.code));
}

/**
 * The error a refused send throws. Never retried by the core: each is final for that message
 * (the throttled ones were already retried with back-off in graph.ts).
 */
export function sendError(err: unknown, prefix: string): Error {
  const code = (name: Parameters<typeof codeOf>[1]) => codeOf(prefix, name);
  if (!(err instanceof GraphError)) return err as Error;
  const data = { code: err.code || err.httpStatus, title: err.title, ...(err.extra.details ? { details: err.extra.details } : {}), ...(err.extra.fbtraceId ? { fbtraceId: err.extra.fbtraceId } : {}) };
  if (TEMPLATE_REQUIRED_CODES.has(err.code)) return new PluginError(code("TEMPLATE_REQUIRED"), 422, data);
  if (err.throttled) return new PluginError(code("RATE_LIMITED"), 429, data);
  if (err.unreachable) return new PluginError(code("UNREACHABLE"), 503, data);
  if (RECIPIENT_CODES.has(err.code)) return new PluginError(code("RECIPIENT_UNAVAILABLE"), 422, data);
  if (MEDIA_CODES.has(err.code) || err.httpStatus === 413) return new PluginError(code("MEDIA_FAILED"), 422, { ...data, reason: err.title });
  return new PluginError(code("SEND_REFUSED"), 422, data);
}

/** The channel's answer while the connection waits for new credentials: the core keeps the message until it is connected again. */
export function notConnected(connectionId: number, why: string): Error {
  return new Errors.MoleculerClientError(`The WhatsApp connection is not usable: ${why}`, 409, "ERR_SESSION_NOT_INITIALIZED", { connectionId });
}

/** A `failed` status's errors[0] as the message's failReason. */
export function failureReason(errors: unknown, prefix: string = WABA_CODES): string {
  const first = Array.isArray(errors) ? (errors[0] as { code?: unknown; title?: unknown; message?: unknown } | undefined) : undefined;
  const code = Number(first?.code) || 0;
  if (TEMPLATE_REQUIRED_CODES.has(code)) return codeOf(prefix, "TEMPLATE_REQUIRED");
  const title = typeof first?.title === "string" ? first.title : typeof first?.message === "string" ? first.message : "";
  const text = [code ? String(code) : "", title].filter(Boolean).join(" ");
  return (text || "failed").slice(0, 255);
}
