#!/usr/bin/env node
// `npm start`: runs the core with tsx (TypeScript straight from source).
const { spawn } = require("node:child_process");
const path = require("node:path");
const root = path.resolve(__dirname, "..");
const tsx = require.resolve("tsx", { paths: [root] });
const child = spawn(process.execPath, ["--import", require("node:url").pathToFileURL(tsx).href, path.join(root, "core/src/bin/start.ts")], {
  stdio: "inherit",
  cwd: root,
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
