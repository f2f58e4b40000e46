import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/** Owned by the tenants service. */
export const m0001: Migration = {
  name: "0001-tenants",
  async up(qi) {
    await qi.createTable("tenants", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.STRING(120), allowNull: false },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "active" },
      document: { type: DataTypes.STRING(14), allowNull: true },
      resellerId: { type: DataTypes.INTEGER, allowNull: true, references: { model: "tenants", key: "id" } },
      maxUsers: { type: DataTypes.INTEGER, allowNull: true },
      maxConnections: { type: DataTypes.INTEGER, allowNull: true },
      licenseToken: { type: DataTypes.TEXT, allowNull: true },
      timezone: { type: DataTypes.STRING(64), allowNull: false, defaultValue: "America/Sao_Paulo" },
      termsAccepted: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      termsAcceptedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("tenants", ["status"], { name: "tenants_status" });
    await qi.addIndex("tenants", ["resellerId"], { name: "tenants_reseller" });
    await qi.addIndex("tenants", ["name"], { name: "tenants_name" });
  },
  async down(qi) {
    await qi.dropTable("tenants");
  },
};
