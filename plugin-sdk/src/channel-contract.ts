/**
 * The channel contract: what the core asks a channel plugin to do, and what a channel tells
 * the core. Both sides compile against these types; the conformance kit checks a plugin
 * honours them at run time.
 *
 * How to extend: add optional fields only (a plugin built for an older minor keeps working);
 * a breaking change is a new major of CHANNEL_CONTRACT_VERSION and of the SDK.
 */

import type { TemplateSendComponents } from "./templates";

export const CHANNEL_CONTRACT_VERSION = "1.4.0";

/** Connection statuses of spec §4. */
export const CONNECTION_STATUSES = ["pairing", "connected", "disconnected", "timeout", "qrcode", "inactive", "conflict", "connecting"] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/**
 * What a channel can send; declared in the manifest (`platform.channel.capabilities`).
 * "sticker" (since contract 1.2): a WebP image the channel delivers as a sticker.
 */
export const CHANNEL_CAPABILITIES = ["text", "media", "reaction", "edit", "delete", "template", "sticker"] as const;
export type ChannelCapability = (typeof CHANNEL_CAPABILITIES)[number];

/** Actions every channel plugin service exposes (called by the core). */
export const CHANNEL_ACTIONS = ["connect", "disconnect", "status", "send", "test"] as const;

/**
 * Actions a channel may have, each declared by a flag of its manifest's `platform.channel`:
 * `markRead` (`receipts: true`), `checkNumber` (`numberCheck: true`), and the message
 * templates of an official business API (`templates: true`, since contract 1.3):
 * `templatesList`, `templateCreate`, `templateDelete`. The core calls them only on a plugin
 * that declares them; other plugins (campaigns, appointments) reach a connection's templates
 * through the core, never by calling the channel plugin themselves. `balance` (`balance: true`,
 * since contract 1.4): the account's credits at a provider that bills per message (SMS), read
 * by the core for other plugins (platform.connections.balance: SMS campaigns).
 */
export const OPTIONAL_CHANNEL_ACTIONS = {
  markRead: "receipts",
  checkNumber: "numberCheck",
  templatesList: "templates",
  templateCreate: "templates",
  templateDelete: "templates",
  balance: "balance",
} as const;

/** Actions of the core a channel calls (through the SDK helpers, never by hand). */
export const CORE_CHANNEL_ACTIONS = {
  inbound: "channels.inbound",
  ack: "channels.ack",
  status: "channels.status",
  /** A connection's public token (web-chat widgets, webhooks) → its tenant, id and settings. */
  resolveToken: "channels.resolveToken",
  /** A received file streamed into the core's storage (see media-transfer.ts); answers its MediaRef. */
  uploadMedia: "channelFiles.upload",
  /** A stored file (an outbound MediaRef's `path`) streamed to the channel. */
  readMedia: "channelFiles.read",
  /** A change to a stored message made on the channel: a reaction, an edit, a deletion by its sender. */
  change: "channels.change",
  /** What the channel learnt of a contact: name, picture, validated on the network, another id (LID → phone) to merge. */
  contact: "channels.contact",
} as const;

export interface ResolvedToken extends ConnectionRef {
  name: string;
  status: ConnectionStatus;
  settings: Record<string, unknown>;
}

export interface ConnectionRef {
  tenantId: number;
  connectionId: number;
}

/** Optional action `balance` (contract 1.4): the connection's stored settings, as connect gets them. */
export interface BalanceParams extends ConnectionRef {
  settings: Record<string, unknown>;
}

/** The account's credits at the provider (one credit per message part for SMS), read at `checkedAt` (epoch ms). */
export interface BalanceResult {
  credits: number;
  /** The provider's id ("comtele", "zenvia", "twilio"). */
  provider: string;
  checkedAt: number;
}

