/**
 * What other services may know of tickets: the actions they call with their params and
 * results, and the row and view types those answer. Other services import this file, never
 * the tickets service, its model or its helpers.
 */
import type { TicketView } from "@openatende/contracts/realtime";
import type { LogType, TicketRow, TicketStatus } from "./model";
import type { DailyCounts, StatsScope, StatusCount } from "./stats";
import type { ChatbotHandoffParams, ChatbotStartParams } from "./chatbot";

export type { LogType, TicketRow, TicketStatus, TicketView, DailyCounts, StatsScope, StatusCount };

/** What an inbound message needs of its contact's active ticket (tickets.findActive). */
export type ActiveTicket = Pick<TicketRow, "id" | "tenantId" | "contactId" | "connectionId" | "queueId" | "userId" | "status" | "isGroup" | "unreadMessages" | "chatbotPluginId" | "chatbotRef">;

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
  /** Spec §2 ticket ordering: latest activity first (default) or oldest first. */
  orderBy?: "recent" | "oldest";
  pageNumber?: number;
  pageSize?: number;
}

/** tickets.query (platform-query.ts): the core API's filtered page of a tenant's tickets. */
/** tickets.afterId: a keyset page of a tenant's tickets by id (platform-query.ts). */
export interface TicketsAfterParams {
  tenantId: number;
  afterId: number;
  limit: number;
  status?: TicketStatus[];
  withTotal?: boolean;
}

export interface TicketQueryParams {
  tenantId: number;
  status?: TicketStatus[];
  queueIds?: number[];
  userIds?: number[];
  ids?: number[];
  contactIds?: number[];
  /** Contact name, e-mail or number (contacts.searchIds), or protocol. */
  search?: string;
  offset: number;
  limit: number;
}

/** tickets.notesQuery: the tenant's ticket notes, newest first, the first `limit` of them. */
export interface TicketNotesQueryParams {
  tenantId: number;
  contactIds?: number[];
  ticketIds?: number[];
  userIds?: number[];
  from?: string | Date;
  to?: string | Date;
  search?: string;
  limit: number;
}

export interface TicketNoteHit {
  id: number;
  ticketId: number;
  contactId: number;
  userId: number | null;
  body: string;
  createdAt: Date;
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
      /** The caller does not need the ticket back: the update only, no read (answers null). */
      quiet?: boolean;
    };
    result: TouchedTicket | null;
  };
  /** An event of the ticket seen by another service (a message deleted), kept in its log; false when the ticket is gone. */
  "tickets.logEvent": { params: { tenantId: number; ticketId: number; userId: number | null; type: LogType; data?: unknown }; result: boolean };
  "tickets.countInQueue": { params: { tenantId: number; queueId: number }; result: number };
  "tickets.countForContact": { params: { tenantId: number; contactId: number }; result: number };
  /** The automation's close (core/src/automation), logged "autoClose" { reason }; null when the ticket is gone or closed already. */
  "tickets.autoClose": { params: { tenantId: number; id: number; reason: "inactivity" | "smartClose" }; result: TicketRow | null };
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
   * The active ticket of a contact on a connection, opened when there is none (a customer's live
   * message — not `fromMe`, not `imported`, not a group's — on a bound connection, or in a bound
   * queue, opens it as its bot's: status chatbot, tickets/chatbot-routing.ts); with `closed`
   * (a history import that closes its tickets) the newest closed one, made when there is none.
   */
  "tickets.openForInbound": {
    params: { tenantId: number; contactId: number; connectionId: number; queueId?: number | null; isGroup?: boolean; closed?: boolean; fromMe?: boolean; imported?: boolean };
    result: { ticket: TicketRow; created: boolean };
  };
  /** The core API of plugins (core/src/platform): a filtered page, newest activity first. */
  "tickets.query": { params: TicketQueryParams; result: { rows: TicketRow[]; count: number; hasMore: boolean } };
  "tickets.afterId": { params: TicketsAfterParams; result: { rows: TicketRow[]; total?: number } };
  "tickets.notesQuery": { params: TicketNotesQueryParams; result: { rows: TicketNoteHit[]; count: number } };
  /** The core API's chatbots.start: a pending ticket without a user becomes the plugin's bot's (tickets/chatbot.ts). */
  "tickets.chatbotStart": { params: ChatbotStartParams; result: TicketRow };
  /** The core API's chatbots.handoff: only the owning plugin, while the ticket is its bot's (else ERR_CHATBOT_NOT_OWNER). */
  "tickets.chatbotHandoff": { params: ChatbotHandoffParams; result: TicketRow };
  /** A plugin changes status, queue or user through the agents' transitions; `plugin` is the actor the log names. */
  "tickets.platformUpdate": {
    params: { tenantId: number; id: number; status?: "open" | "pending" | "closed"; queueId?: number | null; userId?: number | null; plugin: string };
    result: TicketRow;
  };
}

export interface TicketsEvents {
  /**
   * A ticket was created, changed (`before`: the row before the change) or deleted: emitted
   * where the ticket's realtime event is (kit.ts emitTicket). The core API's events to plugins
   * are made of it (core/src/platform/translate.ts).
   */
  "tickets.changed": {
    type: "ticket:create" | "ticket:update" | "ticket:delete";
    ticket: TicketRow;
    before?: TicketRow | null;
    contact?: { id: number; name: string; profilePicUrl?: string | null };
    /** Epoch ms of the change. */
    at: number;
  };
}
