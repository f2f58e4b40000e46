/** The errors the session side throws to the core and to the connection form (catalogue codes). */
import { Errors } from "moleculer";
import type { ConnectionRef } from "@openatende/plugin-sdk";

/** Not connected (yet, or any more): the core's outbox keeps a send that met this and delivers it once the session is back. */
export function notConnected(ref: ConnectionRef, why = "the WhatsApp session is not connected"): Errors.MoleculerClientError {
  return new Errors.MoleculerClientError(why, 409, "ERR_SESSION_NOT_INITIALIZED", { connectionId: ref.connectionId });
}

/** A connection this plugin does not know in the caller's tenant (another tenant's id answers the same). */
export function connectionNotFound(data: Record<string, unknown> = {}): Errors.MoleculerClientError {
  return new Errors.MoleculerClientError("No WhatsApp connection with this token in your company", 404, "ERR_CONNECTION_NOT_FOUND", data);
}

/** A pairing code asked for a session that is already linked. */
export function alreadyLinked(ref: ConnectionRef): Errors.MoleculerClientError {
  return new Errors.MoleculerClientError("This WhatsApp connection is already linked to a phone", 409, "ERR_WHATSAPP_ALREADY_LINKED", { connectionId: ref.connectionId });
}

/** WhatsApp gave no pairing code in time (or refused to). */
export function pairingUnavailable(ref: ConnectionRef, why: string): Errors.MoleculerRetryableError {
  return new Errors.MoleculerRetryableError(`No pairing code: ${why}`, 503, "ERR_SERVICE_UNAVAILABLE", { connectionId: ref.connectionId });
}
