// The plugin's UI remote (see config/rsbuild/remote.cjs).
module.exports = require("../../config/rsbuild/remote.cjs").remoteConfig(__dirname);
