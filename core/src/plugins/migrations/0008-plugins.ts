import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * tenant_plugins: per-tenant enablement of plugins, owned by the plugins service. A plugin
 * with no row is enabled (the default); one row per (tenant, plugin).
 */
export const m0008: Migration = {
  name: "0008-plugins",
  async up(qi) {
    await qi.createTable("tenant_plugins", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false, references: { model: "tenants", key: "id" }, onDelete: "CASCADE" },
      pluginId: { type: DataTypes.STRING(64), allowNull: false },
      enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      updatedBy: { type: DataTypes.INTEGER, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("tenant_plugins", ["tenantId", "pluginId"], { unique: true, name: "tenant_plugins_tenant_plugin" });
  },
  async down(qi) {
    await qi.dropTable("tenant_plugins");
  },
};
