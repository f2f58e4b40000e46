/**
 * The modules the shell shares with every plugin UI remote, as Module Federation singletons:
 * one React, one router, one MobX, one i18next and one UI kit on the page, whichever remote
 * asks first. The versions come from the shell's own package.json so host and remotes agree.
 */
const shellPkg = require("../../shell/package.json");

const SINGLETONS = [
  "react",
  "react-dom",
  "react-router-dom",
  "mobx",
  "mobx-react-lite",
  "i18next",
  "react-i18next",
  "antd",
  "@ant-design/icons",
];

function sharedSingletons() {
  const deps = shellPkg.dependencies;
  const shared = {};
  for (const name of SINGLETONS) {
    if (!deps[name]) throw new Error(`config/rsbuild/shared.cjs: the shell does not depend on ${name}`);
    shared[name] = { singleton: true, requiredVersion: deps[name] };
  }
  return shared;
}

module.exports = { SINGLETONS, sharedSingletons };
