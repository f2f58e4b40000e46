import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * What the automation (core/src/automation) has sent or done to a ticket, claimed before it
 * is done: UNIQUE(tenantId, ticketId, kind, period) makes "once per ticket per closed period"
 * (and one greeting, one farewell, one auto-close message) a database rule, so a retry, a
 * restart or two nodes never send it twice. `period` is the closed period's start (epoch ms),
 * or 0 for kinds that happen once per ticket; `messageId` is the message sent, once sent.
 */
export const m0018: Migration = {
  name: "0018-automatic-messages",
  async up(qi) {
    await qi.createTable("ticket_automations", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      ticketId: { type: DataTypes.INTEGER, allowNull: false },
      kind: { type: DataTypes.STRING(24), allowNull: false },
      period: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
      messageId: { type: DataTypes.INTEGER, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("ticket_automations", ["tenantId", "ticketId", "kind", "period"], { unique: true, name: "ticket_automations_once" });
  },
  async down(qi) {
    await qi.dropTable("ticket_automations");
  },
};
