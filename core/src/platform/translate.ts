/**
 * The core's own events as the plugins' events (PlatformEvents): which change of a ticket is a
 * status change, a close or a transfer; which message is received, sent or acknowledged. Pure:
 * what to deliver, for which tenant, under which id (events.ts delivers).
 */
import { randomUUID } from "node:crypto";
import type { PlatformEventName, PlatformEvents } from "@openatende/plugin-sdk";
import type { TicketsEvents } from "../tickets/contract";
import type { MessagesEvents } from "../messages/contract";
import type { TagsEvents } from "../tags/contract";
import { messageOf, ticketOf } from "./views";

export type Outgoing = { [E in PlatformEventName]: { id: string; event: E; tenantId: number; at: number; data: PlatformEvents[E] } }[PlatformEventName];

function out<E extends PlatformEventName>(event: E, tenantId: number, at: number, data: PlatformEvents[E], id: string = randomUUID()): Outgoing {
  return { id, event, tenantId, at, data } as Outgoing;
}

export function translateTicket(p: TicketsEvents["tickets.changed"]): Outgoing[] {
  const { ticket: t, before, type } = p;
  const at = p.at ?? Date.now();
  if (type === "ticket:delete") return [out("ticket.deleted", t.tenantId, at, { ticketId: t.id })];
  const ticket = ticketOf(t, p.contact ? { ...p.contact, profilePicUrl: p.contact.profilePicUrl ?? null } : undefined);
  if (type === "ticket:create") return [out("ticket.created", t.tenantId, at, { ticket })];
  if (!before) return [];
  const list: Outgoing[] = [];
  if (before.status !== t.status) {
    list.push(out("ticket.statusChanged", t.tenantId, at, { ticket, from: before.status }));
    if (t.status === "closed") list.push(out("ticket.closed", t.tenantId, at, { ticket, via: t.closedVia ?? "agent" }));
  }
  // A transfer: another user or queue, or another connection (a connection's tickets moved,
  // tickets/cascades.ts; `from` keeps the user and queue, the ticket shows the connection). A
  // contact's change alone (contacts merged) is no ticket event: contact.changed "merged" with
  // removedIds tells it, and a projection re-points those contacts' tickets to the kept one.
  const moved = (k: "userId" | "queueId" | "connectionId") => (before[k] ?? null) !== (t[k] ?? null);
  if (moved("userId") || moved("queueId") || moved("connectionId")) {
    list.push(out("ticket.transferred", t.tenantId, at, { ticket, from: { userId: before.userId ?? null, queueId: before.queueId ?? null } }));
  }
  return list;
}

/**
 * A new message from the contact is received; a new one of the account (an agent's, a
 * plugin's, one written on the phone) is sent; a change of an outgoing one to a status it did
 * not have is an ack. The ack's id is the message and status, so the same ack reported twice
 * (a reaction or an edit re-announces the message) is one delivery (the queue's job id).
 */
export function translateMessage(p: MessagesEvents["messages.changed"]): Outgoing[] {
  const m = messageOf({ ...p.message, ticketId: p.ticketId });
  const at = p.at ?? Date.now();
  if (p.action === "create") return [out(m.fromMe ? "message.sent" : "message.received", p.tenantId, at, { message: m })];
  if (p.action === "update" && m.fromMe && m.status !== "pending") return [out("message.acked", p.tenantId, at, { message: m }, `message.acked:${p.tenantId}:${m.id}:${m.status}`)];
  return [];
}

export function translateContact(tenantId: number, contactId: number, change: PlatformEvents["contact.changed"]["change"], removedIds?: number[]): Outgoing[] {
  return [out("contact.changed", tenantId, Date.now(), { contactId, change, ...(removedIds ? { removedIds } : {}) })];
}

export function translateTag(p: TagsEvents["tags.changed"]): Outgoing[] {
  return [out("tags.changed", p.tenantId, Date.now(), { tagId: p.tagId })];
}

export function translateUser(tenantId: number, userId: number, change: PlatformEvents["user.changed"]["change"]): Outgoing[] {
  return [out("user.changed", tenantId, Date.now(), { userId, change })];
}
