import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * tickets, ticket_logs, ticket_notes (tickets service) and messages (messages service).
 *
 * - tickets.activeKey is "<contactId>:<connectionId>" while a ticket is open, pending,
 *   chatbot or group, and NULL once closed; UNIQUE(tenantId, activeKey) makes "one active
 *   ticket per contact and connection" a database rule, so concurrent inbound messages from
 *   a new number cannot open two.
 * - list indexes follow the list's order (pinned, unread first, newest activity) for each
 *   way of narrowing it (all, by queue, by user), so a page is an index range, not a sort.
 * - messages are unique per (tenant, connection, provider id): a replayed delivery is a
 *   duplicate by construction; a ticket's messages are read in (providerTs, id) order.
 */
export const m0007: Migration = {
  name: "0007-tickets-messages",
  async up(qi) {
    await qi.createTable("tickets", {
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
      lastMessageAt: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
      activeKey: { type: DataTypes.STRING(40), allowNull: true },
      translation: { type: DataTypes.TEXT, allowNull: true },
      closedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("tickets", ["tenantId", "activeKey"], { unique: true, name: "tickets_active_unique" });
    await qi.addIndex("tickets", ["tenantId", "status", "pinned", "hasUnread", "lastMessageAt", "id"], { name: "tickets_list_all" });
    await qi.addIndex("tickets", ["tenantId", "status", "queueId", "pinned", "hasUnread", "lastMessageAt", "id"], { name: "tickets_list_queue" });
    await qi.addIndex("tickets", ["tenantId", "status", "userId", "pinned", "hasUnread", "lastMessageAt", "id"], { name: "tickets_list_user" });
    await qi.addIndex("tickets", ["tenantId", "contactId", "status"], { name: "tickets_contact" });
    await qi.addIndex("tickets", ["tenantId", "connectionId", "status"], { name: "tickets_connection" });
    await qi.addIndex("tickets", ["tenantId", "protocol"], { name: "tickets_protocol" });

    await qi.createTable("ticket_logs", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      ticketId: { type: DataTypes.INTEGER, allowNull: false },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      type: { type: DataTypes.STRING(40), allowNull: false },
      data: { type: DataTypes.TEXT, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("ticket_logs", ["tenantId", "ticketId", "id"], { name: "ticket_logs_ticket" });

    await qi.createTable("ticket_notes", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      ticketId: { type: DataTypes.INTEGER, allowNull: false },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      body: { type: DataTypes.TEXT, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("ticket_notes", ["tenantId", "ticketId", "id"], { name: "ticket_notes_ticket" });

    await qi.createTable("messages", {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      ticketId: { type: DataTypes.INTEGER, allowNull: false },
      contactId: { type: DataTypes.INTEGER, allowNull: false },
      connectionId: { type: DataTypes.INTEGER, allowNull: true },
      providerId: { type: DataTypes.STRING(191), allowNull: true },
      fromMe: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      body: { type: DataTypes.TEXT, allowNull: true },
      mediaType: { type: DataTypes.STRING(20), allowNull: true },
      media: { type: DataTypes.TEXT, allowNull: true },
      status: { type: DataTypes.STRING(12), allowNull: false },
      failReason: { type: DataTypes.STRING(255), allowNull: true },
      quotedMsgId: { type: DataTypes.BIGINT, allowNull: true },
      reactions: { type: DataTypes.TEXT, allowNull: true },
      isEdited: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      isDeleted: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      isForwarded: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      read: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      providerTs: { type: DataTypes.BIGINT, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("messages", ["tenantId", "connectionId", "providerId"], { unique: true, name: "messages_provider_unique" });
    await qi.addIndex("messages", ["tenantId", "ticketId", "providerTs", "id"], { name: "messages_ticket_order" });
  },
  async down(qi) {
    await qi.dropTable("messages");
    await qi.dropTable("ticket_notes");
    await qi.dropTable("ticket_logs");
    await qi.dropTable("tickets");
  },
};
