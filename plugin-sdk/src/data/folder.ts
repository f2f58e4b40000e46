/**
 * A plugin's migrations as files: `<plugin>/migrations/*.ts` (or `.js` in a packed plugin,
 * which the packer bundles one by one), each exporting `migration: PluginMigration`, taken in
 * file-name order ("0001-sessions.ts", "0002-…").
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { PluginMigration } from "./contract";
import { PluginMigrationError } from "./errors";

/** The folder of a plugin that holds its migrations. */
export const PLUGIN_MIGRATIONS_DIR = "migrations";

const MIGRATION_FILE = /\.(ts|js|cjs)$/;
const NOT_MIGRATION = /\.d\.ts$|\.(test|spec)\.(ts|js|cjs)$/;

/** The migration files of the plugin in `pluginFolder` (absolute, in name order); none when it has no migrations/ folder. */
export function pluginMigrationFiles(pluginFolder: string): string[] {
  const dir = path.join(pluginFolder, PLUGIN_MIGRATIONS_DIR);
  let names: string[];
  try {
    names = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && MIGRATION_FILE.test(e.name) && !NOT_MIGRATION.test(e.name)).map((e) => e.name);
  } catch {
    return [];
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const stems = new Map<string, string>();
  for (const n of names) {
    const stem = n.replace(MIGRATION_FILE, "");
    const other = stems.get(stem);
    if (other) throw new PluginMigrationError(n, `two files hold migration ${stem} (${other} and ${n}): keep one`);
    stems.set(stem, n);
  }
  return names.map((n) => path.join(dir, n));
}

/** True when the plugin ships migrations (and so gets a database of its own). */
export function hasPluginMigrations(pluginFolder: string): boolean {
  return pluginMigrationFiles(pluginFolder).length > 0;
}

/** Reads one migration file: its `migration` export, checked. */
export function loadMigrationFile(file: string): PluginMigration {
  let mod: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    mod = require(file);
  } catch (err) {
    throw new PluginMigrationError(path.basename(file), `cannot be loaded: ${(err as Error).message.split("\n")[0]}`, err);
  }
  const m = (mod as { migration?: unknown } | null)?.migration as Partial<PluginMigration> | undefined;
  if (!m || typeof m !== "object" || typeof m.name !== "string" || !m.name.trim() || typeof m.up !== "function") {
    throw new PluginMigrationError(path.basename(file), "does not export `migration` (a PluginMigration: { name, up(schema) })");
  }
  return m as PluginMigration;
}

/** The plugin's migrations, loaded from its migrations/ folder in file-name order. */
export function loadPluginMigrations(pluginFolder: string): PluginMigration[] {
  return pluginMigrationFiles(pluginFolder).map(loadMigrationFile);
}
