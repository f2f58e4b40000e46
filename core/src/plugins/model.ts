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

/**
 * A plugin installed on the platform from the marketplace (table plugin_installs, migration
 * 0012): the version that runs, the one it replaced (rollback) and every version unpacked.
 * Written by the plugin host (core/src/plugins/installs.ts), read by the marketplace's catalogue.
 */
export interface PluginInstallRow {
  id: number;
  pluginId: string;
  version: string;
  previousVersion: string | null;
  /** JSON array of every version unpacked on disk. */
  versions: string;
  installedBy: number | null;
  createdAt?: Date;
  updatedAt?: Date;
}
export class PluginInstall extends Model<PluginInstallRow, Partial<PluginInstallRow>> {}

export function definePluginInstall(sequelize: Sequelize): typeof PluginInstall {
  if (!sequelize.models.PluginInstall) {
    PluginInstall.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        pluginId: { type: DataTypes.STRING(64), allowNull: false },
        version: { type: DataTypes.STRING(64), allowNull: false },
        previousVersion: { type: DataTypes.STRING(64), allowNull: true },
        versions: { type: DataTypes.TEXT, allowNull: false },
        installedBy: { type: DataTypes.INTEGER, allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "PluginInstall", tableName: "plugin_installs" },
    );
  }
  return sequelize.models.PluginInstall as typeof PluginInstall;
}
