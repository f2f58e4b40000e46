/**
 * A plugin's own database, opened from its address: one Sequelize instance (raw SQL only, no
 * models), the host's two bookkeeping tables (`_schema`: what each table holds; `_migrations`:
 * what ran), the table definitions cached, and transactions as each engine needs them:
 * - SQLite: WAL, `synchronous = FULL` (a commit is on disk when it returns: session keys must
 *   survive a power cut), BEGIN IMMEDIATE, and this process's transactions one after the
 *   other (one writer; another process waits on the busy timeout);
 * - MySQL/MariaDB: READ COMMITTED (no gap locks between the many small upserts), utf8mb4 with
 *   binary collation (keys are case-sensitive on both engines), datetimes in UTC.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as SequelizeNs from "sequelize";
import type { Sequelize, Transaction } from "sequelize";
import type { PluginData, PluginDatabaseAddress, TableDef, TenantData } from "./contract";
import { PluginDataError } from "./errors";
import { Dialect, q } from "./sql";
import { ScopedData } from "./repository";

let sequelizeLib: typeof SequelizeNs | undefined;
/** Loaded on first use: a plugin that keeps no data of its own never loads the drivers. */
function lib(): typeof SequelizeNs {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (sequelizeLib ??= require("sequelize") as typeof SequelizeNs);
}

const SQLITE_BUSY_MS = 60_000;
const DATABASE_NAME = /^[A-Za-z0-9_]{1,64}$/;

export interface ParsedAddress {
  dialect: Dialect;
  storage?: string;
  host?: string;
  port?: number;
  database?: string;
  username?: string;
  password?: string;
  poolMax: number;
}

/** An address given as its URL alone: the dialect is the URL's scheme. */
export function addressOf(address: PluginDatabaseAddress | string): PluginDatabaseAddress {
  if (typeof address !== "string") return address;
  return { dialect: address.startsWith("sqlite:") ? "sqlite" : "mysql", url: address };
}

