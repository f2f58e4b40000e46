/**
 * A test core's MariaDB database, made from a migrated template instead of migrating it again.
 *
 * Every test file starts at least one core on a fresh database, and migrating one took 7–8 s of
 * DDL (twenty-odd core migrations, each table's file created and altered), held under the
 * migrator's server-wide lock, so the two jest workers also waited for each other. The first
 * core of a run migrates a template database once (`oa_tpl_<hash of the migrations>`); each
 * fresh database is then its tables' definitions (SHOW CREATE TABLE) and rows copied from it,
 * which takes a fraction of that. The migrator then finds every migration applied, as it would
 * on a restarted installation. The installation id (migration 0015) is drawn again, so test
 * cores never share a Redis prefix.
 *
 * The template's name carries a hash of the migrations' names and code: a changed or new
 * migration makes a new template (older ones are dropped when it is made). Tests of the
 * migrator itself (migrations.test.ts) make their databases themselves.
 */
import { createHash, randomUUID } from "node:crypto";
import * as path from "node:path";
import { createConnection, type Connection } from "mysql2/promise";
import { Sequelize } from "sequelize";
import { hasPluginMigrations, loadPluginMigrations, runPluginMigrations } from "@openatende/plugin-sdk";
import { collectMigrations, migrate } from "../src/db/migrator";
import { pluginDatabaseName } from "../src/plugins/data";
import { inspectPluginFolder, listPluginFolders } from "../src/plugins/discovery";
import { loadServicePackages } from "../src/service-packages";

const ROOT = path.resolve(__dirname, "../..");
const TEMPLATE_PREFIX = "oa_tpl_";
let templateName: Promise<string> | null = null;

/** The bundled plugins that have data of their own: their ids and folders. */
let withData: Array<{ id: string; folder: string }> | null = null;
function pluginsWithData(): Array<{ id: string; folder: string }> {
  return (withData ??= listPluginFolders([path.join(ROOT, "plugins")])
    .filter((folder) => hasPluginMigrations(folder))
    .flatMap((folder) => {
      const found = inspectPluginFolder(folder);
      return found.ok ? [{ id: found.manifest.id, folder }] : [];
    }));
}

function migrationsHash(): string {
  const h = createHash("sha256");
  for (const m of collectMigrations(loadServicePackages(ROOT))) h.update(`${m.name}\n${String(m.up)}\n${String(m.down)}\n`);
  for (const p of pluginsWithData()) for (const m of loadPluginMigrations(p.folder)) h.update(`${p.id}/${m.name}\n${String(m.up)}\n`);
  return h.digest("hex").slice(0, 16);
}

const connect = () => createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "" });
const q = (name: string) => `\`${name.replace(/`/g, "``")}\``;

async function tablesOf(c: Connection, db: string): Promise<string[]> {
  const [rows] = await c.query("SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME", [db]);
  return (rows as Array<{ t: string }>).map((r) => r.t);
}

