/**
 * What other services need of the outbox: its actions, what a row hands over, and which
 * failures of a send mean "the plugin is away, try again when it is back" rather than "the
 * channel refused it".
 */
import type { OutboundMessage } from "@openatende/plugin-sdk";

/** What is handed to the plugin's `send` besides the connection and the message id. */
export interface OutboxPayload {
  to: { externalId: string };
  message: OutboundMessage;
}

/**
 * What a row hands over: the message itself ("send"), or a change of a message already sent
 * (its payload's message is an edit, reaction or delete naming the provider's id).
 */
export type OutboxOp = "send" | "edit" | "reaction" | "delete";
export const OUTBOX_OPS: readonly OutboxOp[] = ["send", "edit", "reaction", "delete"];

/**
 * Moleculer's answers when nobody took the call or its node went away while it was running:
 * the plugin may or may not have sent the message, so it waits and goes again with the same
 * message id (the plugin's idempotency key).
 */
const AWAY = new Set(["SERVICE_NOT_FOUND", "SERVICE_NOT_AVAILABLE", "REQUEST_REJECTED", "REQUEST_TIMEOUT", "REQUEST_SKIPPED", "BAD_GATEWAY"]);

/**
 * A channel's own answer that its connection is not connected (a linked-device session that
 * dropped and is coming back, a bot being set up again): like an away plugin, the message
 * waits and goes out once the connection reports `connected` (nothing lost, nothing twice);
 * an agent can still delete it while it waits.
 */
const NOT_CONNECTED = "ERR_SESSION_NOT_INITIALIZED";

/** True when a send failed because its plugin is away (not running, its node lost) or its connection is not connected, not refused. */
export function isPluginAway(err: unknown): boolean {
  const e = err as { type?: string; data?: { id?: unknown } } | null;
  if (!e?.type) return false;
  if (e.type === NOT_CONNECTED) return true;
  // plugins.channelFor: a loaded plugin whose service is on no node (a refused plugin has no id there).
  if (e.type === "ERR_PLUGIN_UNAVAILABLE") return !!e.data?.id;
  return AWAY.has(e.type);
}

/** A short reason for logs and the outbox row. */
export function reasonOf(err: unknown): string {
  const e = err as { type?: string; message?: string } | null;
  return String(e?.type ?? e?.message ?? err).slice(0, 255);
}


/**
 * Broadcast by `outbox.enqueue` to every node's outbox service: the connection has a message
 * waiting, so a node that knew it empty (the `waits` cache) asks the table again.
 */
export const OUTBOX_ENQUEUED = "outbox.enqueued";
export interface OutboxEvents {
  [OUTBOX_ENQUEUED]: { connectionId: number };
}

/** Actions of the outbox service (outbox.service.ts) other services call. */
export interface OutboxActions {
  /** Whether a new message of the connection (with messageId: a change of that message) must wait behind the outbox. */
  "outbox.waits": { params: { connectionId: number; messageId?: number }; result: boolean };
  "outbox.enqueue": {
    params: { tenantId: number; connectionId: number; ticketId: number; messageId: number; op?: OutboxOp; payload: OutboxPayload; reason?: string };
    result: { waiting: true };
  };
  /** `waiting: null`: the connection's lock stayed busy. */
  "outbox.revise": { params: { connectionId: number; messageId: number; body?: string; drop?: boolean }; result: { waiting: boolean | null; dropped?: boolean } };
  "outbox.list": {
    params: { connectionId?: number };
    result: Array<{ messageId: number; op: OutboxOp; ticketId: number; connectionId: number; attempts: number; lastError: string | null }>;
  };
  "outbox.flush": { params: { connectionId: number }; result: { sent: number } };
}
