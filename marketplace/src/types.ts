/** What the marketplace's actions take and answer (the shell's marketplace pages read these shapes). */
import type { Sequelize } from "sequelize";
import type { AppConfig } from "@openatende/config";
import type { PluginManifest } from "@openatende/plugin-sdk";
import type { CatalogueArchive } from "@openatende/core";

export interface MarketplaceDeps {
  config: AppConfig;
  sequelize: Sequelize;
}

export interface MarketplaceOptions {
  /** Largest archive accepted, bytes (default config.marketplaceMaxArchiveBytes). */
  maxArchiveBytes?: number;
  /** Where archives are kept (default DATA_DIR/marketplace). */
  storageDir?: string;
}

export interface Publisher {
  id: number;
  name: string;
  email: string;
  active: boolean;
  createdAt: Date;
}

export interface InstalledInfo {
  version: string;
  previousVersion: string | null;
  versions: string[];
}

export interface CatalogueEntry {
  id: string;
  kind: string;
  tier: string;
  displayName: Record<string, string>;
  description: string | null;
  latestVersion: string;
  publisher: { id: number; name: string };
  versions: number;
  updatedAt: Date;
  installed: InstalledInfo | null;
}

export interface CatalogueVersion {
  version: string;
  coreApi: string;
  tier: string;
  checksum: string;
  size: number;
  changelog: string | null;
  publishedAt: Date;
  /** The version's coreApi range accepts this core's API version. */
  compatible: boolean;
}

export type CatalogueDetail = Omit<CatalogueEntry, "versions"> & {
  readme: string | null;
  manifest: PluginManifest;
  versions: CatalogueVersion[];
};

export interface PublishResult {
  id: string;
  version: string;
  checksum: string;
  size: number;
  publishedAt: Date;
}

/** What marketplace.archive answers: the core's contract for the catalogue it installs from. */
export type ArchiveDownload = CatalogueArchive;

export const PUBLISHER_TOKEN_HEADER = "x-publisher-token";
export const PUBLISHER_TOKEN_PREFIX = "mkp_";
