/**
 * What other services may know of tickets: the actions they call with their params and
 * results, and the row and view types those answer. Other services import this file, never
 * the tickets service, its model or its helpers.
 */
import type { TicketView } from "@openatende/contracts/realtime";
import type { TicketRow, TicketStatus } from "./model";
import type { DailyCounts, StatsScope, StatusCount } from "./stats";

export type { TicketRow, TicketStatus, TicketView, DailyCounts, StatsScope, StatusCount };

/** What an inbound message needs of its contact's active ticket (tickets.findActive). */
export type ActiveTicket = Pick<TicketRow, "id" | "tenantId" | "contactId" | "connectionId" | "queueId" | "userId" | "status" | "isGroup" | "unreadMessages">;

/**
 * What tickets.touch answers of the ticket it recorded a message on: with `expected` still
 * holding, these fields as the update left them; otherwise the whole ticket read back.
 */
export type TouchedTicket = Pick<TicketRow, "id" | "tenantId" | "status" | "userId" | "queueId" | "unreadMessages">;

/** The attendance list's filters (GET /tickets); lists are comma-separated strings or arrays. */
export interface TicketListParams {
  status?: string | string[];
  queuesIds?: string | number[];
  searchParam?: string;
  showAll?: boolean;
  withUnreadMessages?: boolean;
  isNotAssignedUser?: boolean;
  includeNotQueueDefined?: boolean;
  pageNumber?: number;
  pageSize?: number;
}

/** Actions of the tickets service other services (and its own handlers) call. */
export interface TicketsActions {
  /** A page of the caller's (ctx.meta.user) attendance list. */
  "tickets.list": { params: TicketListParams; result: { tickets: TicketView<Date>[]; hasMore: boolean; pageNumber: number } };
  "tickets.getInternal": { params: { tenantId: number; id: number }; result: TicketRow | null };
  /** The ticket if the caller (ctx.meta.user) may see it; ERR_TICKET_NOT_FOUND otherwise. */
  "tickets.visible": { params: { id: number; cached?: boolean }; result: TicketRow };
  /** Opened by the caller (ctx.meta.user); ERR_CONTACT_OTHER_OPEN_TICKET when the contact has one there. */
  "tickets.create": { params: { contactId: number; connectionId?: number | null; queueId?: number; status?: "open" | "pending" }; result: TicketView<Date> };
  "tickets.markRead": { params: { tenantId: number; ticketId: number }; result: boolean };
  "tickets.touch": {
    params: {
      tenantId: number;
      ticketId: number;
      body?: string;
      timestamp: number;
      incoming: boolean;
      /** An imported message (a channel's history): the unread count stays as it is. */
      keepUnread?: boolean;
      expected?: { unreadMessages: number; status: TicketStatus; userId: number | null; queueId: number | null };
    };
    result: TouchedTicket | null;
  };
  "tickets.countInQueue": { params: { tenantId: number; queueId: number }; result: number };
  "tickets.countForContact": { params: { tenantId: number; contactId: number }; result: number };
  "tickets.transferFromUser": { params: { tenantId: number; fromUserId: number; toUserId: number }; result: { moved: number } };
  "tickets.moveConnection": { params: { tenantId: number; fromConnectionId: number; toConnectionId: number }; result: { moved: number } };
  /** Contacts merged: their tickets (and messages) follow the kept contact. */
  "tickets.moveContact": { params: { tenantId: number; fromContactId: number; toContactId: number }; result: { moved: number } };
  /** The dashboard's figures (tickets/stats.ts); dates as ISO strings or Dates. */
  "tickets.statusCounts": { params: { tenantId: number; closedFrom: string | Date; closedTo: string | Date; mine?: StatsScope | null }; result: StatusCount[] };
  "tickets.dailyCounts": { params: { tenantId: number; start: string | Date; end: string | Date; offsetMinutes: number; mine?: StatsScope | null }; result: DailyCounts };
  /** channels.inbound's path: the contact's active ticket on a connection, read only. */
  "tickets.findActive": { params: { tenantId: number; contactId: number; connectionId: number | null }; result: ActiveTicket | null };
  /**
   * The active ticket of a contact on a connection, opened when there is none; with `closed`
   * (a history import that closes its tickets) the newest closed one, made when there is none.
   */
  "tickets.openForInbound": {
    params: { tenantId: number; contactId: number; connectionId: number; queueId?: number | null; isGroup?: boolean; closed?: boolean };
    result: { ticket: TicketRow; created: boolean };
  };
}
