/**
 * What the routes answer for a scheduled message: its row with dates as ISO strings and the
 * names of its contact and user (read through the core API; the connection's name the UI has
 * from the core's own connection list, which the core API does not offer).
 */
import type { CoreApi } from "@openatende/plugin-sdk";
import type { MessageRow } from "./store";

export interface ScheduledMessageView {
  id: number;
  body: string;
  status: MessageRow["status"];
  type: MessageRow["type"];
  recurrence: MessageRow["recurrence"];
  customDays: number[] | null;
  recurrentUntil: string | null;
  timeZone: string;
  contactId: number;
  contactName: string | null;
  connectionId: number;
  userId: number;
  userName: string | null;
  ticketId: number | null;
  scheduleDate: string;
  nextDate: string | null;
  sentCount: number;
  lastSentAt: string | null;
  errorMessage: string | null;
  createdBy: number;
  createdByName: string | null;
  createdAt: string;
}

const iso = (t: number | null) => (t === null || t === undefined ? null : new Date(Number(t)).toISOString());

export async function viewOf(api: CoreApi, tenantId: number, rows: MessageRow[]): Promise<ScheduledMessageView[]> {
  if (!rows.length) return [];
  const contactIds = [...new Set(rows.map((r) => r.contactId))];
  const [contacts, users] = await Promise.all([api.contacts.list({ tenantId, ids: contactIds, limit: 100 }), api.users.list({ tenantId })]);
  const contactName = new Map(contacts.rows.map((c) => [c.id, c.name]));
  const userName = new Map(users.map((u) => [u.id, u.name]));
  return rows.map((r) => ({
    id: r.id,
    body: r.body,
    status: r.status,
    type: r.type,
    recurrence: r.recurrence,
    customDays: r.customDays,
    recurrentUntil: iso(r.recurrentUntil),
    timeZone: r.timeZone,
    contactId: r.contactId,
    contactName: contactName.get(r.contactId) ?? null,
    connectionId: r.connectionId,
    userId: r.userId,
    userName: userName.get(r.userId) ?? null,
    ticketId: r.ticketId,
    scheduleDate: iso(r.scheduleDate)!,
    nextDate: iso(r.nextAt),
    sentCount: r.sentCount,
    lastSentAt: iso(r.lastSentAt),
    errorMessage: r.errorMessage,
    createdBy: r.createdBy,
    createdByName: userName.get(r.createdBy) ?? null,
    createdAt: iso(r.createdAt)!,
  }));
}
