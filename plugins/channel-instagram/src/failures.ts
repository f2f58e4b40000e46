/**
 * What Meta's errors mean for a send and for the connection, in one place: the error a refused
 * send throws (its type is what the core records as the message's failReason, a code of the
 * manifest's catalogue the shell translates).
 */
import { Errors } from "moleculer";
import { PluginError } from "@openatende/plugin-sdk";
import { GraphError } from "./graph";

/** What `status` and the connection show while Meta refuses the token: only new credentials help. */
export const CREDENTIALS_DETAIL = "ERR_INSTAGRAM_CREDENTIALS_REQUIRED";

/** Meta's "outside of the allowed window" (code 10, subcode 2534022). */
export const OUTSIDE_WINDOW_SUBCODE = 2534022;

export function needsCredentials(err: unknown): boolean {
  return err instanceof GraphError && err.credentials;
}

/** Whether a failed call may have reached Meta all the same (no answer after the request went out). */
export function uncertain(err: unknown): boolean {
  return err instanceof GraphError && err.unreachable && !/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|not allowed/i.test(err.message);
}

/** The error a refused send throws: final for that message (throttled calls were retried with back-off in graph.ts). */
export function sendError(err: unknown, tagged: boolean): Error {
  if (!(err instanceof GraphError)) return err as Error;
  const data = { code: err.code || err.httpStatus, title: err.title, ...(err.subcode ? { subcode: err.subcode } : {}) };
  if (err.subcode === OUTSIDE_WINDOW_SUBCODE) return new PluginError(tagged ? "ERR_INSTAGRAM_HUMAN_AGENT_EXPIRED" : "ERR_INSTAGRAM_WINDOW_CLOSED", 422, data);
  if (err.throttled) return new PluginError("ERR_INSTAGRAM_RATE_LIMITED", 429, data);
  if (err.unreachable || err.httpStatus >= 500) return new PluginError("ERR_INSTAGRAM_UNREACHABLE", 503, data);
  return new PluginError("ERR_INSTAGRAM_SEND_REFUSED", 422, data);
}

/** The channel's answer while the connection cannot send: the core keeps the message until it is connected again. */
export function notConnected(connectionId: number, why: string): Error {
  return new Errors.MoleculerClientError(`The Instagram connection is not usable: ${why}`, 409, "ERR_SESSION_NOT_INITIALIZED", { connectionId });
}
