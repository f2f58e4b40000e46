/**
 * What other services and packages may know of the plugin host: the actions of the plugins
 * service they call (besides those the SDK declares for plugins, plugin-sdk helpers.ts), and
 * what the host asks of the catalogue it installs from.
 */
import type { IsEnabledResult } from "@openatende/plugin-sdk";
import type { ErrorCode } from "../errors/codes";

/** What GET /plugins/installed (plugins.installed) answers per plugin installed from the marketplace. */
export interface InstalledView {
  id: string;
  version: string;
  previousVersion: string | null;
  /** Every version unpacked on disk, newest first. */
  versions: string[];
  kind: string | null;
  tier: string | null;
  displayName: Record<string, string> | null;
  /** Its service is on the broker now. */
  running: boolean;
  /** Connections (every tenant) of the channel type it serves. */
  connections: number;
}

/** One published version's archive, as the catalogue hands it to the installer. */
export interface CatalogueArchive {
  id: string;
  version: string;
  checksum: string;
  size: number;
  /** The .tgz, base64. */
  archive: string;
}

export interface PluginsActions {
  "plugins.installed": { params: Record<string, never>; result: InstalledView[] };
  /** The folder of a plugin's built UI remote (the gateway serves its files); null when it has none. */
  "plugins.uiDir": { params: { id: string }; result: string | null };
  /**
   * The installation's Redis prefix (`<namespace>:<installation id>:`, lib/redis.ts): a plugin
   * node started without INSTALLATION_PREFIX asks it, its plugins' keys go under it.
   */
  "plugins.installationPrefix": { params: Record<string, never>; result: string };
  /**
   * The catalogue the plugin host installs from: a service package answers it (the
   * marketplace), checked against the checksum it recorded.
   */
  "marketplace.archive": { params: { id: string; version: string }; result: CatalogueArchive };
}

/**
 * The error each "no" of plugins.availability is thrown as. Shared by the plugin host (which
 * throws them) and by the services that stop a connection for the same reason (connections,
 * channels), so they read it here, not in the plugins service.
 */
export const AVAILABILITY_ERRORS: Record<NonNullable<IsEnabledResult["reason"]>, ErrorCode> = {
  unknown: "ERR_PLUGIN_NOT_FOUND",
  refused: "ERR_PLUGIN_UNAVAILABLE",
  version: "ERR_PLUGIN_VERSION_UNAVAILABLE",
  not_allowed: "ERR_PLUGIN_NOT_ALLOWED",
  disabled: "ERR_PLUGIN_DISABLED",
  tier: "ERR_LICENSE_TIER_REQUIRED",
};
