/**
 * The events the core delivers to plugins (a plugin's `platformEvents` handlers), with their
 * `data`, and the envelope each comes in. Part of the core API's contract (contract.ts).
 *
 * How to extend: add events and optional fields; never change what an event means.
 */
import type { PlatformMessage, PlatformTicket, PlatformTicketStatus } from "./contract";

/** Events the core delivers to plugins, with their `data`. */
export type PlatformClosedVia = "agent" | "mass" | "automatic" | "plugin";

export interface PlatformEvents {
  "ticket.created": { ticket: PlatformTicket };
  "ticket.statusChanged": { ticket: PlatformTicket; from: PlatformTicketStatus };
  "ticket.transferred": { ticket: PlatformTicket; from: { userId: number | null; queueId: number | null } };
  /** `via`: who closed it — an agent (PUT /tickets/:id), an admin's mass resolve, the automation (inactivity, smart close, a removed connection), or a plugin. */
  "ticket.closed": { ticket: PlatformTicket; via: PlatformClosedVia };
  "ticket.deleted": { ticketId: number };
  "message.received": { message: PlatformMessage };
  "message.sent": { message: PlatformMessage };
  "message.acked": { message: PlatformMessage };
  "contact.changed": { contactId: number; change: "created" | "updated" | "deleted" | "merged"; removedIds?: number[] };
  "tags.changed": { tagId: number };
  "user.changed": { userId: number; change: "created" | "updated" | "deleted" };
}

export type PlatformEventName = keyof PlatformEvents;
export const PLATFORM_EVENT_NAMES: PlatformEventName[] = [
  "ticket.created",
  "ticket.statusChanged",
  "ticket.transferred",
  "ticket.closed",
  "ticket.deleted",
  "message.received",
  "message.sent",
  "message.acked",
  "contact.changed",
  "tags.changed",
  "user.changed",
];

/** What a plugin's `platformEvent` action receives: one event for one tenant. */
export interface PlatformEventEnvelope<E extends PlatformEventName = PlatformEventName> {
  /** Unique per event: a handler seeing it twice (a retried delivery) can skip it. */
  id: string;
  event: E;
  tenantId: number;
  /** Epoch ms when the core saw the change. */
  at: number;
  data: PlatformEvents[E];
}

/** The action of a plugin's service the core delivers events to (made by definePlugin from `platformEvents`). */
export const PLATFORM_EVENT_ACTION = "platformEvent";

/** A realtime event name a plugin pushes, as the shell's sockets hear it. */
export function pluginRealtimeEvent(pluginId: string, event: string): string {
  return `plugin:${pluginId}:${event}`;
}
