/**
 * `plugin-sdk pack [dir]`: the archive the marketplace takes (see ../archive.ts). Validates,
 * bundles the service with esbuild into dist/server/index.js (everything in it but node's
 * builtins and what the host provides: moleculer, and sequelize for a plugin's own data),
 * bundles each migration (migrations/*.ts) the same way into migrations/<name>.js, builds the
 * UI remote with rsbuild into dist/ui/, and packs package.json (main → dist/server/index.js),
 * README.md, CHANGELOG.md, migrations/ and dist/** into <out>/<id>-<version>.tgz with its
 * .sha256.
 */
import * as fs from "node:fs";
import { builtinModules } from "node:module";
import * as path from "node:path";
import { ARCHIVE_MAIN, ARCHIVE_UI_DIR, ArchiveError, ArchiveFile, archiveFileName, checksumFileContent, inspectArchive, packArchive, sha256Hex } from "../archive";
import type { PluginManifest } from "../manifest";
import { PLUGIN_MIGRATIONS_DIR, pluginMigrationFiles } from "../data/folder";
import { CliError, errorMessage, formatBytes, parseArgs, str } from "./args";
import { buildRemote, loadUiConfig } from "./ui-build";
import { validatePlugin } from "./validate";
import { listFiles, readPluginFolder, REPO_NODE_MODULES } from "./workspace";

export const PACK_HELP = `Usage: plugin-sdk pack [dir] [--out <folder>] [--json]

Packs the plugin in <dir> (default: the current folder) for the marketplace:
  1. validates it (as plugin-sdk validate; any problem stops here);
  2. bundles the entry (package.json main) with esbuild into dist/server/index.js: CommonJS, node20,
     everything bundled (the SDK too) except node's builtins, "moleculer" and "sequelize", which the platform provides;
  3. bundles each migration file (${PLUGIN_MIGRATIONS_DIR}/*.ts) the same way, one .js file each;
  4. builds the UI remote (rsbuild.config.cjs) into dist/ui/ when the manifest has "ui";
  5. writes <out>/<id>-<version>.tgz (package.json with main "${ARCHIVE_MAIN}", README.md, CHANGELOG.md,
     ${PLUGIN_MIGRATIONS_DIR}/*.js, dist/server/**, dist/ui/**) and <out>/<id>-<version>.tgz.sha256.

  --out <folder>  where the archive goes (default: <dir>/dist)
  --json          print one JSON line {id, version, file, size, checksum, files (count)} instead of text
Exit code: 0 packed, 1 failure (the problems are printed), 2 bad usage.`;

/** What the host provides to a plugin bundle; anything else must be inside it. sequelize (and its drivers) serve the SDK's plugin data. */
export const HOST_MODULES = ["moleculer", "sequelize"];
/** Where pack puts the bundled migrations before they go into the archive's migrations/. */
const MIGRATIONS_OUT = "dist/migrations";
/** Largest archive the self-check accepts (the marketplace has its own limit). */
const SELF_CHECK_MAX_BYTES = 200 * 1024 * 1024;

export interface PackResult {
  id: string;
  version: string;
  file: string;
  size: number;
  checksum: string;
  files: string[];
}

function isBuiltin(name: string): boolean {
  const bare = name.startsWith("node:") ? name.slice(5) : name;
  return builtinModules.includes(bare) || builtinModules.includes(bare.split("/")[0]);
}

/** Bundles the entry into <dir>/dist/server/index.js; answers the modules left outside it. */
export async function bundleServer(dir: string, entry: string): Promise<string[]> {
  fs.rmSync(path.join(dir, "dist/server"), { recursive: true, force: true });
  return bundle(dir, entry, path.join(dir, ARCHIVE_MAIN), "the server bundle");
}

/**
 * Bundles each migration file on its own into <dir>/dist/migrations/<name>.js (the archive's
 * migrations/), so a packed plugin's migrations run in a plain node; answers the files written.
 */
export async function bundleMigrations(dir: string): Promise<string[]> {
  const outDir = path.join(dir, MIGRATIONS_OUT);
  fs.rmSync(outDir, { recursive: true, force: true });
  const out: string[] = [];
  for (const file of pluginMigrationFiles(dir)) {
    const name = `${path.basename(file).replace(/\.(ts|js|cjs)$/, "")}.js`;
    await bundle(dir, file, path.join(outDir, name), `the migration ${path.basename(file)}`);
    out.push(name);
  }
  return out;
}

async function bundle(dir: string, entry: string, outfile: string, what: string): Promise<string[]> {
  const esbuild = await import("esbuild");
  let result;
  try {
    result = await esbuild.build({
      absWorkingDir: dir,
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      external: HOST_MODULES,
      // A plugin folder anywhere (a scaffold in /tmp) finds the SDK and its dependencies here.
      nodePaths: [REPO_NODE_MODULES],
      sourcemap: false,
      legalComments: "none",
      metafile: true,
      logLevel: "silent",
    });
  } catch (err) {
    const errors = (err as { errors?: Array<{ text: string; location?: { file: string; line: number } | null }> }).errors;
    const first = errors?.[0];
    throw new CliError(`${what} failed: ${first ? `${first.location ? `${first.location.file}:${first.location.line}: ` : ""}${first.text}` : errorMessage(err)}`);
  }
  const external = new Set<string>();
  for (const out of Object.values(result.metafile.outputs)) for (const imp of out.imports) if (imp.external) external.add(imp.path);
  const foreign = [...external].filter((m) => !isBuiltin(m) && !HOST_MODULES.includes(m));
  if (foreign.length) throw new CliError(`${what} still requires ${foreign.join(", ")}: only node builtins and ${HOST_MODULES.join(", ")} may stay outside`);
  return [...external].sort();
}

