/**
 * What other services and packages may know of the plugin host: the actions of the plugins
 * service they call (besides those the SDK declares for plugins, plugin-sdk helpers.ts), and
 * what the host asks of the catalogue it installs from.
 */

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
  /**
   * The catalogue the plugin host installs from: a service package answers it (the
   * marketplace), checked against the checksum it recorded.
   */
  "marketplace.archive": { params: { id: string; version: string }; result: CatalogueArchive };
}
