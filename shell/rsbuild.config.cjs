/**
 * The shell: a Module Federation host with no remote known at build time. Remotes are the
 * enabled plugins' UIs, registered at run time from `GET /plugins/enabled`
 * (src/plugins/remotes.ts). Built to shell/dist, served by the gateway at `/`.
 */
const path = require("node:path");
const { pluginReact } = require("@rsbuild/plugin-react");
const { pluginModuleFederation } = require("@module-federation/rsbuild-plugin");
// The shared singletons are the SDK's, the same list every plugin remote is built with.
const { sharedSingletons } = require("@openatende/plugin-sdk/rsbuild-remote");

module.exports = {
  source: { entry: { index: "./src/index.ts" } },
  html: {
    title: "OpenAtende",
    template: "./src/index.html",
  },
  output: {
    distPath: { root: path.join(__dirname, "dist") },
    assetPrefix: "/",
    cleanDistPath: true,
    legalComments: "none",
  },
  performance: { chunkSplit: { strategy: "split-by-experience" } },
  server: { port: 3001 },
  plugins: [
    pluginReact(),
    pluginModuleFederation({
      name: "openatende_shell",
      remotes: {},
      shared: sharedSingletons(),
      // The shell's own copies stay the page's: a remote registering the same version later
      // (plugin_… sorts after openatende_shell) must not replace them, or its React tree would
      // get a second antd without the shell's theme.
      shareStrategy: "loaded-first",
      dts: false,
      manifest: false,
    }),
  ],
};