/** Migrates the template once per set of migrations, under a named lock (the two jest workers, or two runs). */
async function ensureTemplate(): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${migrationsHash()}`;
  const c = await connect();
  try {
    const [lock] = await c.query("SELECT GET_LOCK(?, 300) AS l", [`openatende_${name}`]);
    if (Number((lock as Array<{ l: number }>)[0]?.l) !== 1) throw new Error(`could not take the lock of the test template ${name} within 300 s`);
    try {
      const [ready] = await c.query("SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = '_template_ready'", [name]);
      if ((ready as unknown[]).length) return name;
      for (const p of pluginsWithData()) await c.query(`DROP DATABASE IF EXISTS ${q(pluginDatabaseName(name, p.id))}`);
      await c.query(`DROP DATABASE IF EXISTS ${q(name)}`);
      await c.query(`CREATE DATABASE ${q(name)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      const sequelize = new Sequelize(`mysql://root@127.0.0.1:3306/${name}`, { logging: false });
      try {
        await migrate(sequelize, collectMigrations(loadServicePackages(ROOT)));
      } finally {
        await sequelize.close();
      }
      // Each bundled plugin's own database (core/src/plugins/data.ts names them), migrated the same way.
      for (const p of pluginsWithData()) {
        const own = pluginDatabaseName(name, p.id);
        await c.query(`CREATE DATABASE ${q(own)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
        await runPluginMigrations({ dialect: "mysql", url: `mysql://root@127.0.0.1:3306/${own}` }, loadPluginMigrations(p.folder));
      }
      await c.query(`CREATE TABLE ${q(name)}._template_ready (at DATETIME NOT NULL)`);
      await c.query(`INSERT INTO ${q(name)}._template_ready (at) VALUES (NOW())`);
      // Templates of earlier migrations (another branch, an edited migration) are no longer used,
      // once they are a few hours old: a run of another checkout on this machine may still be
      // copying one (dropped under it, its next database came out without tables).
      const [old] = await c.query("SELECT SCHEMA_NAME AS s FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ? AND SCHEMA_NAME <> ? AND SCHEMA_NAME NOT LIKE ?", [`${TEMPLATE_PREFIX}%`, name, `${name}\\_\\_%`]);
      for (const { s } of old as Array<{ s: string }>) {
        const owner = s.split("__")[0]!;
        const [made] = await c.query(`SELECT MAX(at) AS at FROM ${q(owner)}._template_ready`).catch(() => [[{ at: null }]] as unknown as [Array<{ at: Date | null }>]);
        const at = (made as Array<{ at: Date | string | null }>)[0]?.at;
        if (at && Date.now() - new Date(at).getTime() < TEMPLATE_KEEP_MS) continue;
        await c.query(`DROP DATABASE IF EXISTS ${q(s)}`);
      }
      return name;
    } finally {
      await c.query("SELECT RELEASE_LOCK(?)", [`openatende_${name}`]);
    }
  } finally {
    await c.end();
  }
}

/** Copies every table of `from` (definitions and rows) into the new database `to`. */
async function copyDatabase(c: Connection, from: string, to: string): Promise<void> {
  await c.query(`CREATE DATABASE ${q(to)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await c.query(`USE ${q(to)}`);
  const tables = (await tablesOf(c, from)).filter((t) => t !== "_template_ready");
  for (const t of tables) {
    const [rows] = await c.query(`SHOW CREATE TABLE ${q(from)}.${q(t)}`);
    await c.query((rows as Array<Record<string, string>>)[0]!["Create Table"]!);
  }
  // The rows the migrations seeded (their own bookkeeping, the installation, defaults); copying an empty table costs next to nothing.
  for (const t of tables) await c.query(`INSERT INTO ${q(t)} SELECT * FROM ${q(from)}.${q(t)}`);
}

/**
 * Creates `dbName` as a copy of the migrated template, with its bundled plugins' own databases
 * (the plugin host then finds their migrations applied too), and a new installation id.
 */
export async function createMigratedDatabase(dbName: string): Promise<void> {
  templateName ??= ensureTemplate().catch((err) => {
    templateName = null;
    throw err;
  });
  const template = await templateName;
  // The databases are copied COPY_CONNECTIONS at a time: each copy is a row of small statements
  // the server mostly waits on (files made), so a few of them together take little more than one.
  const copies: Array<[string, string]> = [[template, dbName], ...pluginsWithData().map((p): [string, string] => [pluginDatabaseName(template, p.id), pluginDatabaseName(dbName, p.id)])];
  await Promise.all(
    Array.from({ length: Math.min(COPY_CONNECTIONS, copies.length) }, async () => {
      const c = await connect();
      try {
        await c.query("SET SESSION foreign_key_checks = 0");
        for (let next = copies.shift(); next; next = copies.shift()) await copyDatabase(c, next[0], next[1]);
      } finally {
        await c.end();
      }
    }),
  );
  const c = await connect();
  try {
    await c.query(`UPDATE ${q(dbName)}.installation SET id = ?, createdAt = NOW()`, [randomUUID()]);
  } finally {
    await c.end();
  }
}

const COPY_CONNECTIONS = 4;
/** An earlier template younger than this is left for a run that may still use it. */
const TEMPLATE_KEEP_MS = 6 * 3_600_000;
