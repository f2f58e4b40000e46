import type { AckStatus, InboundMessage, MessageChange, TemplateSendComponents } from "@openatende/plugin-sdk";
import type { StoredFile } from "../files/store";
import type { MessageView } from "./model";
import type { TicketStatus } from "../tickets/model";
export type { MessageView };

/** Actions of the messages service other services call. */
/** What a plugin's send carries (messages/platform.ts): text, a stored file, or an approved template; an idempotency key. */
export interface PlatformSendParams {
  body: string;
  media?: { path: string; mimeType: string; fileName: string };
  template?: { name: string; language: string; components?: TemplateSendComponents };
  /** `<plugin id>:<key>`: the same key twice makes one message. */
  idempotencyKey?: string;
}

export interface MessagesActions {
  /** The outcome of a message that waited in the outbox: recorded and shown (null: the message is gone). */
  "messages.settle": {
    params: { tenantId: number; id: number; status: "sent" | "failed"; providerId?: string; failReason?: string };
    result: MessageView | null;
  };
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
  /** Contacts merged: the messages follow the kept contact. Answers how many moved. */
  "messages.moveContact": { params: { tenantId: number; fromContactId: number; toContactId: number }; result: number };
  /** A ticket deleted: its messages go, and their files unless another message shows them. Answers how many went. */
  "messages.removeForTicket": { params: { tenantId: number; ticketId: number }; result: number };
  /** The channel's timestamp of the newest inbound message among `ticketIds` at or after `since` (ms); null when none (last-inbound.ts). */
  "messages.lastInbound": { params: { tenantId: number; ticketIds: number[]; since: number }; result: number | null };
  /** The core API of plugins (platform.ts): a page of a ticket's messages, newest first. */
  "messages.query": { params: { tenantId: number; ticketId: number; offset: number; limit: number }; result: { rows: MessageView[]; count: number; hasMore: boolean } };
  /** The core API of plugins: one message of the tenant's by id; null when there is none. */
  "messages.one": { params: { tenantId: number; id: number }; result: MessageView | null };
  /** A plugin's text through the ticket's connection, the way an agent's goes, with no user. */
  /** `afterClose` (internal, the automation's farewell and closing texts): a ticket closed in the last minutes takes it too. */
  /** `media`: a file of the tenant's (platform.files.upload), `body` its caption (may then be empty). */
  "messages.platformSend": { params: { tenantId: number; ticketId: number; afterClose?: boolean } & PlatformSendParams; result: MessageView };
  /** To a contact on a connection: its active ticket there, or one opened (pending) or, with `ticket: "closed"`, its newest closed one. */
  "messages.platformSendTo": { params: { tenantId: number; contactId: number; connectionId: number; ticket?: "active" | "closed" } & PlatformSendParams; result: MessageView };
}

export interface MessagesEvents {
  /**
   * A message of a ticket was stored (`create`: an inbound one, an agent's or a plugin's send),
   * or changed (`update`: its status, an edit, a reaction, a deletion): emitted where its
   * realtime event is (model.ts emitMessage, channels/inbound-push.ts). The core API's message
   * events are made of it (core/src/platform/translate.ts).
   */
  /** `ticketStatus`: the ticket's status when it was told (a new inbound message says it; the others may not). */
  "messages.changed": { action: "create" | "update" | "delete"; tenantId: number; ticketId: number; message: MessageView; at: number; ticketStatus?: TicketStatus };
}

/**
 * The media of a plugin's send (platform.messages.send/sendTo): a file the tenant stored with
 * platform.files.upload, which the messages domain checks is the tenant's (body is then its caption).
 */
export const platformSendMediaRule = {
  type: "object",
  optional: true,
  props: { path: { type: "string", min: 1, max: 500 }, mimeType: { type: "string", min: 3, max: 120 }, fileName: { type: "string", min: 1, max: 255 } },
} as const;
