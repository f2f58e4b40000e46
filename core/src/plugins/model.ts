import { DataTypes, Model, Sequelize } from "sequelize";

/** A tenant's switch for one plugin (table tenant_plugins, migration 0008). No row means enabled. */
export interface TenantPluginRow {
  id: number;
  tenantId: number;
  pluginId: string;
  enabled: boolean;
  /** The user who last switched it. */
  updatedBy: number | null;
  createdAt?: Date;
  updatedAt?: Date;
}
export class TenantPlugin extends Model<TenantPluginRow, Partial<TenantPluginRow>> {}

export function defineTenantPlugin(sequelize: Sequelize): typeof TenantPlugin {
  if (!sequelize.models.TenantPlugin) {
    TenantPlugin.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        pluginId: { type: DataTypes.STRING(64), allowNull: false },
        enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        updatedBy: { type: DataTypes.INTEGER, allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "TenantPlugin", tableName: "tenant_plugins" },
    );
  }
  return sequelize.models.TenantPlugin as typeof TenantPlugin;
}
