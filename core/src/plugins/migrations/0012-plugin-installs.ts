import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * plugin_installs: a plugin installed on this platform from the marketplace (written by the
 * plugin host, core/src/plugins/installs.ts): the version that runs (unpacked under
 * DATA_DIR/plugins/<id>/<version>/, in a plugin node of its own), the one it replaced
 * (rollback) and every version unpacked.
 *
 * Until the marketplace took its migration into its own package, this table was made by
 * "0012-marketplace" with the catalogue's tables. A database migrated before then has it
 * already (and "0012-marketplace" recorded as applied): there this migration finds the table
 * and leaves it as it is.
 */
export const m0012PluginInstalls: Migration = {
  name: "0012-plugin-installs",
  async up(qi) {
    if (await qi.tableExists("plugin_installs")) return;
    await qi.createTable("plugin_installs", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      pluginId: { type: DataTypes.STRING(64), allowNull: false },
      version: { type: DataTypes.STRING(64), allowNull: false },
      previousVersion: { type: DataTypes.STRING(64), allowNull: true },
      versions: { type: DataTypes.TEXT, allowNull: false },
      installedBy: { type: DataTypes.INTEGER, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("plugin_installs", ["pluginId"], { unique: true, name: "plugin_installs_plugin" });
  },
  async down(qi) {
    await qi.dropTable("plugin_installs");
  },
};
