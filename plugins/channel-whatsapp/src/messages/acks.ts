/**
 * Acknowledgements of the account's own messages. `messages.update` carries a message's
 * status (1:1 chats, and a group message's overall state); `message-receipt.update` carries
 * one member's receipt in a group. Only the account's own (fromMe) messages have acks worth
 * telling: a status on a received message is the account reading it.
 *
 * This maps, it does not order: an ack that arrives late ("delivered" after "read") is still
 * told, and the core keeps a message's status moving forward only.
 *
 * A receipt's participant is the member's identity as the rest of the plugin writes it
 * (phone digits, "<lid>@lid" while the phone is unknown), not a raw JID.
 */
import { baileys } from "../session/baileys";
import type { AckEvent, AckStatus, ConnectionRef } from "@openatende/plugin-sdk";
import type { AcksFromReceipts, AcksFromUpdates } from "../ports";
import { externalIdOf, secondsToMs } from "./jids";

/** proto.WebMessageInfo.Status by name → the contract's ack (PENDING is no ack). */
const STATUS_ACK: Record<string, AckStatus> = {
  ERROR: "failed",
  SERVER_ACK: "sent",
  DELIVERY_ACK: "delivered",
  READ: "read",
  PLAYED: "played",
};

/** The ack of a proto status; undefined for PENDING and unknown values. */
export function ackStatusOf(status: unknown): AckStatus | undefined {
  const S = baileys().proto.WebMessageInfo.Status as unknown as Record<string | number, string | number>;
  const name = typeof status === "number" ? S[status] : status;
  return typeof name === "string" && Object.prototype.hasOwnProperty.call(STATUS_ACK, name) ? STATUS_ACK[name] : undefined;
}

export const acksFromUpdates: AcksFromUpdates = (ref: ConnectionRef, updates) => {
  const out: AckEvent[] = [];
  for (const { key, update } of updates ?? []) {
    if (!key?.fromMe || !key.id || !update || update.status === undefined || update.status === null) continue;
    const status = ackStatusOf(update.status);
    if (!status) continue;
    const evt: AckEvent = { ...ref, providerMessageId: key.id, status };
    if (status === "failed") {
      const why = Array.isArray(update.messageStubParameters) ? update.messageStubParameters.filter((p: unknown) => typeof p === "string").join(", ") : "";
      evt.reason = why || "WhatsApp refused the message";
    }
    out.push(evt);
  }
  return out;
};

/** A receipt's timestamps in forward order; each one present is an ack of its own. */
const RECEIPT_FIELDS: Array<["receiptTimestamp" | "readTimestamp" | "playedTimestamp", AckStatus]> = [
  ["receiptTimestamp", "delivered"],
  ["readTimestamp", "read"],
  ["playedTimestamp", "played"],
];

export const acksFromReceipts: AcksFromReceipts = (ref: ConnectionRef, receipts) => {
  const out: AckEvent[] = [];
  for (const { key, receipt } of receipts ?? []) {
    if (!key?.fromMe || !key.id || !receipt) continue;
    const participant = receipt.userJid ? externalIdOf(receipt.userJid) : undefined;
    for (const [field, status] of RECEIPT_FIELDS) {
      const t = receipt[field];
      if (t === undefined || t === null) continue;
      const timestamp = secondsToMs(t, 0);
      if (!timestamp) continue;
      out.push({ ...ref, providerMessageId: key.id, status, timestamp, ...(participant ? { participant } : {}) });
    }
  }
  return out;
};
