import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * The chatbot kind (core/src/chatbots; plugin-sdk chatbot-contract.ts):
 *
 * - chatbot_bindings: which of a tenant's connections and queues hand their new tickets to a
 *   plugin's bot. UNIQUE(tenantId, scope, targetId): a connection or queue has at most one bot.
 * - tickets.chatbotPluginId / chatbotRef: the bot that owns a ticket in status `chatbot`
 *   (both NULL otherwise); only that plugin may hand the ticket off.
 */
export const m0019: Migration = {
  name: "0019-chatbots",
  async up(qi) {
    await qi.createTable("chatbot_bindings", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      scope: { type: DataTypes.STRING(12), allowNull: false },
      targetId: { type: DataTypes.INTEGER, allowNull: false },
      pluginId: { type: DataTypes.STRING(64), allowNull: false },
      ref: { type: DataTypes.STRING(64), allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("chatbot_bindings", ["tenantId", "scope", "targetId"], { unique: true, name: "chatbot_bindings_target" });
    await qi.addColumn("tickets", "chatbotPluginId", { type: DataTypes.STRING(64), allowNull: true });
    await qi.addColumn("tickets", "chatbotRef", { type: DataTypes.STRING(64), allowNull: true });
  },
  async down(qi) {
    await qi.removeColumn("tickets", "chatbotRef");
    await qi.removeColumn("tickets", "chatbotPluginId");
    await qi.dropTable("chatbot_bindings");
  },
};