/** The files of the archive, read from the plugin folder after the builds. */
export function archiveFiles(dir: string, pkg: Record<string, unknown>, manifest: PluginManifest): ArchiveFile[] {
  const files: ArchiveFile[] = [{ path: "package.json", data: Buffer.from(`${JSON.stringify({ ...pkg, main: ARCHIVE_MAIN }, null, 2)}\n`) }];
  for (const doc of ["README.md", "CHANGELOG.md"]) {
    const p = path.join(dir, doc);
    if (fs.existsSync(p)) files.push({ path: doc, data: fs.readFileSync(p) });
  }
  const migrations = path.join(dir, MIGRATIONS_OUT);
  if (fs.existsSync(migrations)) for (const rel of listFiles(migrations)) files.push({ path: `${PLUGIN_MIGRATIONS_DIR}/${rel}`, data: fs.readFileSync(path.join(migrations, rel)) });
  const dist = ["dist/server", ...(manifest.ui ? [ARCHIVE_UI_DIR] : [])];
  for (const sub of dist) for (const rel of listFiles(path.join(dir, sub))) files.push({ path: `${sub}/${rel}`, data: fs.readFileSync(path.join(dir, sub, rel)) });
  return files;
}

export async function packPlugin(dirArg: string | undefined, outArg: string | undefined, log: (line: string) => void = () => undefined): Promise<PackResult> {
  const report = await validatePlugin(dirArg);
  if (report.problems.length || !report.manifest || !report.entry) {
    throw new CliError(`the plugin is not valid, nothing packed:\n${report.problems.map((p) => `  - ${p}`).join("\n")}`);
  }
  const { dir, pkg } = readPluginFolder(report.dir);
  const manifest = report.manifest;

  let t = Date.now();
  await bundleServer(dir, report.entry);
  log(`server bundle: ${ARCHIVE_MAIN} (${formatBytes(fs.statSync(path.join(dir, ARCHIVE_MAIN)).size)}, ${Date.now() - t} ms)`);
  t = Date.now();
  const migrations = await bundleMigrations(dir);
  if (migrations.length) log(`migrations: ${migrations.map((m) => `${PLUGIN_MIGRATIONS_DIR}/${m}`).join(", ")} (${Date.now() - t} ms)`);

  if (manifest.ui) {
    t = Date.now();
    loadUiConfig(dir, "build"); // its errors named here, before the build
    await buildRemote(dir, path.join(dir, ARCHIVE_UI_DIR));
    const remoteEntry = path.join(dir, ARCHIVE_UI_DIR, manifest.ui.remoteEntry ?? "remoteEntry.js");
    if (!fs.existsSync(remoteEntry)) throw new CliError(`the UI build wrote no ${path.relative(dir, remoteEntry)}`);
    log(`UI remote: ${ARCHIVE_UI_DIR}/ (${listFiles(path.join(dir, ARCHIVE_UI_DIR)).length} files, ${Date.now() - t} ms)`);
  }

  const files = archiveFiles(dir, pkg, manifest);
  let gz: Buffer;
  try {
    gz = packArchive(files);
    // The same gate the marketplace puts in front of an upload.
    inspectArchive(gz, { limits: { maxBytes: SELF_CHECK_MAX_BYTES } });
  } catch (err) {
    if (err instanceof ArchiveError) throw new CliError(`the archive is refused: ${err.message}`);
    throw err;
  }
  const outDir = path.resolve(outArg ?? path.join(dir, "dist"));
  fs.mkdirSync(outDir, { recursive: true });
  const name = archiveFileName(manifest.id, manifest.version);
  const file = path.join(outDir, name);
  fs.writeFileSync(file, gz);
  fs.writeFileSync(`${file}.sha256`, checksumFileContent(gz, name));
  return { id: manifest.id, version: manifest.version, file, size: gz.length, checksum: sha256Hex(gz), files: files.map((f) => f.path).sort() };
}

export async function packCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { out: { type: "string" }, json: { type: "boolean" } }, 1);
  if (args.flags.help) {
    console.log(PACK_HELP);
    return 0;
  }
  const json = args.flags.json === true;
  const started = Date.now();
  const result = await packPlugin(args.positionals[0], str(args.flags.out), json ? undefined : (line) => console.log(line));
  if (json) {
    console.log(JSON.stringify({ ...result, files: result.files.length }));
    return 0;
  }
  console.log(`packed ${result.id}@${result.version} in ${((Date.now() - started) / 1000).toFixed(1)} s (${result.files.length} files)`);
  console.log(`  archive  ${result.file}`);
  console.log(`  size     ${result.size} bytes (${formatBytes(result.size)})`);
  console.log(`  sha256   ${result.checksum}`);
  return 0;
}
