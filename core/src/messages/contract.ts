import type { AckStatus, InboundMessage, MessageChange } from "@openatende/plugin-sdk";
import type { StoredFile } from "../files/store";
import type { MessageView } from "./model";

/** Actions of the messages service other services call. */
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
}
