import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/** connections (the spec's Channel), owned by the connections service. */
export const m0006: Migration = {
  name: "0006-connections",
  async up(qi) {
    await qi.createTable("connections", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      name: { type: DataTypes.STRING(100), allowNull: false },
      type: { type: DataTypes.STRING(64), allowNull: false },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "disconnected" },
      isDefault: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      greeting: { type: DataTypes.TEXT, allowNull: true },
      farewell: { type: DataTypes.TEXT, allowNull: true },
      token: { type: DataTypes.STRING(64), allowNull: false },
      queueId: { type: DataTypes.INTEGER, allowNull: true },
      settings: { type: DataTypes.TEXT, allowNull: true },
      qrcode: { type: DataTypes.TEXT, allowNull: true },
      retries: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      statusDetail: { type: DataTypes.STRING(255), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("connections", ["tenantId", "name"], { unique: true, name: "connections_tenant_name" });
    await qi.addIndex("connections", ["token"], { unique: true, name: "connections_token" });
    await qi.addIndex("connections", ["tenantId", "type"], { name: "connections_tenant_type" });
  },
  async down(qi) {
    await qi.dropTable("connections");
  },
};
