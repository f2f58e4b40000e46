/**
 * Builds a plugin's UI remote with rsbuild, in a plain node process of its own:
 *
 *   node build-remote.cjs <plugin folder> <out folder>
 *
 * The command line itself runs under tsx, whose loader rewrites every module it loads with
 * esbuild's keepNames; Module Federation writes parts of its runtime from its own functions'
 * source text, so a build made in that process ships `__name(…)` calls the browser does not
 * know. Here nothing but node loads rsbuild. Exit 0 built, 1 failed (the reason on stderr).
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");

const REPO_NODE_MODULES = path.resolve(__dirname, "../../../node_modules");

/** A plugin outside this repo resolves the platform's packages (react, antd, the SDK) from it. */
function useRepoModules() {
  const original = Module._nodeModulePaths;
  Module._nodeModulePaths = function (from) {
    const paths = original.call(this, from);
    return paths.includes(REPO_NODE_MODULES) ? paths : [...paths, REPO_NODE_MODULES];
  };
}

async function main() {
  const [dir, outDir] = process.argv.slice(2).map((p) => path.resolve(p));
  if (!dir || !outDir) throw new Error("usage: build-remote.cjs <plugin folder> <out folder>");
  useRepoModules();
  const file = path.join(dir, "rsbuild.config.cjs");
  if (!fs.existsSync(file)) throw new Error(`rsbuild.config.cjs not found in ${dir}`);
  const exported = require(file);
  const mod = (exported && exported.default) || exported;
  const config = typeof mod === "function" ? mod({ env: "production", envMode: "production", command: "build", meta: {} }) : mod;
  if (!config || typeof config !== "object") throw new Error("rsbuild.config.cjs must export an rsbuild config object");
  const { createRsbuild, mergeRsbuildConfig } = await import("@rsbuild/core");
  const merged = mergeRsbuildConfig(
    config,
    {
      tools: {
        rspack: (c) => {
          c.resolve = c.resolve || {};
          c.resolve.modules = ["node_modules", REPO_NODE_MODULES];
          c.resolveLoader = c.resolveLoader || {};
          c.resolveLoader.modules = ["node_modules", REPO_NODE_MODULES];
          return c;
        },
      },
    },
    {
      mode: "production",
      logLevel: "error",
      // Only so the Module Federation plugin does not warn about CORS: a build serves nothing.
      server: { cors: { origin: "http://localhost" } },
      output: { distPath: { root: outDir }, cleanDistPath: true },
      performance: { printFileSize: false },
    },
  );
  const instance = await createRsbuild({ cwd: dir, config: merged });
  const result = await instance.build();
  await result.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${(err && err.message) || err}\n`);
    process.exit(1);
  },
);
