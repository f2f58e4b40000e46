#!/usr/bin/env node
// `npm start`: runs the core with tsx (TypeScript straight from source).
const { spawn } = require("node:child_process");
const path = require("node:path");
const root = path.resolve(__dirname, "..");
// The shell and the plugins' UI remotes, built when missing or older than their sources.
const build = require("node:child_process").spawnSync(process.execPath, [path.join(root, "scripts/build-ui.cjs"), "--if-stale"], { stdio: "inherit", cwd: root });
if (build.status !== 0) process.exit(build.status ?? 1);
const tsx = require.resolve("tsx", { paths: [root] });
const child = spawn(process.execPath, ["--import", require("node:url").pathToFileURL(tsx).href, path.join(root, "core/src/bin/start.ts")], {
  stdio: "inherit",
  cwd: root,
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
