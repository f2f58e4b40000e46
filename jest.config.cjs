const preset = require("./config/jest/preset.cjs");
const { testMatch } = require("./config/jest/projects.cjs");

/**
 * One jest run over every workspace, in three projects (config/jest/projects.cjs says which
 * file goes where): `unit` needs no service and has no global setup; `integration` and
 * `browser` (Playwright in Debian's Chromium, against the built UI) check first that MariaDB
 * and Redis answer. `npm test` runs all three; `npx jest --selectProjects unit` one of them.
 */
const roots = ["config", "contracts", "scripts", "core", "plugin-sdk", "libs", "plugins", "marketplace", "shell"].map((r) => `<rootDir>/${r}`);

function project(name, extra = {}) {
  return {
    ...preset,
    displayName: name,
    rootDir: __dirname,
    roots,
    testMatch: testMatch(name, __dirname),
    testTimeout: 60000,
    // Jest 30's clean-up of globals between files wraps their setters; with MobX's globals
    // (shell tests) a later file in the same worker then recursed without end in that wrapper.
    testEnvironmentOptions: { globalsCleanup: "off" },
    ...extra,
  };
}

const servicesCheck = { globalSetup: "<rootDir>/core/test/global-setup.ts" };

module.exports = {
  testTimeout: 60000,
  maxWorkers: 2,
  projects: [project("unit"), project("integration", servicesCheck), project("browser", servicesCheck)],
};