/** Reads `sqlite:/file` or `mysql://user:pass@host:port/db`; a bad one is ERR_PLUGIN_DATA_URL. */
export function parseAddress(address: PluginDatabaseAddress): ParsedAddress {
  const bad = (why: string) => new PluginDataError("ERR_PLUGIN_DATA_URL", `the plugin database address ${why}`);
  if (!address || typeof address.url !== "string") throw bad("needs a url");
  const poolMax = address.poolMax ?? 5;
  if (!Number.isInteger(poolMax) || poolMax < 2) throw bad("needs poolMax of at least 2");
  if (address.dialect === "sqlite") {
    if (!address.url.startsWith("sqlite:")) throw bad(`for sqlite must start with sqlite: (got ${address.url.split(":")[0]}:)`);
    const file = address.url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "");
    if (!file) throw bad("names no SQLite file (sqlite:/path/to/file.sqlite)");
    return { dialect: "sqlite", storage: file === ":memory:" ? file : path.resolve(file), poolMax };
  }
  if (address.dialect !== "mysql") throw bad(`has an unknown dialect ${JSON.stringify(address.dialect)} (sqlite or mysql)`);
  let u: URL;
  try {
    u = new URL(address.url);
  } catch {
    throw bad("is not a URL (mysql://user:password@host:3306/database)");
  }
  if (u.protocol !== "mysql:" && u.protocol !== "mariadb:") throw bad(`for mysql must start with mysql:// (got ${u.protocol})`);
  const database = decodeURIComponent(u.pathname.replace(/^\//, ""));
  if (!DATABASE_NAME.test(database)) throw bad("must name a database of letters, digits and _ (at most 64)");
  return {
    dialect: "mysql",
    host: u.hostname || "127.0.0.1",
    port: u.port ? Number(u.port) : 3306,
    database,
    username: decodeURIComponent(u.username || "root"),
    password: decodeURIComponent(u.password || ""),
    poolMax,
  };
}

/** Strict: a value that does not fit is an error, never silently cut or zeroed. */
const SQL_MODE = "STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION";

function mysqlServer(a: ParsedAddress, database: string | undefined, logging = false): Sequelize {
  const { Sequelize } = lib();
  return new Sequelize(database ?? "", a.username!, a.password, {
    hooks: {
      afterConnect: (connection: unknown) =>
        new Promise<void>((resolve, reject) =>
          (connection as { query(sql: string, cb: (err: Error | null) => void): void }).query(`SET SESSION sql_mode = '${SQL_MODE}'`, (err) => (err ? reject(err) : resolve())),
        ),
    },
    dialect: "mysql",
    host: a.host,
    port: a.port,
    logging,
    pool: { max: a.poolMax, min: 0, idle: 10_000, acquire: 30_000 },
    // FOUND_ROWS: an UPDATE counts the rows it matched, as on SQLite. dateStrings: DATETIME
    // comes back as its UTC text, read here, whatever the driver's zone.
    dialectOptions: { charset: "utf8mb4", supportBigNumbers: true, dateStrings: true, flags: "+FOUND_ROWS", maxPreparedStatements: 256 },
    timezone: "+00:00",
  });
}

/** Creates the plugin's database when it is not there yet (the SQLite file's folder; CREATE DATABASE on MySQL). */
export async function ensurePluginDatabase(address: PluginDatabaseAddress | string): Promise<void> {
  const a = parseAddress(addressOf(address));
  if (a.dialect === "sqlite") {
    if (a.storage !== ":memory:") fs.mkdirSync(path.dirname(a.storage!), { recursive: true });
    return;
  }
  const server = mysqlServer(a, undefined);
  try {
    await server.query(`CREATE DATABASE IF NOT EXISTS ${q("mysql", a.database!)} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  } finally {
    await server.close();
  }
}

/** Removes the plugin's database (its SQLite files, or DROP DATABASE): for tests and uninstalls. */
export async function dropPluginDatabase(address: PluginDatabaseAddress | string): Promise<void> {
  const a = parseAddress(addressOf(address));
  if (a.dialect === "sqlite") {
    if (a.storage !== ":memory:") for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(a.storage + suffix, { force: true });
    return;
  }
  const server = mysqlServer(a, undefined);
  try {
    await server.query(`DROP DATABASE IF EXISTS ${q("mysql", a.database!)}`);
  } finally {
    await server.close();
  }
}

/**
 * Each connection Sequelize opens (it opens one per transaction on SQLite) waits for a lock
 * instead of failing, and syncs its commits.
 */
function tuneSqliteConnections(sequelize: Sequelize): void {
  const cm = (sequelize as unknown as { connectionManager: { getConnection(o?: unknown): Promise<unknown> } }).connectionManager;
  const getConnection = cm.getConnection.bind(cm);
  const tuned = new WeakSet<object>();
  cm.getConnection = async (options?: unknown) => {
    const conn = (await getConnection(options)) as { configure(k: "busyTimeout", ms: number): void; exec(sql: string, cb: (err: Error | null) => void): void };
    if (conn && typeof conn === "object" && !tuned.has(conn)) {
      tuned.add(conn);
      conn.configure("busyTimeout", SQLITE_BUSY_MS);
      await new Promise<void>((resolve, reject) => conn.exec("PRAGMA synchronous = FULL", (err) => (err ? reject(err) : resolve())));
    }
    return conn;
  };
}

export interface TableInfo extends TableDef {
  name: string;
}

type Bind = Array<string | number | Buffer | null>;

const isDeadlock = (err: unknown) => {
  const e = err as { parent?: { errno?: number }; original?: { errno?: number } };
  return e?.parent?.errno === 1213 || e?.original?.errno === 1213;
};

export class SqlPluginData implements PluginData {
  readonly dialect: Dialect;
  private closed = false;
  private readonly tables = new Map<string, TableInfo>();
  /** SQLite: this process's transactions, one after the other. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly sequelize: Sequelize,
    readonly address: ParsedAddress,
  ) {
    this.dialect = address.dialect;
  }

  /** Opens the database (it must exist: see ensurePluginDatabase) and its bookkeeping tables. */
  static async open(address: PluginDatabaseAddress): Promise<SqlPluginData> {
    const a = parseAddress(address);
    let sequelize: Sequelize;
    if (a.dialect === "sqlite") {
      if (a.storage !== ":memory:") fs.mkdirSync(path.dirname(a.storage!), { recursive: true });
      const { Sequelize } = lib();
      sequelize = new Sequelize({ dialect: "sqlite", storage: a.storage, logging: false });
      tuneSqliteConnections(sequelize);
    } else {
      sequelize = mysqlServer(a, a.database);
    }
    const data = new SqlPluginData(sequelize, a);
    try {
      if (a.dialect === "sqlite") await sequelize.query("PRAGMA journal_mode = WAL");
      await data.createHostTables();
    } catch (err) {
      await sequelize.close().catch(() => undefined);
      throw new PluginDataError("ERR_PLUGIN_DATA_URL", `the plugin database cannot be opened: ${(err as Error).message}`);
    }
    return data;
  }

  private async createHostTables(): Promise<void> {
    const d = this.dialect;
    const tail = d === "mysql" ? " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin" : "";
    const text = d === "mysql" ? "LONGTEXT" : "TEXT";
    await this.sequelize.query(`CREATE TABLE IF NOT EXISTS ${q(d, "_schema")} (${q(d, "tableName")} VARCHAR(64) NOT NULL PRIMARY KEY, ${q(d, "definition")} ${text} NOT NULL)${tail}`);
    await this.sequelize.query(`CREATE TABLE IF NOT EXISTS ${q(d, "_migrations")} (${q(d, "name")} VARCHAR(191) NOT NULL PRIMARY KEY, ${q(d, "ranAt")} VARCHAR(32) NOT NULL)${tail}`);
  }

  forTenant(tenantId: number): TenantData {
    if (!Number.isSafeInteger(tenantId) || tenantId <= 0) throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `tenantId must be a positive integer, not ${JSON.stringify(tenantId)}`);
    return new ScopedData(this, tenantId);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.catch(() => undefined);
    await this.sequelize.close();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private assertOpen(): void {
    if (this.closed) throw new PluginDataError("ERR_PLUGIN_DATA_CLOSED", "the plugin's data was closed (its service stopped)");
  }

  async select<T = Record<string, unknown>>(sql: string, bind: Bind = [], tx?: Transaction): Promise<T[]> {
    this.assertOpen();
    const { QueryTypes } = lib();
    return (await this.sequelize.query(sql, { bind: bind.length ? bind : undefined, transaction: tx, type: QueryTypes.SELECT, raw: true })) as T[];
  }

  /** Runs a statement; answers the rows it changed for UPDATE and DELETE (0 otherwise). */
  async run(sql: string, bind: Bind = [], tx?: Transaction, kind: "update" | "delete" | "other" = "other"): Promise<number> {
    this.assertOpen();
    const { QueryTypes } = lib();
    const type = kind === "update" ? QueryTypes.BULKUPDATE : kind === "delete" ? QueryTypes.BULKDELETE : QueryTypes.RAW;
    const out = await this.sequelize.query(sql, { bind: bind.length ? bind : undefined, transaction: tx, type, raw: true });
    return kind === "other" ? 0 : Number(out ?? 0);
  }

  /**
   * Runs fn in one transaction (committed when fn resolves, rolled back when it throws). With
   * `retryDeadlocks`, a MySQL deadlock runs fn again (up to 3 times): only for work that is
   * safe to repeat, the repository's own upserts.
   */
  async inTransaction<T>(fn: (tx: Transaction) => Promise<T>, opts: { retryDeadlocks?: boolean } = {}): Promise<T> {
    this.assertOpen();
    const once = async () => {
      const { Transaction: Tx } = lib();
      const tx = await this.sequelize.transaction(
        this.dialect === "sqlite" ? { type: Tx.TYPES.IMMEDIATE } : { isolationLevel: Tx.ISOLATION_LEVELS.READ_COMMITTED },
      );
      try {
        const out = await fn(tx);
        await tx.commit();
        return out;
      } catch (err) {
        if (!(tx as unknown as { finished?: string }).finished) await tx.rollback().catch(() => undefined);
        throw err;
      }
    };
    const attempt = () => (opts.retryDeadlocks ? this.retryingDeadlocks(once) : once());
    if (this.dialect !== "sqlite") return attempt();
    const run = this.queue.then(attempt);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Runs fn again (up to 3 times) when MySQL picked it as a deadlock's victim: for work that is safe to repeat. */
  async retryingDeadlocks<T>(fn: () => Promise<T>): Promise<T> {
    for (let i = 0; ; i++) {
      try {
        return await fn();
      } catch (err) {
        if (!isDeadlock(err) || i >= 3) throw err;
      }
    }
  }

  /** A table's definition as its migrations left it (ERR_PLUGIN_DATA_UNKNOWN_TABLE when none made it). */
  /**
   * Read in `tx` when one is given: a transaction already holds a pooled connection, and
   * asking the pool for another while every connection is held by such a transaction would
   * wait for ever (the repository's first statements on a table inside transactions).
   * `committed`: the definition is settled (a repository's, not a migration's), so it is kept.
   */
  async tableInfo(name: string, tx?: Transaction, committed = false): Promise<TableInfo> {
    const hit = this.tables.get(name);
    if (hit) return hit;
    const rows = await this.select<{ definition: string }>(`SELECT ${q(this.dialect, "definition")} FROM ${q(this.dialect, "_schema")} WHERE ${q(this.dialect, "tableName")} = $1`, [name], tx);
    if (!rows.length) throw new PluginDataError("ERR_PLUGIN_DATA_UNKNOWN_TABLE", `table ${name} does not exist: no migration of the plugin created it`, { table: name });
    const info = { ...(JSON.parse(rows[0].definition) as TableDef), name };
    // Within a migration's transaction the definition may still change: only committed ones are kept.
    if (!tx || committed) this.tables.set(name, info);
    return info;
  }

  /** Forgets the cached definitions (after migrations ran). */
  forgetTables(): void {
    this.tables.clear();
  }
}
