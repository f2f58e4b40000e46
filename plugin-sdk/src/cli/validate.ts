/**
 * `plugin-sdk validate [dir]`: what the core's loader and the marketplace will check, found
 * before they do: the manifest, the core API range, the entry and its definePlugin() export,
 * the UI modules the manifest promises against what the UI build exposes, and the migration
 * files of migrations/ (each exports `migration`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { findDefinedPlugin, PLUGIN_TAG } from "../define-plugin";
import { loadMigrationFile, PLUGIN_MIGRATIONS_DIR, pluginMigrationFiles } from "../data/folder";
import { checkMigrations } from "../data/migrate";
import { CORE_API_VERSION, isCoreApiCompatible, PluginManifest, validateManifest } from "../manifest";
import { errorMessage, parseArgs } from "./args";
import { loadUiConfig, readRemoteShape, UI_CONFIG_FILE } from "./ui-build";
import { readPluginFolder, resolveEntry, useRepoModules } from "./workspace";

export const VALIDATE_HELP = `Usage: plugin-sdk validate [dir]

Checks the plugin in <dir> (default: the current folder) the way the platform will:
  - package.json's manifest (the "platform" block) is valid;
  - its coreApi range accepts this SDK's core API (${CORE_API_VERSION});
  - the entry (package.json "main", default src/service.ts) exists and exports a definePlugin() object
    whose id and version are the manifest's;
  - every module in platform.ui.exposes is exposed by the UI build (${UI_CONFIG_FILE}) and its file exists,
    and the build's remote entry is platform.ui.remoteEntry;
  - every file in migrations/ loads and exports \`migration\` ({ name, up(schema) }), names unique.
Prints every problem found. Exit code: 0 valid, 1 problems, 2 bad usage.`;

export interface ValidationReport {
  dir: string;
  manifest: PluginManifest | null;
  /** The entry file the core will require (absolute), when found. */
  entry: string | null;
  problems: string[];
}

/** Runs every check it can (a broken manifest still gets its entry checked) and collects the problems. */
export async function validatePlugin(dirArg: string | undefined): Promise<ValidationReport> {
  const { dir, pkg } = readPluginFolder(dirArg);
  const problems: string[] = [];
  const checked = validateManifest(pkg);
  const manifest = checked.ok ? checked.manifest : null;
  if (!checked.ok) problems.push(...checked.errors.map((e) => `manifest: ${e}`));
  else if (!isCoreApiCompatible(manifest!.coreApi)) {
    problems.push(`manifest: platform.coreApi ${JSON.stringify(manifest!.coreApi)} does not accept this core API version ${CORE_API_VERSION}`);
  }

  const entry = resolveEntry(dir, pkg.main);
  if (entry.outside) problems.push(`entry: ${entry.rel} is outside the plugin folder`);
  else if (!entry.file) problems.push(`entry: ${entry.rel} not found`);
  else problems.push(...checkEntry(entry.file, manifest));

  const ui = (pkg.platform as { ui?: { exposes?: unknown; remoteEntry?: unknown } } | undefined)?.ui;
  if (ui && typeof ui === "object") problems.push(...(await checkUi(dir, ui)));
  problems.push(...checkMigrationFiles(dir));

  return { dir, manifest, entry: entry.file, problems };
}

function checkEntry(file: string, manifest: PluginManifest | null): string[] {
  useRepoModules();
  let mod: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    mod = require(file);
  } catch (err) {
    return [`entry: ${path.basename(file)} failed to load: ${errorMessage(err).split("\n")[0]}`];
  }
  const plugin = findDefinedPlugin(mod);
  if (!plugin) return [`entry: ${path.basename(file)} does not export a definePlugin() object (tag $$openatendePlugin: ${PLUGIN_TAG})`];
  if (manifest && (plugin.id !== manifest.id || plugin.version !== manifest.version)) {
    return [`entry: it defines ${plugin.id}@${plugin.version} but package.json declares ${manifest.id}@${manifest.version}`];
  }
  return [];
}

/** The plugin's own migrations: each file loads and exports `migration`, no name twice. */
function checkMigrationFiles(dir: string): string[] {
  let files: string[];
  try {
    files = pluginMigrationFiles(dir);
  } catch (err) {
    return [`${PLUGIN_MIGRATIONS_DIR}: ${errorMessage(err)}`];
  }
  if (!files.length) return [];
  useRepoModules();
  const problems: string[] = [];
  const loaded = [];
  for (const file of files) {
    try {
      loaded.push(loadMigrationFile(file));
    } catch (err) {
      problems.push(`${PLUGIN_MIGRATIONS_DIR}: ${errorMessage(err)}`);
    }
  }
  if (!problems.length) {
    try {
      checkMigrations(loaded);
    } catch (err) {
      problems.push(`${PLUGIN_MIGRATIONS_DIR}: ${errorMessage(err)}`);
    }
  }
  return problems;
}

async function checkUi(dir: string, ui: { exposes?: unknown; remoteEntry?: unknown }): Promise<string[]> {
  const wanted = Array.isArray(ui.exposes) ? ui.exposes.filter((x): x is string => typeof x === "string") : [];
  if (!fs.existsSync(path.join(dir, UI_CONFIG_FILE))) return [`ui: the manifest has platform.ui but ${UI_CONFIG_FILE} (the UI build) is missing`];
  let shape;
  try {
    shape = await readRemoteShape(dir, loadUiConfig(dir));
  } catch (err) {
    return [`ui: ${UI_CONFIG_FILE} cannot be read: ${errorMessage(err).split("\n")[0]}`];
  }
  if (!shape) return [`ui: ${UI_CONFIG_FILE} builds no Module Federation remote`];
  const problems: string[] = [];
  const remoteEntry = typeof ui.remoteEntry === "string" ? ui.remoteEntry : "remoteEntry.js";
  if (shape.filename !== remoteEntry) problems.push(`ui: platform.ui.remoteEntry is ${JSON.stringify(remoteEntry)} but the UI build writes ${JSON.stringify(shape.filename)}`);
  for (const name of wanted) {
    const key = `./${name}`;
    const file = shape.exposes[key] ?? shape.exposes[name];
    if (file === undefined) {
      problems.push(`ui: platform.ui.exposes lists ${JSON.stringify(name)} but the UI build exposes ${Object.keys(shape.exposes).map((k) => JSON.stringify(k)).join(", ") || "nothing"}`);
      continue;
    }
    const abs = path.resolve(dir, file);
    const candidates = [abs, ...[".tsx", ".ts", ".jsx", ".js"].map((ext) => abs + ext)];
    if (!candidates.some((c) => fs.existsSync(c) && fs.statSync(c).isFile())) {
      problems.push(`ui: ${JSON.stringify(name)} is exposed from ${path.relative(dir, abs) || abs}, which does not exist`);
    }
  }
  return problems;
}

export async function validateCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, {}, 1);
  if (args.flags.help) {
    console.log(VALIDATE_HELP);
    return 0;
  }
  const report = await validatePlugin(args.positionals[0]);
  const name = report.manifest ? `${report.manifest.id}@${report.manifest.version}` : path.basename(report.dir);
  if (report.problems.length === 0) {
    console.log(`${name}: valid (${report.dir})`);
    return 0;
  }
  console.error(`${name}: ${report.problems.length} problem${report.problems.length === 1 ? "" : "s"} in ${report.dir}`);
  for (const p of report.problems) console.error(`  - ${p}`);
  return 1;
}
