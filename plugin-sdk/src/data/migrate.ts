/**
 * Running a plugin's migrations against its own database: in name order, each once (recorded
 * in `_migrations`), each all-or-nothing (see schema.ts), and once only even when several
 * nodes of the plugin start together:
 * - SQLite: each migration runs in a BEGIN IMMEDIATE transaction that first looks again
 *   whether it ran: the write lock makes the other process wait, then skip it;
 * - MySQL: the whole run holds a named lock (GET_LOCK) of the plugin's database.
 * A failing migration stops the run with a PluginMigrationError naming it; the ones before it
 * stay applied and recorded, it and the ones after it run on the next start.
 */
import { createHash } from "node:crypto";
import type { PluginData, PluginDatabaseAddress, PluginMigration } from "./contract";
import { addressOf, SqlPluginData } from "./database";
import { PluginDataError, PluginMigrationError } from "./errors";
import { q } from "./sql";
import { SqlSchemaBuilder } from "./schema";

export interface RunMigrationsOptions {
  /** MySQL: how long to wait for another node's run (default 120 s). */
  lockTimeoutMs?: number;
  log?(line: string): void;
}

export interface MigrationsRun {
  /** The migrations this run applied, in order (those that ran before are left out). */
  applied: string[];
}

export interface AppliedMigration {
  name: string;
  /** ISO time it ran. */
  ranAt: string;
}

/** The MySQL named lock that serialises the migration runs of one plugin database. */
export function migrationLockName(database: string): string {
  return `oa_plugin_migrate_${createHash("sha256").update(database).digest("hex").slice(0, 32)}`;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Checks the list (a name and an up() each, names unique) and sorts it by name. */
export function checkMigrations(migrations: PluginMigration[]): PluginMigration[] {
  if (!Array.isArray(migrations)) throw new PluginMigrationError("(list)", "migrations must be an array");
  const seen = new Set<string>();
  for (const [i, m] of migrations.entries()) {
    const name = (m as { name?: unknown })?.name;
    if (typeof name !== "string" || !name.trim() || name.length > 191) throw new PluginMigrationError(`#${i + 1}`, "needs a name (1 to 191 characters)");
    if (typeof (m as { up?: unknown }).up !== "function") throw new PluginMigrationError(name, "needs an up(schema) function");
    if (seen.has(name)) throw new PluginMigrationError(name, "is named twice");
    seen.add(name);
  }
  return [...migrations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function asSql(target: PluginData): SqlPluginData {
  if (!(target instanceof SqlPluginData)) throw new PluginDataError("ERR_PLUGIN_DATA_UNAVAILABLE", "migrations run on a PluginData from openPluginData or openPluginDataAt");
  return target;
}

/** What ran in the plugin's database, in name order. */
export async function appliedPluginMigrations(target: PluginData): Promise<AppliedMigration[]> {
  const data = asSql(target);
  const d = data.dialect;
  return data.select<AppliedMigration>(`SELECT ${q(d, "name")}, ${q(d, "ranAt")} FROM ${q(d, "_migrations")} ORDER BY ${q(d, "name")}`);
}

async function record(data: SqlPluginData, name: string, tx?: Parameters<SqlPluginData["run"]>[2]): Promise<void> {
  const d = data.dialect;
  await data.run(`INSERT INTO ${q(d, "_migrations")} (${q(d, "name")}, ${q(d, "ranAt")}) VALUES ($1, $2)`, [name, new Date().toISOString()], tx);
}

async function runSqlite(data: SqlPluginData, pending: PluginMigration[], log: (l: string) => void): Promise<string[]> {
  const applied: string[] = [];
  const d = data.dialect;
  for (const m of pending) {
    await data.inTransaction(async (tx) => {
      const again = await data.select(`SELECT ${q(d, "name")} FROM ${q(d, "_migrations")} WHERE ${q(d, "name")} = $1`, [m.name], tx);
      if (again.length) return;
      try {
        await m.up(new SqlSchemaBuilder(data, tx));
      } catch (err) {
        throw new PluginMigrationError(m.name, `failed, nothing of it was kept: ${messageOf(err)}`, err);
      }
      await record(data, m.name, tx);
      applied.push(m.name);
      log(`migration ${m.name} applied`);
    });
  }
  return applied;
}

async function runMysql(data: SqlPluginData, pending: PluginMigration[], log: (l: string) => void, lockTimeoutMs: number): Promise<string[]> {
  const lock = migrationLockName(data.address.database!);
  const seconds = Math.max(1, Math.ceil(lockTimeoutMs / 1000));
  // GET_LOCK belongs to one connection: an open transaction keeps one for the run.
  const holder = await data.sequelize.transaction();
  try {
    const [got] = await data.select<{ l: number | string | null }>("SELECT GET_LOCK($1, $2) AS l", [lock, seconds], holder);
    if (Number(got?.l) !== 1) throw new PluginMigrationError("(lock)", `another node has been running this plugin's migrations for over ${seconds} s`);
    try {
      const done = new Set((await appliedPluginMigrations(data)).map((r) => r.name));
      const applied: string[] = [];
      for (const m of pending) {
        if (done.has(m.name)) continue;
        const schema = new SqlSchemaBuilder(data);
        try {
          await m.up(schema);
          await record(data, m.name);
        } catch (err) {
          const left = await schema.rollback();
          const undone = left.length ? `; undoing it also failed, fix by hand: ${left.join("; ")}` : ", what it had changed was undone";
          throw new PluginMigrationError(m.name, `failed${undone}: ${messageOf(err)}`, err);
        }
        await schema.complete();
        applied.push(m.name);
        log(`migration ${m.name} applied`);
      }
      return applied;
    } finally {
      await data.select("SELECT RELEASE_LOCK($1) AS r", [lock], holder).catch(() => undefined);
    }
  } finally {
    await holder.commit().catch(() => undefined);
  }
}

/**
 * Applies the migrations that have not run yet. `target` is an open PluginData (left open) or
 * an address or its URL (opened and closed here; the database must exist, see
 * ensurePluginDatabase).
 */
export async function runPluginMigrations(target: PluginData | PluginDatabaseAddress | string, migrations: PluginMigration[], opts: RunMigrationsOptions = {}): Promise<MigrationsRun> {
  const list = checkMigrations(migrations);
  const own = typeof target === "string" || !("forTenant" in target);
  const data = own ? await SqlPluginData.open(addressOf(target as PluginDatabaseAddress | string)) : asSql(target as PluginData);
  const log = opts.log ?? (() => undefined);
  try {
    const done = new Set((await appliedPluginMigrations(data)).map((r) => r.name));
    const pending = list.filter((m) => !done.has(m.name));
    if (!pending.length) return { applied: [] };
    const applied = data.dialect === "sqlite" ? await runSqlite(data, pending, log) : await runMysql(data, pending, log, opts.lockTimeoutMs ?? 120_000);
    return { applied };
  } finally {
    data.forgetTables();
    if (own) await data.close();
  }
}
