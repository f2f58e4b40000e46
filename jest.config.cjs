const preset = require("./config/jest/preset.cjs");

/** One jest run over every workspace; browser tests (Playwright) run separately. */
module.exports = {
  ...preset,
  roots: ["<rootDir>/config", "<rootDir>/contracts", "<rootDir>/core", "<rootDir>/plugin-sdk", "<rootDir>/plugins", "<rootDir>/marketplace", "<rootDir>/shell"],
  testMatch: ["**/?(*.)test.ts"],
  testTimeout: 60000,
  globalSetup: "<rootDir>/core/test/global-setup.ts",
  maxWorkers: 2,
  // Jest 30's clean-up of globals between files wraps their setters; with MobX's globals
  // (shell tests) a later file in the same worker then recursed without end in that wrapper.
  testEnvironmentOptions: { globalsCleanup: "off" },
};
