import * as fs from "node:fs";
import * as path from "node:path";
import { Sequelize, Options, Transaction } from "sequelize";
import type { AppConfig } from "@openatende/config";

/**
 * One Sequelize instance per process, shared by the services of that process. Each service
 * defines and reads only its own models; other services reach them through actions.
 */
export function createSequelize(config: AppConfig, logging: false | ((sql: string) => void) = false): Sequelize {
  const db = config.database;
  const common: Options = {
    logging,
    define: { freezeTableName: false, underscored: false },
    retry: { max: 10, match: [/SQLITE_BUSY/, /ER_LOCK_DEADLOCK/, /Deadlock found/] },
  };
  if (db.dialect === "sqlite") {
    if (db.storage && db.storage !== ":memory:") fs.mkdirSync(path.dirname(db.storage), { recursive: true });
    const sequelize = new Sequelize({
      ...common,
      dialect: "sqlite",
      storage: db.storage,
      // A transaction takes the write lock when it begins: a DEFERRED one that reads and
      // then writes fails at once with SQLITE_BUSY when another connection wrote meanwhile.
      transactionType: Transaction.TYPES.IMMEDIATE,
    });
    serialiseSqliteTransactions(sequelize);
    waitForSqliteLocks(sequelize);
    return sequelize;
  }
  const sequelize = new Sequelize(db.database!, db.username!, db.password, {
    ...common,
    dialect: "mysql",
    host: db.host,
    port: db.port,
    pool: { max: db.poolMax, min: 0, idle: 10000, acquire: 30000 },
    dialectOptions: { charset: "utf8mb4", supportBigNumbers: true, dateStrings: false, timezone: "Z" },
    timezone: "+00:00",
  });
  noRetryInsideTransactions(sequelize);
  return sequelize;
}

/**
 * A deadlock on MariaDB rolls back the whole transaction, and Sequelize marks it finished:
 * retrying the one statement (the `retry` option above) then fails with "rollback has been
 * called on this transaction", which hides the deadlock from the code that owns the
 * transaction and would retry all of it. Inside a transaction a statement runs once; its
 * deadlock reaches the caller as itself (errno 1213). Statements outside one keep retrying.
 */
function noRetryInsideTransactions(sequelize: Sequelize): void {
  const original = sequelize.query.bind(sequelize) as (sql: unknown, options?: Record<string, unknown>) => Promise<unknown>;
  (sequelize as unknown as { query: typeof original }).query = (sql, options) => {
    // Model methods copy the instance's `retry` into every statement's options: override it.
    if (options?.transaction) options.retry = { ...(options.retry as object | undefined), max: 1 };
    return original(sql, options);
  };
}

/**
 * SQLite has one writer. Sequelize opens a connection per transaction, so concurrent
 * transactions would spin on SQLITE_BUSY; in the embedded (single-process) mode they queue
 * here instead, one after the other, for every service of the process.
 */
function serialiseSqliteTransactions(sequelize: Sequelize): void {
  const original = sequelize.transaction.bind(sequelize) as (...a: unknown[]) => Promise<unknown>;
  let tail: Promise<unknown> = Promise.resolve();
  (sequelize as unknown as { transaction: (...a: unknown[]) => Promise<unknown> }).transaction = (...args: unknown[]) => {
    const run = tail.then(() => original(...args));
    tail = run.catch(() => undefined);
    return run;
  };
}

/**
 * Sequelize's SQLite connection manager opens connections without running the afterConnect
 * hook; give each new connection a busy timeout so a plain write waits for a transaction
 * in progress instead of failing.
 */
function waitForSqliteLocks(sequelize: Sequelize): void {
  const cm = (sequelize as unknown as { connectionManager: { getConnection: (o?: unknown) => Promise<unknown> } }).connectionManager;
  const getConnection = cm.getConnection.bind(cm);
  const configured = new WeakSet<object>();
  cm.getConnection = async (options?: unknown) => {
    const conn = (await getConnection(options)) as { configure?: (k: "busyTimeout", ms: number) => void };
    if (conn && typeof conn === "object" && !configured.has(conn)) {
      conn.configure?.("busyTimeout", 15000);
      configured.add(conn);
    }
    return conn;
  };
}

/** SQLite settings that make the embedded file fast and safe for a single process. */
export async function prepareConnection(sequelize: Sequelize): Promise<void> {
  if (sequelize.getDialect() === "sqlite") {
    await sequelize.query("PRAGMA journal_mode = WAL");
    await sequelize.query("PRAGMA synchronous = NORMAL");
    await sequelize.query("PRAGMA foreign_keys = ON");
    await sequelize.query("PRAGMA busy_timeout = 10000");
  }
}

/** Creates the MySQL/MariaDB database named in the URL when it does not exist yet. */
export async function ensureDatabaseExists(config: AppConfig): Promise<void> {
  const db = config.database;
  if (db.dialect === "sqlite") return;
  const admin = new Sequelize("", db.username!, db.password, {
    dialect: "mysql",
    host: db.host,
    port: db.port,
    logging: false,
  });
  try {
    await admin.query(`CREATE DATABASE IF NOT EXISTS \`${db.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await admin.close();
  }
}
