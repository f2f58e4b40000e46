import type { ServiceSchema } from "moleculer";
import { tenantDbMixin, type TenantDbMethods } from "../db/tenant-db.mixin";
import { defineService } from "../bus/call";
import { LOG_TYPES, type Ticket } from "./model";
import type { CoreDeps } from "../deps";
import { createTicketsKit } from "./kit";
import { createList } from "./list";
import { createTransitions } from "./transitions";
import { createLogAndNotes } from "./log-notes";
import { createMass } from "./mass";
import { createInbound } from "./inbound";
import { createCascades } from "./cascades";
import { ticketStatsActions } from "./stats";
import { LIST_ORDERS } from "./list-query";
import { platformTicketActions } from "./platform-query";
import { createChatbotRouting } from "./chatbot-routing";
import { createChatbotTickets } from "./chatbot";

const idParam = { id: { type: "number", integer: true, positive: true, convert: true } };
const boolQ = { type: "boolean", optional: true, convert: true };
const ticketIds = { type: "array", items: { type: "number", integer: true, positive: true }, min: 1, max: 500 };

/**
 * Tickets (atendimentos): states and transitions of spec §4, the activity log, notes,
 * protocol numbers, visibility of spec §6 and the attendance list of spec §3.
 *
 * One active ticket per contact and connection is a database rule (tickets.activeKey), so
 * concurrent inbound messages from a new number open exactly one ticket.
 *
 * This file is the service's schema (routes, access, params); each concern is a file of its
 * own: the list (list.ts, list-query.ts, list-cache.ts), CRUD and the state machine
 * (transitions.ts), the log, notes and protocol numbers (log-notes.ts), mass actions and
 * unread counts (mass.ts), the inbound hot path (inbound.ts), what other services call
 * (cascades.ts), and who sees a ticket (visibility.ts).
 */
