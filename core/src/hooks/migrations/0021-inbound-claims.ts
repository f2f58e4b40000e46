import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * The plugins' hooks (core/src/hooks; plugin-sdk hooks-contract.ts):
 *
 * - inbound_claims: a contact a plugin claimed on a connection (a survey waiting for its
 *   answer) until expiresAt. UNIQUE(tenantId, contactId, connectionId): one claim there.
 * - tickets.closedVia: who closed a ticket last (agent, mass, automatic, plugin), told to the
 *   plugins with ticket.closed; NULL for tickets closed before it existed or open ones.
 */
export const m0021: Migration = {
  name: "0021-inbound-claims",
  async up(qi) {
    await qi.createTable("inbound_claims", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      contactId: { type: DataTypes.INTEGER, allowNull: false },
      connectionId: { type: DataTypes.INTEGER, allowNull: false },
      pluginId: { type: DataTypes.STRING(64), allowNull: false },
      ref: { type: DataTypes.STRING(64), allowNull: false },
      ticketId: { type: DataTypes.INTEGER, allowNull: true },
      expiresAt: { type: DataTypes.BIGINT, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("inbound_claims", ["tenantId", "contactId", "connectionId"], { unique: true, name: "inbound_claims_contact" });
    await qi.addColumn("tickets", "closedVia", { type: DataTypes.STRING(12), allowNull: true });
  },
  async down(qi) {
    await qi.removeColumn("tickets", "closedVia");
    await qi.dropTable("inbound_claims");
  },
};
