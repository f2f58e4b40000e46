/**
 * Where the platform's tools are, and how a plugin folder outside the repo (a scaffold in
 * /tmp, an author's own checkout) finds them: the SDK, moleculer, react, antd, … resolve from
 * this repo's node_modules, whatever folder the plugin sits in.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Module from "node:module";
import { CliError } from "./args";

/** The repository root (the npm workspace holding plugin-sdk/). */
export const REPO_ROOT = path.resolve(__dirname, "../../..");
export const REPO_NODE_MODULES = path.join(REPO_ROOT, "node_modules");
export const SDK_ROOT = path.resolve(__dirname, "../..");
export const TEMPLATES_DIR = path.join(SDK_ROOT, "templates");

/** The entry of a plugin whose package.json has no `main` (the layout the core's loader expects). */
export const DEFAULT_ENTRY = "src/service.ts";

let hooked = false;

/**
 * Makes modules required from now on look in this repo's node_modules after their own
 * (the way NODE_PATH would, without touching the environment): a plugin in /tmp can
 * `import "@openatende/plugin-sdk"` when its entry or its rsbuild config is required here.
 */
export function useRepoModules(): void {
  if (hooked) return;
  hooked = true;
  const M = Module as unknown as { _nodeModulePaths(from: string): string[] };
  const original = M._nodeModulePaths;
  M._nodeModulePaths = function (from: string): string[] {
    const paths = original.call(this, from);
    return paths.includes(REPO_NODE_MODULES) ? paths : [...paths, REPO_NODE_MODULES];
  };
}

export interface PluginFolder {
  dir: string;
  pkgPath: string;
  pkg: Record<string, unknown>;
}

/** Reads <dir>/package.json; a missing or unreadable one is a CliError naming the file. */
export function readPluginFolder(dirArg: string | undefined): PluginFolder {
  const dir = path.resolve(dirArg ?? ".");
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new CliError(`${dir} is not a folder`);
  const pkgPath = path.join(dir, "package.json");
  if (!fs.existsSync(pkgPath)) throw new CliError(`${pkgPath} not found: is ${dir} a plugin folder?`);
  let pkg: unknown;
  try {
    pkg = JSON.parse(fs.readFileSync(pkgPath, "utf8"));
  } catch (err) {
    throw new CliError(`${pkgPath} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof pkg !== "object" || pkg === null || Array.isArray(pkg)) throw new CliError(`${pkgPath} must hold a JSON object`);
  return { dir, pkgPath, pkg: pkg as Record<string, unknown> };
}

/** The entry file `main` names (with the loader's extensions), or null when there is none. */
export function resolveEntry(dir: string, main: unknown): { rel: string; file: string | null; outside: boolean } {
  const rel = typeof main === "string" && main.trim() ? main.trim() : DEFAULT_ENTRY;
  const base = path.resolve(dir, rel);
  const relative = path.relative(dir, base);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return { rel, file: null, outside: true };
  for (const candidate of [base, `${base}.ts`, `${base}.js`, path.join(base, "index.ts"), path.join(base, "index.js")]) {
    try {
      if (fs.statSync(candidate).isFile()) return { rel, file: candidate, outside: false };
    } catch {
      /* next candidate */
    }
  }
  return { rel, file: null, outside: false };
}

/** Files under `dir`, relative with forward slashes, sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string) => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(abs, e.name), r);
      else if (e.isFile()) out.push(r);
    }
  };
  if (fs.existsSync(dir)) walk(dir, "");
  return out.sort();
}
