import { DataTypes, Model, Sequelize } from "sequelize";
import type { Context } from "moleculer";
import { jsonColumn } from "../db/json-column";
import { hidesContactInfo, pushRealtime, ticketAudience } from "../realtime/push";
import { withHiddenParticipant } from "./participant-mask";
import { emit } from "../bus/call";
import { REALTIME_EVENTS, appMessage, type MessageAction } from "@openatende/contracts/realtime";
import type { StoredFile } from "../files/store";
import type { TicketRow } from "../tickets/model";

/** For the other domains that push messages (channels/inbound-push.ts): hideContactInfo for group members. */
export { withHiddenParticipant };

export type MessageStatus = "received" | "pending" | "sent" | "delivered" | "read" | "played" | "failed";

/** How far an outgoing message got; an ack only ever moves it up this scale. */
export const STATUS_RANK: Record<string, number> = { pending: 0, sent: 1, delivered: 2, read: 3, played: 4 };
/** A failure is believed only of a message no device has acknowledged yet. */
export const FAILABLE: readonly string[] = ["pending", "sent"];

/** One reaction per reactor: an agent ("user:<id>") or a channel identity (the account's own: `fromMe`). */
export interface Reaction {
  by: string;
  emoji: string;
  fromMe?: boolean;
}

/** The group member who wrote a group message (the message's contact is the group). */
export interface Participant {
  externalId: string;
  name?: string;
  phone?: string;
}

export interface MessageRow {
  id: number;
  tenantId: number;
  ticketId: number;
  contactId: number;
  connectionId: number | null;
  providerId: string | null;
  fromMe: boolean;
  userId: number | null;
  body: string | null;
  mediaType: string | null;
  media: (StoredFile & { url?: string }) | null;
  status: MessageStatus;
  failReason: string | null;
  /** A plugin send's idempotency key, `<plugin id>:<key>` (migration 0020); null otherwise. */
  idempotencyKey?: string | null;
  quotedMsgId: number | null;
  reactions: Reaction[];
  participant: Participant | null;
  isEdited: boolean;
  isDeleted: boolean;
  isForwarded: boolean;
  read: boolean;
  providerTs: number;
  createdAt: Date;
  updatedAt: Date;
}

export class Message extends Model<MessageRow, Partial<MessageRow>> {}

/** The messages service's table (migrations 0007, 0014, 0020). */
export function defineMessage(sequelize: Sequelize): typeof Message {
  if (!sequelize.models.Message) {
    Message.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true, get(this: Message) { return Number(this.getDataValue("id")); } },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        ticketId: { type: DataTypes.INTEGER, allowNull: false },
        contactId: { type: DataTypes.INTEGER, allowNull: false },
        connectionId: { type: DataTypes.INTEGER, allowNull: true },
        providerId: { type: DataTypes.STRING(191), allowNull: true },
        fromMe: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        userId: { type: DataTypes.INTEGER, allowNull: true },
        body: { type: DataTypes.TEXT, allowNull: true },
        mediaType: { type: DataTypes.STRING(20), allowNull: true },
        media: jsonColumn<StoredFile | null>("media", null),
        status: { type: DataTypes.STRING(12), allowNull: false },
        failReason: { type: DataTypes.STRING(255), allowNull: true },
        idempotencyKey: { type: DataTypes.STRING(191), allowNull: true },
        quotedMsgId: { type: DataTypes.BIGINT, allowNull: true },
        reactions: jsonColumn<Reaction[]>("reactions", []),
        participant: jsonColumn<Participant | null>("participant", null),
        isEdited: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        isDeleted: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        isForwarded: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        read: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        providerTs: { type: DataTypes.BIGINT, allowNull: false, get(this: Message) { return Number(this.getDataValue("providerTs")); } },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "Message", tableName: "messages" },
    );
  }
  return sequelize.models.Message as typeof Message;
}

/** A message as the API and the realtime events show it (a deleted one keeps its text in the row only). */
export function view(m: Message | MessageRow) {
  const r = (m instanceof Model ? m.get({ plain: true }) : m) as MessageRow;
  return {
    id: Number(r.id),
    ticketId: r.ticketId,
    contactId: r.contactId,
    connectionId: r.connectionId,
    providerId: r.providerId,
    fromMe: !!r.fromMe,
    userId: r.userId,
    body: r.isDeleted ? null : r.body,
    mediaType: r.mediaType,
    media: r.isDeleted || !r.media ? null : { fileName: r.media.fileName, mimeType: r.media.mimeType, size: r.media.size, url: r.media.url ?? `/api/files/${encodeURIComponent(r.media.path)}` },
    status: r.status,
    failReason: r.failReason,
    quotedMsgId: r.quotedMsgId === null ? null : Number(r.quotedMsgId),
    reactions: r.reactions ?? [],
    participant: r.participant ?? null,
    isEdited: !!r.isEdited,
    isDeleted: !!r.isDeleted,
    isForwarded: !!r.isForwarded,
    read: !!r.read,
    timestamp: Number(r.providerTs),
    createdAt: r.createdAt,
  };
}
export type MessageView = ReturnType<typeof view>;

/** `{tenant}:appMessage` to whoever may see the ticket. */
export async function emitMessage(ctx: Pick<Context, "emit" | "call">, ticket: Pick<TicketRow, "id" | "tenantId" | "status" | "userId" | "queueId" | "isGroup">, action: MessageAction, message: MessageView, contact?: { id: number; name: string; profilePicUrl?: string | null }): Promise<void> {
  pushRealtime(ctx, {
    ...(await ticketAudience(ctx, ticket)),
    event: REALTIME_EVENTS.appMessage(ticket.tenantId),
    // The contract's payload (@openatende/contracts/realtime), which the shell reads.
    payload: appMessage(action, (await hidesContactInfo(ctx, ticket.tenantId)) ? withHiddenParticipant(message) : message, ticket, contact),
  });
  void emit(ctx, "messages.changed", { action, tenantId: ticket.tenantId, ticketId: ticket.id, message, at: Date.now() });
}
