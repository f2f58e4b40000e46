import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * settings: owned by the settings service. tenantId 0 holds the platform's global settings
 * (0 rather than NULL so the unique index holds on MariaDB too).
 * queues: owned by the queues service.
 */
export const m0004: Migration = {
  name: "0004-settings-queues",
  async up(qi) {
    await qi.createTable("settings", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      key: { type: DataTypes.STRING(100), allowNull: false },
      value: { type: DataTypes.TEXT, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("settings", ["tenantId", "key"], { unique: true, name: "settings_tenant_key" });

    await qi.createTable("queues", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false, references: { model: "tenants", key: "id" }, onDelete: "CASCADE" },
      name: { type: DataTypes.STRING(100), allowNull: false },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("queues", ["tenantId", "name"], { unique: true, name: "queues_tenant_name" });
    await qi.addIndex("queues", ["tenantId", "active"], { name: "queues_tenant_active" });
  },
  async down(qi) {
    await qi.dropTable("queues");
    await qi.dropTable("settings");
  },
};
