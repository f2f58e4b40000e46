/**
 * The plugin's UI remote, through rsbuild's JS API: its config is the plugin's own
 * rsbuild.config.cjs (for bundled plugins and scaffolds alike, the SDK's rsbuild-remote.cjs),
 * completed so that a plugin folder outside this repo resolves React, antd and the SDK from
 * the repo's node_modules.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { spawn } from "node:child_process";
import type { RsbuildConfig, RsbuildPlugin, RsbuildPluginAPI } from "@rsbuild/core";
import { CliError, errorMessage } from "./args";
import { REPO_NODE_MODULES, useRepoModules } from "./workspace";

export const UI_CONFIG_FILE = "rsbuild.config.cjs";
/** The name the Module Federation rsbuild plugin exposes its API under (api.useExposed). */
const MF_PLUGIN_API = "rsbuild:module-federation-enhanced";
/** A server setting only so the Module Federation plugin does not warn about CORS (nothing is served by a build). */
const QUIET_SERVER = { cors: { origin: "http://localhost" } };

export function rsbuild(): Promise<typeof import("@rsbuild/core")> {
  return import("@rsbuild/core");
}

/** Reads <dir>/rsbuild.config.cjs (an object, or a function of rsbuild's config env). */
export function loadUiConfig(dir: string, command: "build" | "dev" = "build"): RsbuildConfig {
  const file = path.join(dir, UI_CONFIG_FILE);
  if (!fs.existsSync(file)) throw new CliError(`${UI_CONFIG_FILE} not found in ${dir}`);
  useRepoModules();
  let exported: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    exported = require(file);
  } catch (err) {
    throw new CliError(`${UI_CONFIG_FILE} failed to load: ${errorMessage(err)}`);
  }
  const mod = (exported as { default?: unknown })?.default ?? exported;
  const mode = command === "build" ? "production" : "development";
  const config = typeof mod === "function" ? (mod as (env: object) => unknown)({ env: mode, envMode: mode, command, meta: {} }) : mod;
  if (!config || typeof config !== "object") throw new CliError(`${UI_CONFIG_FILE} must export an rsbuild config object`);
  return config as RsbuildConfig;
}

/** What lets a build of a folder anywhere resolve the platform's packages (and loaders) from this repo. */
export function repoResolution(): RsbuildConfig {
  return {
    tools: {
      rspack: (config) => {
        config.resolve ??= {};
        config.resolve.modules = ["node_modules", REPO_NODE_MODULES];
        config.resolveLoader ??= {};
        config.resolveLoader.modules = ["node_modules", REPO_NODE_MODULES];
        return config;
      },
    },
  };
}

export interface RemoteShape {
  /** Module Federation container name. */
  name: string | undefined;
  /** The remote entry's file name (e.g. "remoteEntry.js"). */
  filename: string;
  /** "./register" → absolute (or config-relative) file. */
  exposes: Record<string, string>;
}

/**
 * The remote the UI config would build, read from the Module Federation plugin itself
 * (its exposed API), without building anything: container name, entry file, exposes.
 * Null when the config has no Module Federation plugin.
 */
export async function readRemoteShape(dir: string, config: RsbuildConfig): Promise<RemoteShape | null> {
  const { createRsbuild, mergeRsbuildConfig } = await rsbuild();
  let captured: RsbuildPluginAPI | undefined;
  const spy: RsbuildPlugin = {
    name: "plugin-sdk:read-remote",
    setup(api) {
      captured = api;
    },
  };
  const merged = mergeRsbuildConfig(config, repoResolution(), { logLevel: "error", server: QUIET_SERVER });
  merged.plugins = [...(merged.plugins ?? []), spy];
  const instance = await createRsbuild({ cwd: dir, config: merged });
  await instance.initConfigs();
  const mf = captured?.useExposed<{ getOptions(): { name?: string; filename?: string; exposes?: unknown } }>(MF_PLUGIN_API);
  if (!mf) return null;
  const opts = mf.getOptions();
  const exposes: Record<string, string> = {};
  const raw = opts.exposes;
  if (Array.isArray(raw)) {
    for (const item of raw) if (typeof item === "string") exposes[item] = item;
  } else if (raw && typeof raw === "object") {
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      const imp = typeof v === "string" ? v : Array.isArray(v) ? v[0] : (v as { import?: string | string[] })?.import;
      exposes[k] = Array.isArray(imp) ? String(imp[0]) : String(imp);
    }
  }
  return { name: opts.name, filename: opts.filename ?? "remoteEntry.js", exposes };
}

/**
 * Builds the UI remote in production mode into `outDir`, in a plain node process
 * (build-remote.cjs: a build made under tsx's loader ships `__name` calls the browser does
 * not know); throws CliError with rsbuild's reason.
 */
export async function buildRemote(dir: string, outDir: string): Promise<void> {
  const script = path.join(__dirname, "build-remote.cjs");
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [script, dir, outDir], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.on("error", reject);
    child.on("close", (c) => resolve({ code: c, output }));
  });
  if (code !== 0) throw new CliError(`the UI build failed: ${output.trim().split("\n").slice(-5).join(" | ") || `exit ${code}`}`);
}
