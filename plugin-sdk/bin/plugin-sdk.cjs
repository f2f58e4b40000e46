#!/usr/bin/env node
/**
 * The plugin SDK's command line (`plugin-sdk --help`). The commands are TypeScript
 * (src/cli/), run through tsx's CommonJS loader like the rest of the platform.
 */
"use strict";
require("tsx/cjs");
require("../src/cli/main.ts")
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      console.error(`plugin-sdk: ${err && err.stack ? err.stack : err}`);
      process.exitCode = 1;
    },
  );
