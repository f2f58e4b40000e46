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
import type { LicenceActions, LicenceEvents } from "../licence/contract";
import type { MailerActions } from "../mailer/contract";
import type { MessagesActions } from "../messages/contract";
import type { OutboxActions } from "../channels/outbox-contract";
import type { QueuesActions, QueuesEvents } from "../queues/contract";
import type { SettingsActions, SettingsEvents } from "../settings/contract";
import type { TagsActions, TagsEvents } from "../tags/contract";
import type { TenantsActions, TenantsEvents } from "../tenants/contract";
import type { UsersActions, UsersEvents } from "../users/contract";
import type { TicketRow } from "../tickets/model";
import type { DailyCounts, StatsScope, StatusCount } from "../tickets/stats";

/** Not yet in their domain (see above): the tickets and contacts actions other services call. */
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
  /** The contact's address on a channel type (its newest identity there), or null. */
  "contacts.identityFor": { params: { tenantId: number; contactId: number; channelType: string }; result: string | null };
  "contacts.countByTag": { params: { tenantId: number; tagId: number }; result: number };
  "contacts.detachTag": { params: { tenantId: number; tagId: number }; result: number };
}

export interface CoreActions
  extends SdkActions,
    AuthActions,
    ConnectionsActions,
    LicenceActions,
    MailerActions,
    MessagesActions,
    OutboxActions,
    QueuesActions,
    SettingsActions,
    TagsActions,
    TenantsActions,
    UsersActions,
    PendingActions {}

export interface CoreEvents extends SdkEvents, AuthEvents, ConnectionsEvents, LicenceEvents, QueuesEvents, SettingsEvents, TagsEvents, TenantsEvents, UsersEvents {}
