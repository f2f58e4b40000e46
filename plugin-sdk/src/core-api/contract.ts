/**
 * The core API a plugin of any kind calls (the `platform` service of the core), and the events
 * the core delivers to plugins (events.ts). Every call names the tenant it acts for; the core refuses a
 * tenant for which the calling plugin is not available (not allowed, switched off, or below its
 * tier) and answers another tenant's ids with their not-found code, so a plugin acts only as
 * "its tenant's enabled plugin". The caller's plugin id is not a parameter: the core knows who
 * is calling (the host-issued identity of the plugin's node, see core/src/plugins/THREAT-MODEL.md).
 *
 * Plugins use the typed client (`coreApi(this)`, client.ts), never these names by hand.
 *
 * How to extend: add actions and optional fields; never change what an answer means.
 */
import type { Availability, AvailabilitySlot, TimeState } from "@openatende/contracts/business-time";
import type { KeysetPage, PlatformTaggedContact } from "./keyset";
import type { ChatbotBinding, ChatbotDistribution, ChatbotHandoffReason, ChatbotScope } from "../chatbot-contract";
import type { TemplateSendComponents, TemplatesListResult, TemplateStatus } from "../templates";
import type { InboundClaim } from "../hooks-contract";

export const PLATFORM_SERVICE = "platform";

export type PlatformTicketStatus = "open" | "pending" | "closed" | "group" | "chatbot";

export interface PlatformTag {
  id: number;
  name: string;
  color: string;
}

