/**
 * Where each plugin's own data lives, and its migrations run before its service starts
 * (ARCHITECTURE.md, "A plugin's own data"). Only plugins that ship a migrations/ folder get a
 * database:
 * - embedded (SQLite core): the file DATA_DIR/plugin-data/<id>.sqlite;
 * - MySQL/MariaDB: a database of its own, `<core database>__<id with - as _>`, created by the
 *   host with the core's credentials (a user of its own per plugin is left for the threat
 *   model's work: today the plugin's URL carries the core's user).
 *
 * Whoever loads the plugin runs its migrations (the loader, in the core's process or in a
 * plugin node) under the SDK runner's lock, so two nodes starting together apply each once.
 * A plugin installed from the marketplace runs in a node without the core's DATABASE_URL: the
 * host creates its database and hands the node only that address (PLUGIN_DATABASE_URL).
 */
import * as path from "node:path";
import { createHash } from "node:crypto";
import type { AppConfig } from "@openatende/config";
import { ensurePluginDatabase, hasPluginMigrations, loadPluginMigrations, PluginDatabaseAddress, runPluginMigrations } from "@openatende/plugin-sdk";

/** The folder of the plugins' SQLite files under DATA_DIR. */
export const PLUGIN_DATA_DIR = "plugin-data";

/** `<core>__<id with - as _>`, shortened with a hash when it would pass MySQL's 64 characters. */
export function pluginDatabaseName(coreDatabase: string, id: string): string {
  const name = `${coreDatabase}__${id.replace(/-/g, "_")}`;
  if (name.length <= 64) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 10);
  return `${name.slice(0, 53)}_${hash}`;
}

/** The address of plugin `id`'s own database in this deployment. */
export function pluginDatabaseOf(config: AppConfig, id: string): PluginDatabaseAddress {
  const db = config.database;
  if (db.dialect === "sqlite") return { dialect: "sqlite", url: `sqlite:${path.join(config.dataDir, PLUGIN_DATA_DIR, `${id}.sqlite`)}` };
  const auth = `${encodeURIComponent(db.username ?? "root")}${db.password ? `:${encodeURIComponent(db.password)}` : ""}@`;
  return { dialect: "mysql", url: `mysql://${auth}${db.host}:${db.port}/${pluginDatabaseName(db.database!, id)}` };
}

export interface PluginDataPrep {
  /** The address for the plugin's context; undefined when it ships no migrations. */
  database?: PluginDatabaseAddress;
  /** The migrations this start applied. */
  applied: string[];
}

/**
 * What the loader asks before starting a plugin's service: creates its database, runs its
 * pending migrations and answers the address its context gets. Throws (the plugin is refused)
 * when a migration fails or cannot be loaded.
 */
export type PluginDataPreparer = (plugin: { id: string; folder: string }) => Promise<PluginDataPrep>;

/**
 * The preparer of a process: from the core's database (the core's process, a plugin node of
 * PLUGINS_EXTERNAL), or from the one address the host gave this node (an installed plugin).
 */
export function pluginDataPreparer(config: AppConfig, log: (line: string) => void = () => undefined): PluginDataPreparer {
  return async ({ id, folder }) => {
    if (!hasPluginMigrations(folder)) return { applied: [] };
    // An installed plugin's node: the one address the host gave it (PLUGIN_DATABASE_URL).
    const database: PluginDatabaseAddress = config.pluginDatabaseUrl ? { dialect: config.pluginDatabaseUrl.startsWith("sqlite:") ? "sqlite" : "mysql", url: config.pluginDatabaseUrl } : pluginDatabaseOf(config, id);
    await ensurePluginDatabase(database);
    const { applied } = await runPluginMigrations(database, loadPluginMigrations(folder), { log: (l) => log(`${id}: ${l}`) });
    return { database, applied };
  };
}
