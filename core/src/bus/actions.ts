/**
 * The core's typed bus: every action a core service calls on another, with its params and
 * result, and every event with its payload. Each domain declares its own in its
 * `contract.ts`; this file merges them (and the SDK's, which plugins call) into CoreActions
 * and CoreEvents, which `call`, `emit` and `broadcast` (bus/call.ts) check against.
 */
import type { Actions as SdkActions, Events as SdkEvents } from "@openatende/plugin-sdk";
import type { AuthActions, AuthEvents } from "../auth/contract";
import type { BusinessTimeActions, BusinessTimeEvents } from "../business-time/contract";
import type { ChatbotsActions, ChatbotsEvents } from "../chatbots/contract";
import type { ConnectionsActions, ConnectionsEvents } from "../connections/contract";
import type { ContactsActions, ContactsEvents } from "../contacts/contract";
import type { HooksActions } from "../hooks/contract";
import type { LicenceActions, LicenceEvents } from "../licence/contract";
import type { MailerActions } from "../mailer/contract";
import type { MessagesActions, MessagesEvents } from "../messages/contract";
import type { OutboxActions } from "../channels/outbox-contract";
import type { TemplatesActions } from "../channels/templates-contract";
import type { PluginsActions } from "../plugins/contract";
import type { QueuesActions, QueuesEvents } from "../queues/contract";
import type { RealtimeActions, RealtimeEvents } from "../realtime/contract";
import type { SchedulerActions } from "../scheduler/contract";
import type { SettingsActions, SettingsEvents } from "../settings/contract";
import type { TagsActions, TagsEvents } from "../tags/contract";
import type { TenantsActions, TenantsEvents } from "../tenants/contract";
import type { TicketsActions, TicketsEvents } from "../tickets/contract";
import type { UsersActions, UsersEvents } from "../users/contract";

/** Kept here for the callers that name it from the bus (channels.inbound). */
export type { ActiveTicket } from "../tickets/contract";

export interface CoreActions
  extends SdkActions,
    AuthActions,
    BusinessTimeActions,
    ChatbotsActions,
    ConnectionsActions,
    ContactsActions,
    HooksActions,
    LicenceActions,
    MailerActions,
    MessagesActions,
    OutboxActions,
    PluginsActions,
    QueuesActions,
    RealtimeActions,
    SchedulerActions,
    SettingsActions,
    TagsActions,
    TemplatesActions,
    TenantsActions,
    TicketsActions,
    UsersActions {}

export interface CoreEvents extends SdkEvents, AuthEvents, BusinessTimeEvents, ChatbotsEvents, ConnectionsEvents, ContactsEvents, LicenceEvents, MessagesEvents, QueuesEvents, RealtimeEvents, SettingsEvents, TagsEvents, TenantsEvents, TicketsEvents, UsersEvents {}
