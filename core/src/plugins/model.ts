import { DataTypes, Model, Sequelize } from "sequelize";

/**
 * A tenant's settings for one plugin (table tenant_plugins, migrations 0008 and 0010): the
 * tenant admin's switch and the platform level's decision. No row means switched on and no
 * decision (the default policy applies).
 */
export interface TenantPluginRow {
  id: number;
  tenantId: number;
  pluginId: string;
  enabled: boolean;
  /** The user who last switched it. */
  updatedBy: number | null;
  /** The super's decision for the tenant; null: none, the default policy applies. */
  allowed: boolean | null;
  /** The super who decided. */
  allowedBy: number | null;
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
        allowed: { type: DataTypes.BOOLEAN, allowNull: true },
        allowedBy: { type: DataTypes.INTEGER, allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "TenantPlugin", tableName: "tenant_plugins" },
    );
  }
  return sequelize.models.TenantPlugin as typeof TenantPlugin;
}
