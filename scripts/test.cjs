#!/usr/bin/env node
/**
 * `npm test`: type-checks every workspace, then runs every test runner of the project and
 * ends with one plain line "N passed, N failed" summing all of them.
 * Extra arguments go to jest (e.g. `npm test -- core/test/auth.test.ts`).
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const extra = process.argv.slice(2);
const totals = { passed: 0, failed: 0, skipped: 0 };
let ok = true;

function run(label, cmd, args, opts = {}) {
  console.log(`\n=== ${label}: ${[path.basename(cmd), ...args].join(" ")}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...opts });
  console.log(`=== ${label}: exit ${r.status} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return r.status === 0;
}

if (!extra.length) {
  for (const project of ["tsconfig.json", "shell/tsconfig.json"]) {
    if (!run(`typecheck ${project}`, bin("tsc"), ["-p", project])) {
      ok = false;
      totals.failed += 1;
      console.log(`typecheck of ${project} failed (counted as one failure)`);
    }
  }
}
// The browser tests drive the built shell and plugin remotes.
if (!run("build", process.execPath, [path.join(root, "scripts/build-ui.cjs"), ...(extra.length ? ["--if-stale"] : [])])) {
  ok = false;
  totals.failed += 1;
  console.log("the UI build failed (counted as one failure)");
}

const out = path.join(os.tmpdir(), `openatende-jest-${process.pid}.json`);
const jestOk = run("jest", bin("jest"), ["--json", `--outputFile=${out}`, ...extra]);
ok = ok && jestOk;
try {
  const r = JSON.parse(fs.readFileSync(out, "utf8"));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0);
  totals.skipped += r.numPendingTests + r.numTodoTests;
  if (r.numTotalTests === 0) {
    ok = false;
    console.log("jest ran no test");
  }
} catch {
  ok = false;
  totals.failed += 1;
  console.log("jest wrote no summary (counted as one failure)");
}

console.log("");
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
