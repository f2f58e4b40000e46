/**
 * The seams between the plugin's two halves, written first so both are built against them:
 * the session side (session/: socket, auth state, owner lock, reconnect policy, watchdog,
 * and channel.ts wiring it to the contract) and the message side (messages/, groups/,
 * contacts/: what Baileys' events mean for the core, and what the core's sends mean for
 * Baileys). The message side never holds a socket of its own: it gets a `SessionPort`.
 */
import type { proto, WAMessage, WAMessageKey, AnyMessageContent, MiscMessageGenerationOptions, GroupMetadata, WAMessageUpdate, MessageUserReceiptUpdate } from "@whiskeysockets/baileys";
import type { AckEvent, ConnectionRef, ContactUpdateEvent, InboundMessage, MediaRef, MessageChangeEvent, OutboundMessage } from "@openatende/plugin-sdk";

/** What the message side may ask of a live session (a subset of Baileys' WASocket). */
export interface SessionPort {
  /** The account's own JID (phone number JID) and LID, once known. */
  me(): { id: string; lid?: string; name?: string } | undefined;
  sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined>;
  readMessages(keys: WAMessageKey[]): Promise<void>;
  profilePictureUrl(jid: string, type?: "preview" | "image", timeoutMs?: number): Promise<string | undefined>;
  onWhatsApp(...phones: string[]): Promise<Array<{ jid: string; exists: boolean }> | undefined>;
  groupMetadata(jid: string): Promise<GroupMetadata>;
  groupCreate(subject: string, participants: string[]): Promise<GroupMetadata>;
  groupUpdatePicture?(jid: string, content: Buffer): Promise<void>;
  groupRequestParticipantsList(jid: string): Promise<Array<Record<string, string>>>;
  groupRequestParticipantsUpdate(jid: string, participants: string[], action: "approve" | "reject"): Promise<Array<{ status: string; jid: string | undefined }>>;
  /** Downloads a received message's media (Baileys' downloadMediaMessage with the socket's re-upload request). */
  downloadMedia(msg: WAMessage): Promise<Buffer>;
}

/** LID ↔ phone number, as learnt from keys (remoteJidAlt/participantAlt), lid-mapping events and the auth state. */
export interface LidDirectory {
  /** The phone-number JID of a LID JID, when known. */
  phoneOf(lidJid: string): Promise<string | undefined>;
  /** Records a mapping; answers true when it was new (the caller then tells the core to merge contacts). */
  remember(lidJid: string, phoneJid: string): Promise<boolean>;
}

/** Messages this plugin sent or saw, by provider id: for quotes, edits, reactions, deletes and Baileys' getMessage retries. */
export interface MessageKeyStore {
  keyOf(providerMessageId: string): Promise<WAMessageKey | undefined>;
  messageOf(providerMessageId: string): Promise<proto.IMessage | undefined>;
  remember(msg: WAMessage): Promise<void>;
}

/** The connection's import settings (spec §3 Channel, "Import settings"). */
export interface ImportSettings {
  messages: boolean;
  groupMessages: boolean;
  closeTickets: boolean;
  /** ISO dates (yyyy-mm-dd), inclusive; absent: unbounded. */
  from?: string;
  to?: string;
  contacts: boolean;
  /** IANA zone the dates are read in (the tenant's); UTC when absent. */
  timeZone?: string;
}

/** Group names for inbound group messages (groups/GroupDirectory implements it). */
export interface GroupNames {
  /** The group's subject, when known (cached, or fetched once). */
  nameOf(groupJid: string): Promise<string | undefined>;
}

/** What one Baileys message means for the core. */
export type InboundAction =
  | { kind: "inbound"; message: InboundMessage }
  | { kind: "change"; change: MessageChangeEvent }
  | { kind: "contact"; contact: ContactUpdateEvent }
  | { kind: "skip"; reason: string };

export interface NormaliseContext {
  ref: ConnectionRef;
  session: SessionPort;
  lids: LidDirectory;
  /** "live": notify or offline (append) upserts; "history": messaging-history.set under the import settings. */
  source: "live" | "history";
  importSettings?: ImportSettings;
  /** Names group tickets; without it a group arrives with its id only. */
  groups?: GroupNames;
  /** Clock for messages without a timestamp (tests inject one). */
  now?: () => number;
}

/**
 * The message side's entry points, implemented in messages/ (the session side calls them):
 *   normaliseMessage(ctx, msg)          → InboundAction[]   (every content kind; unknown → placeholder)
 *   acksFromUpdates(ref, updates)       → AckEvent[]        (messages.update status 2..5, failures)
 *   acksFromReceipts(ref, receipts)     → AckEvent[]        (message-receipt.update, groups)
 *   buildSend(session, keys, to, msg, readMedia) → { jid, content, options }
 */
export type NormaliseMessage = (ctx: NormaliseContext, msg: WAMessage) => Promise<InboundAction[]>;
export type AcksFromUpdates = (ref: ConnectionRef, updates: WAMessageUpdate[]) => AckEvent[];
export type AcksFromReceipts = (ref: ConnectionRef, receipts: MessageUserReceiptUpdate[]) => AckEvent[];
export type BuildSend = (
  session: SessionPort,
  keys: MessageKeyStore,
  to: string,
  message: OutboundMessage,
  readMedia: (m: MediaRef) => Promise<Buffer>,
) => Promise<BuiltSend>;

/**
 * One send as Baileys takes it. `followUps`: contents sent after the first, to the same jid,
 * in order (a caption that a voice note or sticker cannot carry goes as a text after it); the
 * first message's id is the send's providerMessageId.
 */
export interface BuiltSend {
  jid: string;
  content: AnyMessageContent;
  options?: MiscMessageGenerationOptions;
  followUps?: AnyMessageContent[];
}
