/**
 * A provider's customer-service window (WhatsApp Cloud API, Instagram: 24 hours): free text
 * reaches the contact only within `hours` of their last message on the connection, after it
 * only an approved template does. The channel plugin declares the hours in its manifest
 * (`platform.channel.serviceWindowHours`); linked-device channels, e-mail and web chat declare
 * none and have no window.
 *
 * The window is the contact's and the connection's, not the ticket's: a customer who wrote in
 * a ticket closed an hour ago may still be answered in a new one. So the last inbound message
 * is looked for in every ticket of that contact on that connection active within the window
 * (their last activity inside it), by the channel's own timestamps.
 */
import { Op } from "sequelize";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import type { ServiceWindowView } from "@openatende/contracts/realtime";
import type { Ticket } from "./model";

export type ServiceWindow = ServiceWindowView;

const HOUR_MS = 3_600_000;
/** Tickets of one contact and connection looked at (the newest first). */
const TICKETS_LOOKED_AT = 20;

/** The ticket's window, or null when its channel has none (or it has no connection). */
export async function serviceWindowOf(ctx: Ctx, tickets: typeof Ticket, t: { tenantId: number; contactId: number; connectionId: number | null }, now: number): Promise<ServiceWindow | null> {
  if (!t.connectionId) return null;
  const connection = await call(ctx, "connections.getInternal", { id: t.connectionId });
  if (!connection || connection.tenantId !== t.tenantId) return null;
  const channel = await call(ctx, "plugins.channelFor", { type: connection.type }).catch(() => null);
  const hours = channel?.serviceWindowHours;
  if (!hours) return null;
  const since = now - hours * HOUR_MS;
  const rows = await tickets.findAll({
    where: { tenantId: t.tenantId, contactId: t.contactId, connectionId: t.connectionId, lastMessageAt: { [Op.gte]: since } },
    attributes: ["id"],
    order: [["lastMessageAt", "DESC"]],
    limit: TICKETS_LOOKED_AT,
  });
  const lastInboundAt = await call(ctx, "messages.lastInbound", { tenantId: t.tenantId, ticketIds: rows.map((r) => Number(r.get("id"))), since });
  const closesAt = lastInboundAt === null ? null : lastInboundAt + hours * HOUR_MS;
  return { hours, lastInboundAt, closesAt, open: closesAt !== null && closesAt > now };
}