export function createTicketsService(deps: CoreDeps): ServiceSchema {
  const kit = createTicketsKit(deps);
  const logAndNotes = createLogAndNotes(kit);
  const routing = createChatbotRouting();
  const transitions = createTransitions(kit, logAndNotes, routing);
  const list = createList(kit);
  const mass = createMass(kit, transitions);
  const inbound = createInbound(kit, transitions, logAndNotes, routing);
  const chatbot = createChatbotTickets(kit, transitions, routing);
  const cascades = createCascades(kit);

  return defineService<TenantDbMethods<Ticket>>({
    name: "tickets",
    mixins: [tenantDbMixin(deps.sequelize, kit.Ticket)],
    settings: { rest: "/" },
    events: { ...kit.listCache.events, ...routing.events },
    actions: {
      list: {
        rest: "GET /tickets",
        access: "user",
        params: {
          status: { type: "any", optional: true },
          queuesIds: { type: "any", optional: true },
          searchParam: { type: "string", optional: true, max: 100 },
          showAll: boolQ,
          withUnreadMessages: boolQ,
          isNotAssignedUser: boolQ,
          includeNotQueueDefined: boolQ,
          orderBy: { type: "enum", values: [...LIST_ORDERS], optional: true },
          pageNumber: { type: "number", integer: true, min: 1, max: 100000, optional: true, convert: true },
          pageSize: { type: "number", integer: true, min: 1, max: 100, optional: true, convert: true },
        },
        handler: list.list,
      },
      get: { rest: "GET /tickets/:id", access: "user", resource: "tickets", params: idParam, handler: transitions.get },
      logs: { rest: "GET /tickets/:id/logs", access: "user", resource: "tickets", params: idParam, handler: logAndNotes.logs },
      create: {
        rest: "POST /tickets",
        access: "user",
        params: {
          contactId: { type: "number", integer: true, positive: true, convert: true },
          connectionId: { type: "number", integer: true, positive: true, convert: true, optional: true },
          queueId: { type: "number", integer: true, positive: true, convert: true, optional: true },
          status: { type: "enum", values: ["open", "pending"], optional: true },
        },
        handler: transitions.create,
      },
      update: {
        rest: "PUT /tickets/:id",
        access: "user",
        resource: "tickets",
        params: {
          ...idParam,
          status: { type: "enum", values: ["open", "pending", "closed"], optional: true },
          userId: { type: "number", integer: true, positive: true, convert: true, optional: true, nullable: true },
          queueId: { type: "number", integer: true, positive: true, convert: true, optional: true, nullable: true },
          pinned: { type: "boolean", optional: true, convert: true },
          translation: { type: "object", optional: true },
        },
        handler: transitions.update,
      },
      remove: { rest: "DELETE /tickets/:id", access: "admin", resource: "tickets", params: idParam, handler: transitions.remove },

      notes: { rest: "GET /tickets/:id/notes", access: "user", resource: "tickets", params: idParam, handler: logAndNotes.notes },
      addNote: {
        rest: "POST /tickets/:id/notes",
        access: "user",
        resource: "tickets",
        params: { ...idParam, body: { type: "string", min: 1, max: 10000, trim: true } },
        handler: logAndNotes.addNote,
      },

      massTransfer: {
        rest: "POST /tickets/mass-transfer",
        access: "admin",
        params: {
          ticketIds,
          userId: { type: "number", integer: true, positive: true, optional: true, convert: true },
          queueId: { type: "number", integer: true, positive: true, optional: true, convert: true },
        },
        handler: mass.massTransfer,
      },
      massResolve: { rest: "POST /tickets/mass-resolve", access: "admin", params: { ticketIds }, handler: mass.massResolve },
      unreadCounts: { rest: "GET /tickets/unread-count", access: "user", handler: mass.unreadCounts },

      // --- internal: the inbound hot path ------------------------------------------------------
      /**
       * The active ticket of a contact on a connection, opened when there is none (race-safe).
       * `closed` (a channel's history import that closes its tickets): the contact's newest
       * closed ticket on the connection instead, made closed and quietly when there is none.
       */
      openForInbound: {
        visibility: "public",
        params: {
          tenantId: "number",
          contactId: "number",
          connectionId: "number",
          queueId: { type: "number", optional: true, nullable: true },
          isGroup: { type: "boolean", optional: true },
          closed: { type: "boolean", optional: true },
          fromMe: { type: "boolean", optional: true },
          imported: { type: "boolean", optional: true },
        },
        handler: inbound.openForInbound,
      },
      /**
       * Read only: the active ticket of a contact on a connection (what an inbound message
       * needs of it), or null; one statement on the active-key index.
       */
      findActive: {
        visibility: "public",
        params: { tenantId: "number", contactId: "number", connectionId: { type: "number", nullable: true } },
        handler: inbound.findActive,
      },
      /**
       * Records a new message on the ticket: last message, activity time, unread count.
       * Answers the ticket as the update left it. With `expected` (the ticket's state as the
       * caller just read it), the update applies only while the ticket is still in that state,
       * and then the answer is known without reading the row again: unread count, status,
       * user and queue. Otherwise (or without `expected`) the update applies as always and the
       * row is read back — unless `quiet`: the caller does not need it (an outgoing send), null.
       */
      touch: {
        visibility: "public",
        params: {
          tenantId: "number",
          ticketId: "number",
          body: { type: "string", optional: true },
          timestamp: "number",
          incoming: "boolean",
          // An imported message (a channel's history): the unread count stays as it is.
          keepUnread: { type: "boolean", optional: true },
          quiet: { type: "boolean", optional: true },
          expected: {
            type: "object",
            optional: true,
            props: {
              unreadMessages: "number",
              status: "string",
              userId: { type: "number", nullable: true },
              queueId: { type: "number", nullable: true },
            },
          },
        },
        handler: inbound.touch,
      },
      markRead: { visibility: "public", params: { tenantId: "number", ticketId: "number" }, handler: inbound.markRead },

      // --- internal: what other services ask -----------------------------------------------------
      getInternal: { visibility: "public", params: { tenantId: "number", id: "number" }, handler: cascades.getInternal },
      /** For the messages service: the ticket if the caller (ctx.meta.user) may see it. */
      visible: {
        visibility: "public",
        // `cached`: the caller's queues and the settings may come from the list cache (list calls only).
        params: { id: "number", cached: { type: "boolean", optional: true } },
        handler: cascades.visible,
      },
      countForContact: { visibility: "public", params: { tenantId: "number", contactId: "number" }, handler: cascades.countForContact },
      countInQueue: { visibility: "public", params: { tenantId: "number", queueId: "number" }, handler: cascades.countInQueue },
      logEvent: {
        visibility: "public",
        params: { tenantId: "number", ticketId: "number", userId: { type: "number", nullable: true }, type: { type: "enum", values: [...LOG_TYPES] }, data: { type: "any", optional: true } },
        handler: cascades.logEvent,
      },
      /** The automation's close (core/src/automation): auto-close by inactivity or smart close, logged "autoClose" with the reason. */
      autoClose: {
        visibility: "public",
        params: { tenantId: "number", id: "number", reason: { type: "enum", values: ["inactivity", "smartClose"] } },
        handler: transitions.autoClose,
      },
      transferFromUser: { visibility: "public", params: { tenantId: "number", fromUserId: "number", toUserId: "number" }, handler: cascades.transferFromUser },
      /** Contacts merged: their tickets follow the kept contact (an active one closes if the kept contact already has one there). */
      moveContact: { visibility: "public", params: { tenantId: "number", fromContactId: "number", toContactId: "number" }, handler: cascades.moveContact },
      moveConnection: { visibility: "public", params: { tenantId: "number", fromConnectionId: "number", toConnectionId: "number" }, handler: cascades.moveConnection },
      /** The dashboard's figures of the tenant's tickets: grouped counts (stats.ts). */
      ...ticketStatsActions(deps),
      /** A bot's part of a ticket (chatbot.ts), for the core API's chatbots.start and chatbots.handoff. */
      chatbotStart: {
        visibility: "public",
        params: { tenantId: "number", ticketId: "number", pluginId: "string", ref: { type: "string", min: 1, max: 64 } },
        handler: chatbot.chatbotStart,
      },
      chatbotHandoff: {
        visibility: "public",
        params: {
          tenantId: "number",
          ticketId: "number",
          pluginId: "string",
          queueId: { type: "number", optional: true, nullable: true },
          userId: { type: "number", optional: true, nullable: true },
          distribute: { type: "enum", values: ["none", "balance", "random"], optional: true },
          reason: { type: "enum", values: ["flow", "attempts", "timeout"], optional: true },
        },
        handler: chatbot.chatbotHandoff,
      },
      /** What the core API of plugins asks (platform-query.ts): query, notesQuery, platformUpdate. */
      ...platformTicketActions(kit, transitions),
    },
  });
}
