/**
 * The core's typed bus: every action a core service calls on another, with its params and
 * result, and every event with its payload. Each domain declares its own in its
 * `contract.ts`; this file merges them (and the SDK's, which plugins call) into CoreActions
 * and CoreEvents, which `call`, `emit` and `broadcast` (bus/call.ts) check against.
 *
 * The entries under "not yet in their domain" are actions of services whose owners have not
 * written their contract yet; they move to `<domain>/contract.ts` when those services convert
 * their own calls.
 */
import type { Actions as SdkActions, Events as SdkEvents } from "@openatende/plugin-sdk";
import type { AuthActions, AuthEvents } from "../auth/contract";
import type { ConnectionsActions, ConnectionsEvents } from "../connections/contract";
import type { ContactsActions, ContactsEvents } from "../contacts/contract";
import type { LicenceActions, LicenceEvents } from "../licence/contract";
import type { MailerActions } from "../mailer/contract";
import type { MessagesActions } from "../messages/contract";
import type { OutboxActions } from "../channels/outbox-contract";
import type { PluginsActions } from "../plugins/contract";
import type { QueuesActions, QueuesEvents } from "../queues/contract";
import type { SettingsActions, SettingsEvents } from "../settings/contract";
import type { TagsActions, TagsEvents } from "../tags/contract";
import type { TenantsActions, TenantsEvents } from "../tenants/contract";
import type { UsersActions, UsersEvents } from "../users/contract";
import type { TicketRow } from "../tickets/model";
import type { MessageView } from "../messages/model";
import type { StoredFile } from "../files/store";
import type { AckStatus, InboundMessage, MessageChange } from "@openatende/plugin-sdk";
import type { DailyCounts, StatsScope, StatusCount } from "../tickets/stats";

/** What an inbound message needs of its contact's active ticket (tickets.findActive). */
export type ActiveTicket = Pick<TicketRow, "id" | "tenantId" | "contactId" | "connectionId" | "queueId" | "userId" | "status" | "isGroup" | "unreadMessages">;

/** Not yet in their domain (see above): the tickets and messages actions other services call. */
export interface PendingActions {
  "tickets.getInternal": { params: { tenantId: number; id: number }; result: TicketRow | null };
  /** The ticket if the caller (ctx.meta.user) may see it; ERR_TICKET_NOT_FOUND otherwise. */
  "tickets.visible": { params: { id: number; cached?: boolean }; result: TicketRow };
  "tickets.create": { params: { contactId: number; connectionId?: number | null; queueId?: number; status?: "open" | "pending" }; result: { id: number } };
  "tickets.markRead": { params: { tenantId: number; ticketId: number }; result: unknown };
  "tickets.touch": {
    params: {
      tenantId: number;
      ticketId: number;
      body?: string;
      timestamp: number;
      incoming: boolean;
      keepUnread?: boolean;
      expected?: { unreadMessages: number; status: string; userId: number | null; queueId: number | null };
    };
    result: TicketRow | null;
  };
  "tickets.countInQueue": { params: { tenantId: number; queueId: number }; result: number };
  "tickets.transferFromUser": { params: { tenantId: number; fromUserId: number; toUserId: number }; result: { moved: number } };
  "tickets.moveConnection": { params: { tenantId: number; fromConnectionId: number; toConnectionId: number }; result: { moved: number } };
  /** The dashboard's figures (tickets/stats.ts); dates as ISO strings or Dates. */
  "tickets.statusCounts": { params: { tenantId: number; closedFrom: string | Date; closedTo: string | Date; mine?: StatsScope | null }; result: StatusCount[] };
  "tickets.dailyCounts": { params: { tenantId: number; start: string | Date; end: string | Date; offsetMinutes: number; mine?: StatsScope | null }; result: DailyCounts };
  /** What the channels and contacts services call (channels.inbound's path, contact merges). */
  "tickets.findActive": { params: { tenantId: number; contactId: number; connectionId: number | null }; result: ActiveTicket | null };
  "tickets.openForInbound": {
    params: { tenantId: number; contactId: number; connectionId: number; queueId?: number | null; isGroup?: boolean; closed?: boolean };
    result: { ticket: TicketRow; created: boolean };
  };
  "tickets.countForContact": { params: { tenantId: number; contactId: number }; result: number };
  "tickets.moveContact": { params: { tenantId: number; fromContactId: number; toContactId: number }; result: { moved: number } };
  /** With `slim` the id and ticket only (an inbound message's replay check); without it the whole row. */
  "messages.findByProvider": { params: { tenantId: number; connectionId: number; providerId: string; slim?: boolean }; result: { id: number; ticketId: number } | null };
  /** `message` is null only for a duplicate whose row is gone meanwhile. */
  "messages.storeInbound": {
    params: { msg: InboundMessage; ticket: { id: number; tenantId?: number }; contactId: number; media?: StoredFile & { url?: string } };
    result: { duplicate: false; message: MessageView } | { duplicate: true; message: MessageView | null };
  };
  /** Null when the message is unknown or not one the platform sent. */
  "messages.applyAck": { params: { tenantId: number; connectionId: number; providerId: string; status: AckStatus; reason?: string }; result: MessageView | null };
  "messages.applyChange": { params: { tenantId: number; connectionId: number; providerId: string; change: MessageChange }; result: { message: MessageView; changed: boolean } | null };
}

export interface CoreActions
  extends SdkActions,
    AuthActions,
    ConnectionsActions,
    ContactsActions,
    LicenceActions,
    MailerActions,
    MessagesActions,
    OutboxActions,
    PluginsActions,
    QueuesActions,
    SettingsActions,
    TagsActions,
    TenantsActions,
    UsersActions,
    PendingActions {}

export interface CoreEvents extends SdkEvents, AuthEvents, ConnectionsEvents, ContactsEvents, LicenceEvents, QueuesEvents, SettingsEvents, TagsEvents, TenantsEvents, UsersEvents {}
