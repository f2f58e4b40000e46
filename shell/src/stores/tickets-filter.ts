import { inList, type Viewer, type VisibilitySettings } from "@openatende/contracts/visibility";
import type { TicketContact, TicketStatus, TicketView } from "@openatende/contracts/realtime";
import type { AttendanceFilter, TicketOrder } from "./session";

/**
 * Which tickets a tab of the attendance list holds and in what order: the API's rules, so a
 * list kept live shows what a reload would show. Who sees a ticket is the one rule of
 * @openatende/contracts/visibility (spec §6), which the API's list applies in SQL.
 */

export type { TicketContact, TicketStatus, Viewer, VisibilitySettings };

/** A ticket as the API and the list events show it (the dates a live event may leave out are optional). */
export type Ticket = Omit<TicketView, "tenantId" | "closedAt" | "createdAt" | "updatedAt"> & Partial<Pick<TicketView, "tenantId" | "closedAt" | "createdAt" | "updatedAt">>;

export type TabKey = "open" | "closed" | "group";

/** The statuses each tab lists: active is open (being served) plus pending (aguardando). */
export const TAB_STATUSES: Record<TabKey, TicketStatus[]> = {
  open: ["open", "pending"],
  closed: ["closed"],
  group: ["group"],
};

export type ListFilter = Pick<AttendanceFilter, "searchParam" | "showAll" | "queuesIds" | "withUnreadMessages" | "isNotAssignedUser" | "includeNotQueueDefined">;

export type { TicketOrder };

/**
 * The API's order: pinned first, then tickets with unread messages, then the latest activity
 * first ("recent") or the oldest first ("oldest"), the id breaking ties the same way.
 */
export function compareTickets(a: Ticket, b: Ticket, order: TicketOrder = "recent"): number {
  if (!!a.pinned !== !!b.pinned) return a.pinned ? -1 : 1;
  const ua = a.unreadMessages > 0;
  const ub = b.unreadMessages > 0;
  if (ua !== ub) return ua ? -1 : 1;
  const sign = order === "oldest" ? -1 : 1;
  if (a.lastMessageAt !== b.lastMessageAt) return sign * ((b.lastMessageAt || 0) - (a.lastMessageAt || 0));
  return sign * (b.id - a.id);
}

/** Whether a ticket belongs to a tab's list under a filter, as the API's list decides it. */
export function visibleInList(t: Ticket, tab: TabKey, f: ListFilter, me: Viewer, s: VisibilitySettings = {}): boolean {
  return inList(me, t, s, {
    statuses: TAB_STATUSES[tab],
    showAll: f.showAll,
    queueIds: f.queuesIds ?? [],
    includeNotQueueDefined: f.includeNotQueueDefined,
    withUnreadMessages: f.withUnreadMessages,
    isNotAssignedUser: f.isNotAssignedUser,
  });
}

const fold = (x: string) => x.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** A live ticket new to a searched list joins it when its contact's name, its protocol or its id matches. */
export function matchesSearch(t: Ticket, search: string): boolean {
  const q = search.trim();
  if (q.length < 2) return true;
  if (t.protocol === q || String(t.id) === q) return true;
  return fold(t.contact?.name ?? "").includes(fold(q)) || (!!t.contact?.number && q.replace(/\D/g, "").length >= 2 && t.contact.number.includes(q.replace(/\D/g, "")));
}
