import { DataTypes } from "sequelize";
import type { Migration } from "@openatende/core";

/**
 * The marketplace's tables (this package's migration; the core's migrator runs it after the
 * core's own, see @openatende/core's service packages):
 * - marketplace_publishers: third parties that publish plugins; their token is kept as a
 *   SHA-256 hash (shown once when made or rotated).
 * - marketplace_plugins: one row per plugin id, owned by the publisher that first published it.
 * - marketplace_versions: one row per published version (UNIQUE pluginId + version), with the
 *   archive's checksum and size, its manifest, changelog and readme. The archive itself is a
 *   file under DATA_DIR/marketplace/<id>/<version>.tgz.
 *
 * It lived in the core until the marketplace became a package of its own, and then also made
 * plugin_installs, the plugin host's table: that one is the core's "0012-plugin-installs" now,
 * which finds it in place on a database migrated before (this migration is recorded as applied
 * there and does not run again; the name is the history's key and stays).
 */
export const m0012Marketplace: Migration = {
  name: "0012-marketplace",
  async up(qi) {
    await qi.createTable("marketplace_publishers", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.STRING(120), allowNull: false },
      email: { type: DataTypes.STRING(190), allowNull: false },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false },
      tokenHint: { type: DataTypes.STRING(16), allowNull: true },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      createdBy: { type: DataTypes.INTEGER, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("marketplace_publishers", ["email"], { unique: true, name: "marketplace_publishers_email" });
    await qi.addIndex("marketplace_publishers", ["tokenHash"], { unique: true, name: "marketplace_publishers_token" });

    await qi.createTable("marketplace_plugins", {
      id: { type: DataTypes.STRING(64), primaryKey: true },
      publisherId: { type: DataTypes.INTEGER, allowNull: false },
      kind: { type: DataTypes.STRING(16), allowNull: false },
      tier: { type: DataTypes.STRING(16), allowNull: false },
      displayName: { type: DataTypes.TEXT, allowNull: false },
      description: { type: DataTypes.STRING(500), allowNull: true },
      latestVersion: { type: DataTypes.STRING(64), allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("marketplace_plugins", ["publisherId"], { name: "marketplace_plugins_publisher" });

    await qi.createTable("marketplace_versions", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      pluginId: { type: DataTypes.STRING(64), allowNull: false },
      version: { type: DataTypes.STRING(64), allowNull: false },
      checksum: { type: DataTypes.STRING(64), allowNull: false },
      size: { type: DataTypes.INTEGER, allowNull: false },
      coreApi: { type: DataTypes.STRING(64), allowNull: false },
      tier: { type: DataTypes.STRING(16), allowNull: false },
      manifest: { type: DataTypes.TEXT, allowNull: false },
      changelog: { type: DataTypes.TEXT, allowNull: true },
      readme: { type: DataTypes.TEXT, allowNull: true },
      publishedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("marketplace_versions", ["pluginId", "version"], { unique: true, name: "marketplace_versions_plugin_version" });
  },
  async down(qi) {
    await qi.dropTable("marketplace_versions");
    await qi.dropTable("marketplace_plugins");
    await qi.dropTable("marketplace_publishers");
  },
};
