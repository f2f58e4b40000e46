/**
 * Where each plugin's own data lives, and its migrations run before its service starts
 * (ARCHITECTURE.md, "A plugin's own data"). Only plugins that ship a migrations/ folder get a
 * database:
 * - embedded (SQLite core): the file DATA_DIR/plugin-data/<id>.sqlite;
 * - MySQL/MariaDB: a database of its own, `<core database>__<id with - as _>`, created by the
 *   host with the core's credentials. An installed plugin's node is given a MariaDB user of its
 *   own with privileges on that database only (ensurePluginDatabaseUser; THREAT-MODEL.md): its
 *   name is a hash of the database's, its password an HMAC of the core's secret, so the host
 *   keeps nothing and gives the same address on every start.
 *
 * Whoever loads the plugin runs its migrations (the loader, in the core's process or in a
 * plugin node) under the SDK runner's lock, so two nodes starting together apply each once.
 * A plugin installed from the marketplace runs in a node without the core's DATABASE_URL: the
 * host creates its database and hands the node only that address (PLUGIN_DATABASE_URL).
 */
import * as path from "node:path";
import { createHash, createHmac } from "node:crypto";
import { createConnection } from "mysql2/promise";
import type { AppConfig } from "@openatende/config";
import { busKeyOf } from "../middlewares/caller-identity";
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

/** The MariaDB user of a plugin database: `oap_` and a hash of the database's name. */
export function pluginDatabaseUserName(database: string): string {
  return `oap_${createHash("sha256").update(database).digest("hex").slice(0, 24)}`;
}

/** The MariaDB user of plugin `id`'s own database: `oap_<hash>` (within MySQL's 32 characters), and its password. */
export function pluginDatabaseUser(config: AppConfig, id: string): { user: string; password: string } {
  const database = pluginDatabaseName(config.database.database!, id);
  const user = pluginDatabaseUserName(database);
  const password = createHmac("sha256", busKeyOf(config.jwtSecret)).update(`plugin-database/${database}`).digest("base64url");
  return { user, password };
}

/**
 * The address an installed plugin's node gets: its own database, as its own user on MariaDB
 * (ensurePluginDatabaseUser made it), or its SQLite file (the file system does not keep a
 * process of the same OS user from the core's file: THREAT-MODEL.md).
 */
export function pluginOwnDatabaseOf(config: AppConfig, id: string): PluginDatabaseAddress {
  const own = pluginDatabaseOf(config, id);
  if (own.dialect === "sqlite") return own;
  const { user, password } = pluginDatabaseUser(config, id);
  const db = config.database;
  return { dialect: "mysql", url: `mysql://${user}:${encodeURIComponent(password)}@${db.host}:${db.port}/${pluginDatabaseName(db.database!, id)}` };
}

/**
 * Creates (or sets again) plugin `id`'s MariaDB user, with every privilege on its own database
 * and none elsewhere, using the core's credentials (which need CREATE USER and the grant
 * option on the plugins' databases). Nothing to do on SQLite.
 */
export async function ensurePluginDatabaseUser(config: AppConfig, id: string): Promise<void> {
  const db = config.database;
  if (db.dialect === "sqlite") return;
  const { user, password } = pluginDatabaseUser(config, id);
  const conn = await createConnection({ host: db.host, port: db.port, user: db.username, password: db.password || undefined });
  try {
    await conn.query("CREATE USER IF NOT EXISTS ?@'%' IDENTIFIED BY ?", [user, password]);
    await conn.query("ALTER USER ?@'%' IDENTIFIED BY ?", [user, password]);
    // In a grant, _ and % are wildcards: escaped, or "core__a_b" would also open "core__acb".
    const pattern = pluginDatabaseName(db.database!, id).replace(/[_%]/g, "\\$&");
    await conn.query(`GRANT ALL PRIVILEGES ON \`${pattern}\`.* TO ?@'%'`, [user]);
  } finally {
    await conn.end();
  }
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
