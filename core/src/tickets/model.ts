import { DataTypes, Model, Sequelize } from "sequelize";
import { jsonColumn } from "../db/json-column";

export const TICKET_STATUSES = ["open", "pending", "closed", "group", "chatbot"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
/** Statuses in which a ticket holds its contact's "one active ticket" slot. */
export const ACTIVE_STATUSES: TicketStatus[] = ["open", "pending", "group", "chatbot"];

export interface TicketRow {
  id: number;
  tenantId: number;
  contactId: number;
  connectionId: number | null;
  queueId: number | null;
  userId: number | null;
  status: TicketStatus;
  protocol: string | null;
  isGroup: boolean;
  pinned: boolean;
  unreadMessages: number;
  hasUnread: boolean;
  lastMessage: string | null;
  lastMessageAt: number;
  activeKey: string | null;
  translation: Record<string, unknown> | null;
  /** The bot that owns the ticket while its status is `chatbot` (core/src/chatbots): its plugin and the plugin's name of it; null otherwise. */
  chatbotPluginId?: string | null;
  chatbotRef?: string | null;
  closedAt: Date | null;
  /** Who closed it last (migration 0021): an agent, a mass resolve, the automation, a plugin; null when open or closed before it was kept. */
  closedVia?: ClosedVia | null;
  createdAt: Date;
  updatedAt: Date;
}

export type ClosedVia = "agent" | "mass" | "automatic" | "plugin";

export class Ticket extends Model<TicketRow, Partial<TicketRow>> {}
export class TicketLog extends Model<{ id?: number; tenantId: number; ticketId: number; userId: number | null; type: string; data: unknown; createdAt?: Date }> {}
export class TicketNote extends Model<{ id?: number; tenantId: number; ticketId: number; userId: number | null; body: string; createdAt?: Date; updatedAt?: Date }> {}

export function activeKey(contactId: number, connectionId: number | null): string {
  return `${contactId}:${connectionId ?? 0}`;
}

export function defineTicketModels(sequelize: Sequelize) {
  if (!sequelize.models.Ticket) {
    Ticket.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        contactId: { type: DataTypes.INTEGER, allowNull: false },
        connectionId: { type: DataTypes.INTEGER, allowNull: true },
        queueId: { type: DataTypes.INTEGER, allowNull: true },
        userId: { type: DataTypes.INTEGER, allowNull: true },
        status: { type: DataTypes.STRING(12), allowNull: false },
        protocol: { type: DataTypes.STRING(60), allowNull: true },
        isGroup: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        pinned: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        unreadMessages: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        hasUnread: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        lastMessage: { type: DataTypes.STRING(255), allowNull: true },
        lastMessageAt: {
          type: DataTypes.BIGINT,
          allowNull: false,
          defaultValue: 0,
          get(this: Ticket) {
            return Number(this.getDataValue("lastMessageAt"));
          },
        },
        activeKey: { type: DataTypes.STRING(40), allowNull: true },
        translation: jsonColumn<Record<string, unknown> | null>("translation", null),
        chatbotPluginId: { type: DataTypes.STRING(64), allowNull: true },
        chatbotRef: { type: DataTypes.STRING(64), allowNull: true },
        closedAt: { type: DataTypes.DATE, allowNull: true },
        closedVia: { type: DataTypes.STRING(12), allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "Ticket", tableName: "tickets" },
    );
    TicketLog.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        ticketId: { type: DataTypes.INTEGER, allowNull: false },
        userId: { type: DataTypes.INTEGER, allowNull: true },
        type: { type: DataTypes.STRING(40), allowNull: false },
        data: jsonColumn<unknown>("data", null),
        createdAt: DataTypes.DATE,
      },
      { sequelize, modelName: "TicketLog", tableName: "ticket_logs", updatedAt: false },
    );
    TicketNote.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        ticketId: { type: DataTypes.INTEGER, allowNull: false },
        userId: { type: DataTypes.INTEGER, allowNull: true },
        body: { type: DataTypes.TEXT, allowNull: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "TicketNote", tableName: "ticket_notes" },
    );
  }
  return {
    Ticket: sequelize.models.Ticket as typeof Ticket,
    TicketLog: sequelize.models.TicketLog as typeof TicketLog,
    TicketNote: sequelize.models.TicketNote as typeof TicketNote,
  };
}

/** Ticket log events of spec §4. */
export const LOG_TYPES = [
  "created",
  "accessed",
  "started",
  "pending",
  "transfered",
  "receivedTransfer",
  "closed",
  "reopened",
  "deleted",
  "queue",
  "userDefine",
  "retriesLimitQueue",
  "retriesLimitUserDefine",
  "chatBot",
  "autoClose",
] as const;
export type LogType = (typeof LOG_TYPES)[number];
