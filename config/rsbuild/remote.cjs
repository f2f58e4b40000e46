/**
 * rsbuild configuration of a plugin's UI remote: `src/ui/register.tsx` exposed as
 * `./register`, built to `<plugin>/dist/ui/` and served by the gateway at
 * `/api/plugins/<id>/remote/` (the path `GET /plugins/enabled` hands the shell).
 * Usage in a plugin's rsbuild.config.cjs: `module.exports = require(".../remote.cjs").remoteConfig(__dirname)`.
 */
const path = require("node:path");
const fs = require("node:fs");
const { pluginReact } = require("@rsbuild/plugin-react");
const { pluginModuleFederation } = require("@module-federation/rsbuild-plugin");
const { sharedSingletons } = require("./shared.cjs");

/** The Module Federation container name of a plugin: its id, as an identifier. */
function containerName(id) {
  return `plugin_${id.replace(/[^A-Za-z0-9]/g, "_")}`;
}

function remoteConfig(pluginDir) {
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

module.exports = { remoteConfig, containerName };
