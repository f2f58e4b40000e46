// The plugin's UI remote, built with the SDK's configuration like any third-party plugin's.
module.exports = require("@openatende/plugin-sdk/rsbuild-remote").remoteConfig(__dirname);
