/**
 * Sequelize models over the marketplace's tables (its migration 0012-marketplace). Defined
 * per Sequelize instance with `sequelize.define` (no class shared between instances: a test
 * process runs several cores, each with a Sequelize of its own).
 *
 * What is installed on the platform is the plugin host's (plugin_installs): the catalogue asks
 * it through `plugins.installed`, it has no model of that table.
 */
import { DataTypes, Model, ModelStatic, Sequelize } from "sequelize";

export interface PublisherRow {
  id: number;
  name: string;
  email: string;
  /** SHA-256 hex of the publisher's token; the token itself is shown once. */
  tokenHash: string;
  /** The token's first characters, to tell tokens apart in logs and screens. */
  tokenHint: string | null;
  active: boolean;
  createdBy: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface MarketplacePluginRow {
  id: string;
  publisherId: number;
  kind: string;
  tier: string;
  /** JSON text: Record<locale, string>. */
  displayName: string;
  description: string | null;
  latestVersion: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface MarketplaceVersionRow {
  id: number;
  pluginId: string;
  version: string;
  checksum: string;
  size: number;
  coreApi: string;
  tier: string;
  /** JSON text: the validated PluginManifest. */
  manifest: string;
  changelog: string | null;
  readme: string | null;
  publishedAt: Date;
}

export type PublisherModel = ModelStatic<Model<PublisherRow, Partial<PublisherRow>>>;
export type MarketplacePluginModel = ModelStatic<Model<MarketplacePluginRow, Partial<MarketplacePluginRow>>>;
export type MarketplaceVersionModel = ModelStatic<Model<MarketplaceVersionRow, Partial<MarketplaceVersionRow>>>;

export interface MarketplaceModels {
  Publisher: PublisherModel;
  Plugin: MarketplacePluginModel;
  Version: MarketplaceVersionModel;
}

export const MODEL_NAMES = {
  Publisher: "MarketplacePublisher",
  Plugin: "MarketplacePlugin",
  Version: "MarketplaceVersion",
} as const;

export function defineMarketplaceModels(sequelize: Sequelize): MarketplaceModels {
  const m = sequelize.models;
  if (!m[MODEL_NAMES.Publisher]) {
    sequelize.define(
      MODEL_NAMES.Publisher,
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        name: { type: DataTypes.STRING(120), allowNull: false },
        email: { type: DataTypes.STRING(190), allowNull: false },
        tokenHash: { type: DataTypes.STRING(64), allowNull: false },
        tokenHint: { type: DataTypes.STRING(16), allowNull: true },
        active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        createdBy: { type: DataTypes.INTEGER, allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { tableName: "marketplace_publishers" },
    );
  }
  if (!m[MODEL_NAMES.Plugin]) {
    sequelize.define(
      MODEL_NAMES.Plugin,
      {
        id: { type: DataTypes.STRING(64), primaryKey: true },
        publisherId: { type: DataTypes.INTEGER, allowNull: false },
        kind: { type: DataTypes.STRING(16), allowNull: false },
        tier: { type: DataTypes.STRING(16), allowNull: false },
        displayName: { type: DataTypes.TEXT, allowNull: false },
        description: { type: DataTypes.STRING(500), allowNull: true },
        latestVersion: { type: DataTypes.STRING(64), allowNull: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { tableName: "marketplace_plugins" },
    );
  }
  if (!m[MODEL_NAMES.Version]) {
    sequelize.define(
      MODEL_NAMES.Version,
      {
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
      },
      { tableName: "marketplace_versions", timestamps: false },
    );
  }
  return {
    Publisher: m[MODEL_NAMES.Publisher] as PublisherModel,
    Plugin: m[MODEL_NAMES.Plugin] as MarketplacePluginModel,
    Version: m[MODEL_NAMES.Version] as MarketplaceVersionModel,
  };
}
