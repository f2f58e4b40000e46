/**
 * Finding plugin folders and reading what they declare, without running any of their code:
 * the package.json manifest, the core API range it needs and the entry file to load.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CORE_API_VERSION, PluginManifest, isCoreApiCompatible, validateManifest } from "@openatende/plugin-sdk";

/** Entry file when package.json has no `main` (the layout of ARCHITECTURE.md). */
export const DEFAULT_ENTRY = "src/service.ts";

export type Inspection =
  | { ok: true; folder: string; manifest: PluginManifest; entry: string }
  | { ok: false; folder: string; id: string; reason: string; manifest?: PluginManifest };

/**
 * Plugin folders under each of `dirs`: direct subfolders with a package.json, sorted by
 * name so the load order (and which of two duplicates wins) is stable. A missing dir is
 * no plugins, not an error.
 */
export function listPluginFolders(dirs: string[]): string[] {
  const out: string[] = [];
  for (const dir of dirs) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith(".") || e.name.startsWith("_") || e.name === "node_modules") continue;
      const folder = path.join(dir, e.name);
      if (!(e.isDirectory() || (e.isSymbolicLink() && isDir(folder)))) continue;
      if (fs.existsSync(path.join(folder, "package.json"))) out.push(folder);
    }
  }
  return out;
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Reads and checks a plugin folder: manifest, core API range, entry file. */
export function inspectPluginFolder(folder: string, coreApiVersion: string = CORE_API_VERSION): Inspection {
  const fallbackId = path.basename(folder);
  let pkg: unknown;
  try {
    pkg = JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8"));
  } catch (err) {
    return { ok: false, folder, id: fallbackId, reason: `package.json cannot be read: ${(err as Error).message}` };
  }
  const checked = validateManifest(pkg);
  if (!checked.ok) return { ok: false, folder, id: fallbackId, reason: `invalid manifest: ${checked.errors.join("; ")}` };
  const manifest = checked.manifest;
  if (!isCoreApiCompatible(manifest.coreApi, coreApiVersion)) {
    return { ok: false, folder, id: manifest.id, manifest, reason: `incompatible core API: the plugin needs ${manifest.coreApi}, this core offers ${coreApiVersion}` };
  }
  const main = (pkg as { main?: unknown }).main;
  const rel = typeof main === "string" && main.trim() ? main.trim() : DEFAULT_ENTRY;
  const entry = path.resolve(folder, rel);
  if (path.relative(folder, entry).startsWith("..") || path.isAbsolute(path.relative(folder, entry))) {
    return { ok: false, folder, id: manifest.id, manifest, reason: `entry ${rel} is outside the plugin folder` };
  }
  const resolved = resolveEntry(entry);
  if (!resolved) return { ok: false, folder, id: manifest.id, manifest, reason: `entry ${rel} not found` };
  return { ok: true, folder, manifest, entry: resolved };
}

function resolveEntry(entry: string): string | null {
  for (const candidate of [entry, `${entry}.ts`, `${entry}.js`, path.join(entry, "index.ts"), path.join(entry, "index.js")]) {
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      /* next */
    }
  }
  return null;
}