export interface ConnectParams extends ConnectionRef {
  /** The connection's type-specific settings, already validated against the manifest's settingsSchema. */
  settings: Record<string, unknown>;
  /** The connection's public token (what `resolveToken` maps back), for URLs a provider calls: webhooks. */
  token?: string;
  /** The product's external base URL (no trailing slash); the API is under `<publicUrl>/api`. */
  publicUrl?: string;
  /** Absolute path of the platform's data folder, under which outbound `MediaRef.path`s lie. */
  dataDir?: string;
}

export interface StatusResult {
  status: ConnectionStatus;
  /** A QR code to scan, when status is "qrcode". */
  qrcode?: string;
  detail?: string;
}

export interface MediaRef {
  /** Path of the file under the platform's data folder (outbound), or a URL the core can fetch (inbound). */
  path?: string;
  url?: string;
  /** Inline content, base64 (inbound only, small files). */
  data?: string;
  mimeType: string;
  fileName?: string;
  size?: number;
}

/** The file type of a sticker (outbound kind "sticker"). */
export const STICKER_MIME_TYPE = "image/webp";

export type OutboundMessage =
  | { kind: "text"; body: string; replyToProviderId?: string }
  | { kind: "media"; body?: string; media: MediaRef; replyToProviderId?: string }
  | { kind: "reaction"; targetProviderId: string; emoji: string }
  | { kind: "edit"; targetProviderId: string; body: string }
  | { kind: "delete"; targetProviderId: string }
  /**
   * An approved message template (capability "template"), the only thing a channel with a
   * service window (manifest `serviceWindowHours`) may send once the window is closed.
   * `components` (since contract 1.3) fills its variables; `parameters` is the older form.
   */
  | { kind: "template"; name: string; language: string; parameters?: unknown[]; components?: TemplateSendComponents }
  /** A WebP image (`media.mimeType` "image/webp") the channel delivers as a sticker: no caption. */
  | { kind: "sticker"; media: MediaRef; replyToProviderId?: string };

export interface SendParams extends ConnectionRef {
  /** The contact's identity on this channel (phone, chat id, e-mail address, visitor id…). */
  to: { externalId: string };
  message: OutboundMessage;
  /**
   * The core's message id: the idempotency key of the send. The core may hand the same
   * message over again (its call failed because the plugin's process went away, and the
   * message waited in the core's outbox); a channel that remembers what it sent answers the
   * first send's result instead of sending twice.
   */
  messageId?: number;
}

export interface SendResult {
  providerMessageId: string;
  /** Provider timestamp in ms since the epoch. */
  timestamp: number;
}

/**
 * Read receipts: the agent holding the ticket read these inbound messages of `to`. Best effort:
 * a channel whose session is down does nothing (and does not queue them); the core never waits
 * on it nor fails because of it.
 */
export interface MarkReadParams extends ConnectionRef {
  to: { externalId: string };
  /** Provider ids of the inbound messages read (a group's: the channel finds each sender from what it stored). */
  providerMessageIds: string[];
}

export interface MarkReadResult {
  /** How many receipts went out (0 when the session is not connected). */
  sent: number;
}

/** Whether a phone number has an account on the channel's network. */
export interface CheckNumberParams extends ConnectionRef {
  /** Digits of the number, E.164 without "+". */
  number: string;
}

export interface CheckNumberResult {
  exists: boolean;
  /** The account's identity on the channel when it exists (may differ from the number asked: a country's 9th digit). */
  externalId?: string;
}

export interface TestParams {
  tenantId: number;
  settings: Record<string, unknown>;
}

export interface TestResult {
  ok: boolean;
  detail?: string;
}

