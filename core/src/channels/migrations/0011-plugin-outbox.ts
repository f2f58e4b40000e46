import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * Channel plugins that come and go (a plugin in a process of its own, killed or restarted):
 * - message_outbox (outbox service): an agent's message whose channel plugin was away waits
 *   here, one row per message (UNIQUE messageId), with the send ready to hand over again; it
 *   leaves when the plugin answered. Flushed in message order per ticket.
 * - connections.keepConnected: the admin wants the connection up (set by connect, cleared by
 *   disconnect). The core connects these again when it starts and when their plugin comes
 *   back; rows of earlier versions that were connected start with it set.
 */
export const m0011: Migration = {
  name: "0011-plugin-outbox",
  async up(qi) {
    await qi.createTable("message_outbox", {
      id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      connectionId: { type: DataTypes.INTEGER, allowNull: false },
      ticketId: { type: DataTypes.INTEGER, allowNull: false },
      messageId: { type: DataTypes.BIGINT, allowNull: false },
      payload: { type: DataTypes.TEXT, allowNull: false },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      lastError: { type: DataTypes.STRING(255), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("message_outbox", ["messageId"], { unique: true, name: "message_outbox_message" });
    await qi.addIndex("message_outbox", ["connectionId", "ticketId", "messageId"], { name: "message_outbox_connection" });
    await qi.addColumn("connections", "keepConnected", { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false });
    await qi.sequelize.query("UPDATE connections SET keepConnected = ? WHERE status = ?", { replacements: [true, "connected"] });
  },
  async down(qi) {
    await qi.removeColumn("connections", "keepConnected");
    await qi.dropTable("message_outbox");
  },
};
