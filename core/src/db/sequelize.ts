import * as fs from "node:fs";
import * as path from "node:path";
import { Sequelize, Options } from "sequelize";
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
    });
    // Sequelize opens one SQLite connection per transaction: each must wait for the writer
    // instead of failing at once with SQLITE_BUSY.
    sequelize.addHook("afterConnect", (connection: unknown) => {
      (connection as { configure(opt: "busyTimeout", ms: number): void }).configure("busyTimeout", 15000);
    });
    return sequelize;
  }
  return new Sequelize(db.database!, db.username!, db.password, {
    ...common,
    dialect: "mysql",
    host: db.host,
    port: db.port,
    pool: { max: db.poolMax, min: 0, idle: 10000, acquire: 30000 },
    dialectOptions: { charset: "utf8mb4", supportBigNumbers: true, dateStrings: false, timezone: "Z" },
    timezone: "+00:00",
  });
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
