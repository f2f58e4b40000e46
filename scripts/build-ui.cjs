#!/usr/bin/env node
/**
 * Builds the shell (shell/dist) and each plugin's UI remote (plugins/<id>/dist/ui) with
 * rsbuild. `--if-stale`: only what is missing or older than its sources (npm start uses it).
 * Exits non-zero when a build fails.
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const rsbuild = path.join(root, "node_modules", ".bin", "rsbuild");
const ifStale = process.argv.includes("--if-stale");

/** Newest modification time under the given paths (files and folders, recursively). */
function newest(paths) {
  let t = 0;
  const walk = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      if (path.basename(p) === "node_modules" || path.basename(p) === "dist") return;
      for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    } else t = Math.max(t, st.mtimeMs);
  };
  paths.forEach(walk);
  return t;
}

function stale(output, sources) {
  if (!ifStale) return true;
  let out;
  try {
    out = fs.statSync(output).mtimeMs;
  } catch {
    return true;
  }
  return newest(sources) > out;
}

/** The SDK's remote configuration (shared singletons, container names) every build reads. */
const sdkConfig = [path.join(root, "plugin-sdk/src/cli/rsbuild-remote.cjs"), path.join(root, "contracts/src/ui-remote.ts")];

const targets = [
  {
    name: "shell",
    cwd: path.join(root, "shell"),
    output: path.join(root, "shell/dist/index.html"),
    sources: [path.join(root, "shell/src"), path.join(root, "shell/rsbuild.config.cjs"), path.join(root, "contracts/src"), ...sdkConfig, path.join(root, "plugin-sdk/src/ui-runtime.ts")],
  },
];
const libsDir = path.join(root, "libs");
const libUiSources = (fs.existsSync(libsDir) ? fs.readdirSync(libsDir).sort() : []).map((n) => path.join(libsDir, n, "src/ui")).filter((d) => fs.existsSync(d));
const pluginsDir = path.join(root, "plugins");
for (const id of fs.existsSync(pluginsDir) ? fs.readdirSync(pluginsDir).sort() : []) {
  const dir = path.join(pluginsDir, id);
  if (!fs.existsSync(path.join(dir, "rsbuild.config.cjs")) || !fs.existsSync(path.join(dir, "src/ui/register.tsx"))) continue;
  targets.push({
    name: `plugins/${id}`,
    cwd: dir,
    output: path.join(dir, "dist/ui/remoteEntry.js"),
    // A shared library's UI (libs/<name>/src/ui) is bundled into each plugin that uses it, so it counts as every plugin's source.
    sources: [path.join(dir, "src/ui"), path.join(dir, "rsbuild.config.cjs"), path.join(dir, "package.json"), ...sdkConfig, ...libUiSources],
  });
}

let failed = 0;
for (const t of targets) {
  if (!stale(t.output, t.sources)) continue;
  const t0 = Date.now();
  const r = spawnSync(rsbuild, ["build", "-c", "rsbuild.config.cjs"], { cwd: t.cwd, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (r.status !== 0) {
    failed++;
    console.error(`[build-ui] ${t.name} failed:\n${r.stdout}\n${r.stderr}`);
  } else console.log(`[build-ui] ${t.name} built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
process.exit(failed ? 1 : 0);