/** A message that arrived on a channel, normalised. */
export interface InboundMessage extends ConnectionRef {
  /** The provider's id of the message: the core stores each (tenant, connection, id) once. */
  providerMessageId: string;
  /** Provider timestamp in ms since the epoch; messages are ordered by it, then by id. */
  timestamp: number;
  from: {
    externalId: string;
    name?: string;
    phone?: string;
    email?: string;
    avatarUrl?: string;
  };
  body?: string;
  media?: MediaRef;
  /** Location and contact cards are carried as structured data beside a readable body. */
  location?: { latitude: number; longitude: number; name?: string };
  contactCard?: { name: string; phone?: string };
  replyToProviderId?: string;
  isGroup?: boolean;
  /**
   * Written by the account itself on another of its devices (the phone of a linked-device
   * channel): `from` is then the chat's other side, and the core stores it as an agent
   * message (fromMe, no user, status "sent"), with no unread count and no notification.
   */
  fromMe?: boolean;
  /** In a group (`isGroup`, `from` is the group): the member who wrote. */
  participant?: { externalId: string; name?: string; phone?: string };
  /**
   * The business's verified name on the channel (WhatsApp's official API: the number's name as
   * Meta verified it), carried to the list's `chat:create` event (spec §7 realtime).
   */
  verifiedBizName?: string;
  /**
   * From the history the channel received when it was linked (an import), not live: stored in
   * order without notifications; with `closeTicket`, the ticket it lands in is left closed.
   */
  imported?: { closeTicket?: boolean };
}

export interface InboundResult {
  messageId: number;
  ticketId: number;
  /** True when this provider id was stored before: nothing new was written or emitted. */
  duplicate: boolean;
}

/** Forward only: sent < delivered < read < played ("played": a voice note or video was played). */
export type AckStatus = "sent" | "delivered" | "read" | "played" | "failed";
export const ACK_STATUSES: readonly AckStatus[] = ["sent", "delivered", "read", "played", "failed"];

export interface AckEvent extends ConnectionRef {
  providerMessageId: string;
  status: AckStatus;
  reason?: string;
  timestamp?: number;
  /** A group receipt: the member whose device acknowledged (the message's status is the furthest any member reached). */
  participant?: string;
}

/** A change to a message the core stored, made on the channel's side. */
export type MessageChange =
  /** `emoji` "" takes the reaction of `by` away. */
  | { type: "reaction"; emoji: string; by: string; fromMe?: boolean }
  | { type: "edit"; body: string }
  /** Deleted for everyone by its sender: the core keeps the row, marked deleted. */
  | { type: "delete" };

export interface MessageChangeEvent extends ConnectionRef {
  /** The changed message's provider id (the core answers { applied: false } when it never stored it). */
  providerMessageId: string;
  change: MessageChange;
  timestamp?: number;
}

export interface MessageChangeResult {
  /** False when the core never stored that message (or it was deleted: no reaction or edit applies). The same change twice answers true twice. */
  applied: boolean;
}

export interface ContactUpdateEvent extends ConnectionRef {
  /** The contact's identity on the channel. */
  externalId: string;
  name?: string;
  /** The profile picture's URL; null: none (hidden by privacy, removed). */
  avatarUrl?: string | null;
  phone?: string;
  /** Checked on the network: the number has an account there (spec §3 Contact, "WhatsApp-validated"). */
  validated?: boolean;
  /**
   * Another identity of the same person on this channel, now known (a LID whose phone number
   * was learnt): the core merges that contact into this one, tickets and messages included.
   */
  previousExternalId?: string;
  /**
   * Make the contact when the core does not know the identity (a contact sync or import).
   * Without it an update of an unknown identity changes nothing ({ applied: false }), so the
   * pictures and names of people who never wrote do not fill the contact list.
   */
  create?: boolean;
}

export interface ContactUpdateResult {
  /** False when neither identity is known and `create` was not asked. */
  applied: boolean;
  /** The contact the identity now belongs to. */
  contactId?: number;
  /** True when the contact of `previousExternalId` was merged into it by this call. */
  merged?: boolean;
}

export interface StatusEvent extends ConnectionRef {
  status: ConnectionStatus;
  qrcode?: string;
  detail?: string;
}

/** The error a channel throws for a message kind it does not support. */
export const ERR_CHANNEL_UNSUPPORTED = "ERR_CHANNEL_UNSUPPORTED";

// Message templates (contract 1.3): templates.ts.
export * from "./templates";
