/**
 * `require("@openatende/plugin-sdk/rsbuild-remote")`: the rsbuild configuration of a plugin's
 * UI remote, for every plugin (the bundled ones in plugins/ and scaffolds made by
 * `plugin-sdk create` alike): `src/ui/register.tsx` exposed as `./register`, built to
 * `<plugin>/dist/ui/` and served by the gateway at `/api/plugins/<id>/remote/` (the path
 * `GET /plugins/enabled` hands the shell).
 *
 *   // rsbuild.config.cjs of a plugin
 *   module.exports = require("@openatende/plugin-sdk/rsbuild-remote").remoteConfig(__dirname);
 *
 * It also declares the modules the shell shares with every remote (`sharedSingletons`), which
 * the shell's own build uses too, so host and remotes agree by construction.
 */
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");

/**
 * The modules shared as Module Federation singletons: one React, one router, one MobX, one
 * i18next and one UI kit on the page, whichever remote asks first. The ranges are the shell's
 * (its package.json; a test keeps the two equal): a remote built against them runs on the
 * shell's copies.
 */
const SHARED_SINGLETONS = {
  react: "^19.3.1",
  "react-dom": "^19.3.1",
  "react-router-dom": "^7.18.5",
  mobx: "^7.1.3",
  "mobx-react-lite": "^5.1.0",
  i18next: "^27.1.2",
  "react-i18next": "^18.0.1",
  antd: "^6.6.8",
  "@ant-design/icons": "^6.3.4",
};

function sharedSingletons() {
  const shared = {};
  for (const [name, range] of Object.entries(SHARED_SINGLETONS)) shared[name] = { singleton: true, requiredVersion: range };
  return shared;
}

/**
 * A module of @openatende/contracts (TypeScript only). Under tsx or jest it loads like any
 * other; in plain node (the rsbuild CLI, the SDK's build-remote.cjs) it is compiled here with
 * esbuild, which the SDK depends on anyway.
 */
function contract(name) {
  const file = require.resolve(`@openatende/contracts/${name}`);
  try {
    return require(file);
  } catch (err) {
    if (!(err instanceof SyntaxError) && err.code !== "ERR_UNKNOWN_FILE_EXTENSION" && err.code !== "ERR_REQUIRE_ESM") throw err;
  }
  const { code } = require("esbuild").transformSync(fs.readFileSync(file, "utf8"), { loader: "ts", format: "cjs", target: "node20", sourcefile: file });
  const m = new Module(file, module);
  m.filename = file;
  m.paths = Module._nodeModulePaths(path.dirname(file));
  m._compile(code, file);
  return m.exports;
}

/** The Module Federation container name of a plugin, the one the shell loads (contracts/src/ui-remote.ts). */
const { containerName } = contract("ui-remote");

function remoteConfig(pluginDir) {
  // Loaded here, not at the top: the shell's build reads sharedSingletons without them.
  const { pluginReact } = require("@rsbuild/plugin-react");
  const { pluginModuleFederation } = require("@module-federation/rsbuild-plugin");
  const pkg = JSON.parse(fs.readFileSync(path.join(pluginDir, "package.json"), "utf8"));
  const id = pkg.platform && pkg.platform.id;
  if (!id) throw new Error(`${pluginDir}: package.json has no platform.id`);
  return {
    root: pluginDir,
    source: { entry: {} },
    output: {
      distPath: { root: path.join(pluginDir, "dist/ui") },
      assetPrefix: `/api/plugins/${id}/remote/`,
      cleanDistPath: true,
    },
    performance: { chunkSplit: { strategy: "split-by-module" } },
    plugins: [
      pluginReact(),
      pluginModuleFederation({
        name: containerName(id),
        filename: "remoteEntry.js",
        exposes: { "./register": path.join(pluginDir, "src/ui/register.tsx") },
        shared: sharedSingletons(),
        dts: false,
        manifest: false,
      }),
    ],
  };
}

module.exports = { remoteConfig, containerName, sharedSingletons, SHARED_SINGLETONS };
