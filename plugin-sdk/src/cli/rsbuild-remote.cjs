/**
 * `require("@openatende/plugin-sdk/rsbuild-remote")`: the rsbuild configuration of a plugin's
 * UI remote, the same one the bundled plugins use (config/rsbuild/remote.cjs), for plugins
 * that do not sit in this repo's plugins/ folder (scaffolds made by `plugin-sdk create`).
 */
module.exports = require("../../../config/rsbuild/remote.cjs");
