import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * The marketplace and plugins installed from it:
 * - marketplace_publishers: third parties that publish plugins; their token is kept as a
 *   SHA-256 hash (shown once when made or rotated).
 * - marketplace_plugins: one row per plugin id, owned by the publisher that first published it.
 * - marketplace_versions: one row per published version (UNIQUE pluginId + version), with the
 *   archive's checksum and size, its manifest, changelog and readme. The archive itself is a
 *   file under DATA_DIR/marketplace/<id>/<version>.tgz.
 * - plugin_installs: a plugin installed on this platform from the marketplace: the version
 *   that runs (unpacked under DATA_DIR/plugins/<id>/<version>/, in a plugin node of its own),
 *   the one it replaced (rollback) and every version unpacked.
 */
export const m0012: Migration = {
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
    await qi.dropTable("marketplace_versions");
    await qi.dropTable("marketplace_plugins");
    await qi.dropTable("marketplace_publishers");
  },
};