export interface PlatformContact {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  profilePicUrl: string | null;
  isGroup: boolean;
  tags: PlatformTag[];
  /** "YYYY-MM-DD" (the contact's birthday field), or null. */
  birthday: string | null;
  /** The contact's state field (free text, e.g. "SP"), or null. */
  state: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PlatformTicket {
  id: number;
  protocol: string | null;
  status: PlatformTicketStatus;
  contactId: number;
  connectionId: number | null;
  queueId: number | null;
  userId: number | null;
  isGroup: boolean;
  unreadMessages: number;
  lastMessage: string | null;
  lastMessageAt: number;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
  contact?: { id: number; name: string; profilePicUrl: string | null };
  /** The ticket's contact's tags. */
  tags?: PlatformTag[];
}

export interface PlatformMessage {
  id: number;
  ticketId: number;
  fromMe: boolean;
  userId: number | null;
  body: string | null;
  mediaType: string | null;
  status: string;
  /** Why a send failed ("ERR_WABA_SEND_REFUSED: 131026 Message undeliverable"); null otherwise. */
  failReason?: string | null;
  createdAt: string;
}

export interface PlatformQueue {
  id: number;
  name: string;
  color: string;
}

export interface PlatformUser {
  id: number;
  name: string;
  profile: "user" | "supervisor" | "admin" | "super";
  online: boolean;
  queueIds: number[];
}

/** A note of a ticket or of a contact (both kinds in one list, the notes module's view). */
export interface PlatformNote {
  kind: "ticket" | "contact";
  id: number;
  /** The ticket's id for a ticket note, the contact's for a contact note. */
  targetId: number;
  /** The contact the note is about (a ticket note: the ticket's contact). */
  contactId: number;
  contactName: string;
  userId: number | null;
  userName: string | null;
  /** A contact note's title; null for a ticket note. */
  title: string | null;
  body: string;
  createdAt: string;
}

export interface PageParams {
  /** 1-based. */
  page?: number;
  /** At most 100 (default 20). */
  limit?: number;
}

export interface Page<T> {
  rows: T[];
  count: number;
  hasMore: boolean;
}

export interface TicketQuery extends PageParams {
  status?: PlatformTicketStatus[];
  queueIds?: number[];
  userIds?: number[];
  /** Tickets whose contact carries any of these tags. */
  tagIds?: number[];
  ids?: number[];
  /** Name, number or protocol. */
  search?: string;
}

export interface ContactQuery extends PageParams {
  ids?: number[];
  tagIds?: number[];
  search?: string;
  /** Contacts whose birthday falls in this month (1–12). */
  birthdayMonth?: number;
  /** Contacts whose state field is one of these (exact match, at most 100). */
  states?: string[];
}

export interface NoteQuery extends PageParams {
  kinds?: Array<"ticket" | "contact">;
  userIds?: number[];
  /**
   * Notes about these contacts: their contact notes and the notes of all their tickets (at
   * most 1000 ids; another tenant's id selects nothing). With `tagIds`, both must match.
   */
  contactIds?: number[];
  /**
   * Only the notes of these tickets (at most 1000 ids; another tenant's id selects nothing).
   * Contact notes belong to no ticket, so a query with `ticketIds` lists ticket notes only.
   */
  ticketIds?: number[];
  /** Notes whose contact carries any of these tags. */
  tagIds?: number[];
  /** ISO date-times, inclusive. */
  from?: string;
  to?: string;
  search?: string;
}

/** What a question about business time names: a ticket's queue, user and connection (any may be missing). */
export interface PlatformTimeTarget {
  queueId?: number | null;
  userId?: number | null;
  connectionId?: number | null;
}

/**
 * Is it open for a target (the core's business-time rules: the user's schedule, else the
 * queue's, else the connection's, else the tenant's global one; none: always open).
 * - `reason`: open; closed (outside the day's hours); lunch; holiday; unscheduled (no schedule applies);
 * - `message`: what to tell a customer for a closed reason (the most specific one set), else null;
 * - `period`: a key of the closed period now running (its end, or -1 when it does not open
 *   within a year), for "once per closed period"; null when open;
 * - `nextOpenAt`: epoch ms of the next opening, null when open or not within a year;
 * - `openWithin24h`, `nextDayHasHours`: what smart close decides by.
 */
export type PlatformTimeState = TimeState;

/** One slot of a user's day: a kind and its "HH:MM" hours in the tenant's time zone (end exclusive). */
export type PlatformAvailabilitySlot = AvailabilitySlot;

/** A user's availability: index = weekday (0 = Sunday), 7 lists of slots (empty: not available that day). */
export type PlatformAvailability = Availability;

/** A change of a ticket a plugin asks for: status, queue, user (an assignment or a transfer). */
export interface TicketChange {
  status?: "open" | "pending" | "closed";
  queueId?: number | null;
  userId?: number | null;
}

/**
 * A file of the tenant the core stores for a plugin (platform.files.upload): what
 * platform.messages.send takes as `media`. `path` is the core's name of the file (under the
 * tenant's files; the core refuses another tenant's), `url` where the tenant's users fetch it.
 */
export interface PlatformFile {
  path: string;
  url: string;
  mimeType: string;
  fileName: string;
  size: number;
}

/**
 * What a plugin's send carries: a text, a file stored with platform.files.upload (`body` is
 * then its caption, may be empty), or an approved template (`body` is its text as the chat
 * shows it; only on a channel that sends templates, else ERR_CHANNEL_UNSUPPORTED).
 *
 * `idempotencyKey` (letters, digits and `:._-`, at most 150): the same key from the same
 * plugin for the same tenant makes one message — a retry, or a job run again after a restart,
 * answers the message the first call made, and sends nothing again. Key each send by what it
 * is ("schedule:42:2026-12-01T09:00", "campaign:7:contact:913").
 */
export interface PlatformSend {
  body: string;
  media?: Pick<PlatformFile, "path" | "mimeType" | "fileName">;
  template?: { name: string; language: string; components?: TemplateSendComponents };
  idempotencyKey?: string;
}

/** A connection's credits at its provider (platform.connections.balance), read at `checkedAt` (epoch ms). */
export interface PlatformBalance {
  credits: number;
  provider: string;
  checkedAt: number;
}

/** The plan caps a plugin enforces on its own objects (spec §6: one active chatflow on the free plan). */
export type PlanLimitKind = "chatflows";

/** Who hears a realtime push: the whole tenant (default), its admins and supervisors, or some users. */
export type PushAudience = { tenant: true } | { admins: true } | { users: number[] };

type T = { tenantId: number };

/** The platform service's actions: name → params and result. */
export interface PlatformActions {
  "platform.contacts.get": { params: T & { id: number }; result: PlatformContact };
  "platform.contacts.list": { params: T & ContactQuery; result: Page<PlatformContact> };
  /** Every contact in keyset pages by id (a report's backfill); `total` on a page asked `withTotal`. */
  "platform.contacts.after": { params: T & { afterId?: number; limit?: number; withTotal?: boolean }; result: KeysetPage<PlatformContact> & { total?: number } };
  /** Contacts carrying any of `tagIds` by id, `limit` (1000; ≤ 5000) after `afterId`: pages of equal cost (no count, no offset). */
  "platform.contacts.byTags": { params: T & { tagIds: number[]; afterId?: number; limit?: number }; result: KeysetPage<PlatformTaggedContact> };
  "platform.contacts.update": { params: T & { id: number; name?: string; email?: string | null }; result: PlatformContact };
  /**
   * Channels: the address on the calling channel (its connection type) of each of the tenant's
   * contacts, in the order given (null: the contact has none there); an id that is not the
   * tenant's is ERR_CONTACT_NOT_FOUND naming every such id.
   */
  "platform.contacts.addresses": { params: T & { ids: number[] }; result: Array<{ id: number; address: string | null }> };
  /**
   * `visibleTo`: a user of the tenant the ticket must be visible to, by the visibility settings
   * (spec §6: queues, someone else's tickets, chatbot and unassigned ones, hidden groups) — for
   * a plugin route acting for its caller. Not visible to them, or another tenant's: ERR_TICKET_NOT_FOUND.
   */
  "platform.tickets.get": { params: T & { id: number; visibleTo?: number }; result: PlatformTicket };
  "platform.tickets.list": { params: T & TicketQuery; result: Page<PlatformTicket> };
  /** Every ticket in keyset pages by id (a report's backfill): none skipped or read twice while tickets change; `total` on a page asked `withTotal`. */
  "platform.tickets.after": { params: T & { afterId?: number; limit?: number; status?: PlatformTicketStatus[]; withTotal?: boolean }; result: KeysetPage<PlatformTicket> & { total?: number } };
  "platform.tickets.update": { params: T & { id: number } & TicketChange; result: PlatformTicket };
  "platform.messages.list": { params: T & { ticketId: number } & PageParams; result: Page<PlatformMessage> };
  /** Sends through the ticket's connection, as the plugin (no agent's signature). */
  /**
   * Sends through the ticket's connection, as the plugin (no agent's signature): a text, or a
   * file stored with platform.files.upload (`body` is then its caption, may be empty).
   */
  /**
   * `afterClose`: the ticket may have been closed in the last minutes (a closing text, such as a
   * closure flow's question after an agent's close); without it a closed ticket is refused
   * (ERR_TICKET_NOT_FOUND).
   */
  /** One message of the tenant's by id, its status as it is now; ERR_MESSAGE_NOT_FOUND for another tenant's. */
  "platform.messages.get": { params: T & { id: number }; result: PlatformMessage };
  "platform.messages.send": { params: T & { ticketId: number; afterClose?: boolean } & PlatformSend; result: PlatformMessage };
  /**
   * Sends to a contact on a connection of the tenant (a scheduled message, a campaign's
   * contact): through the contact's active ticket there, or one opened for it — pending
   * (`ticket: "active"`, the default) or, with `ticket: "closed"`, its newest closed ticket
   * there (made closed when there is none: a mass send opens nothing; a reply opens a ticket
   * as usual). Another tenant's contact or connection: its not-found code.
   */
  "platform.messages.sendTo": { params: T & { contactId: number; connectionId: number; ticket?: "active" | "closed" } & PlatformSend; result: PlatformMessage };
  /**
   * A page of a connection's message templates, from its channel (contract 1.3): for a
   * connection whose channel has none, ERR_CHANNEL_UNSUPPORTED; another tenant's connection,
   * ERR_CONNECTION_NOT_FOUND. `after` is the previous page's `next`.
   */
  "platform.templates.list": { params: T & { connectionId: number; after?: string; status?: TemplateStatus; limit?: number }; result: TemplatesListResult };
  /**
   * The account's credits at the provider of a connection whose channel bills per message (SMS,
   * channel contract 1.4 `balance`): for a channel without it, ERR_CHANNEL_UNSUPPORTED; another
   * tenant's connection, ERR_CONNECTION_NOT_FOUND; the provider's refusal (a token it does not
   * accept) is the channel plugin's code.
   */
  "platform.connections.balance": { params: T & { connectionId: number }; result: PlatformBalance };
  /**
   * Stores a file among the tenant's files (at most `maxBytes`, default 10 MB, spec §9): `data`
   * is a stream of base64 text chunks (media-transfer.ts, the call's stream), the other fields are its params.
   * Use the SDK's `uploadPlatformFile`.
   */
  "platform.files.upload": { params: T & { fileName: string; mimeType: string; maxBytes?: number }; result: PlatformFile };
  /** The chatbot kind (chatbot-contract.ts): what the tenant's connections and queues hand to bots. */
  "platform.chatbots.bindings": { params: T; result: ChatbotBinding[] };
  /**
   * Binds a connection or queue of the tenant to one of the caller's bots (`ref`), replacing any
   * bot it had; `ref: null` removes the caller's own binding of it (another plugin's stays).
   * Another tenant's connection or queue: its not-found code.
   */
  "platform.chatbots.bind": { params: T & { scope: ChatbotScope; targetId: number; ref: string | null }; result: { bound: boolean } };
  /** Hands a pending ticket without a user to the caller's bot `ref` (status chatbot, log chatBot); the bot then receives a "started" inbound. */
  "platform.chatbots.start": { params: T & { ticketId: number; ref: string }; result: PlatformTicket };
  /**
   * Ends the bot's part: to `userId` (open), or to `queueId` (pending, or to an online user of the
   * queue by `distribute`); neither: pending in its current queue. Logs userDefine / queue, or
   * retriesLimitUserDefine / retriesLimitQueue when `reason` is "attempts".
   */
  "platform.chatbots.handoff": {
    params: T & { ticketId: number; queueId?: number | null; userId?: number | null; distribute?: ChatbotDistribution; reason?: ChatbotHandoffReason };
    result: PlatformTicket;
  };
  /**
   * Plan caps: throws the plan's code (ERR_FREE_PLAN_CHATFLOW_LIMIT…) when one more object of
   * `kind` beyond `current` would pass the tenant's cap; answers the cap (null: unlimited).
   * Call it inside the transaction that counts and activates, so two at once cannot both pass.
   */
  "platform.plan.assertWithin": { params: T & { kind: PlanLimitKind; current: number }; result: { max: number | null } };
  "platform.queues.list": { params: T; result: PlatformQueue[] };
  "platform.users.list": { params: T; result: PlatformUser[] };
  "platform.users.get": { params: T & { id: number }; result: PlatformUser };
  /** A user's availability (spec §3 Availability); null: never set (not bookable). Another tenant's user: ERR_USER_NOT_FOUND. */
  "platform.users.availability": { params: T & { userId: number }; result: PlatformAvailability | null };
  "platform.tags.list": { params: T; result: PlatformTag[] };
  /** The tenant's settings a plugin may read (visibility, business rules; never secrets), and `timeZone` (the tenant's IANA zone). */
  "platform.settings.get": { params: T; result: Record<string, unknown> };
  /**
   * Is it open for the target at `at` (epoch ms; default now, by the core's clock). Another
   * tenant's queue, user or connection: its not-found code.
   */
  "platform.businessTime.state": { params: T & { target: PlatformTimeTarget; at?: number }; result: PlatformTimeState };
  "platform.notes.list": { params: T & NoteQuery; result: Page<PlatformNote> };
  /** Pushes `plugin:<plugin id>:<event>` to the tenant's sockets (runtime.realtime.on in the shell). */
  /**
   * Claims the contact on the connection for the caller until `minutes` from now (hooks-contract.ts):
   * their messages there that would open a ticket reach the caller's `hooks.onClaimedInbound`
   * first; a consumed one is kept on `ticketId` (the contact's ticket, closed or not). A new claim
   * there replaces any (the newest wins). Another tenant's contact, connection or ticket: its not-found code.
   */
  "platform.inbound.claim": { params: T & { contactId: number; connectionId: number; ref: string; ticketId?: number | null; minutes: number }; result: InboundClaim };
  /** Ends the caller's own claim of the contact on the connection. */
  "platform.inbound.release": { params: T & { contactId: number; connectionId: number }; result: { released: boolean } };
  "platform.realtime.push": { params: T & { event: string; payload: unknown; to?: PushAudience }; result: { delivered: boolean } };
}

export * from "./events";
