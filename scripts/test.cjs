#!/usr/bin/env node
/**
 * `npm test`: prepares the machine (scripts/setup.cjs: installs the Debian packages the tests
 * need and starts MariaDB, Redis and NATS when they are down), checks the boundaries between
 * packages and domains (scripts/check-boundaries.cjs), type-checks every workspace, then runs
 * every test runner of the project and ends with one plain line "N passed, N failed" summing
 * all of them.
 * Extra arguments go to jest (e.g. `npm test -- core/test/auth.test.ts`; the boundary check and
 * the typecheck are then skipped), except:
 *   --setup-only   prepare the machine and stop (exit 0 when everything is there)
 *   --no-setup     leave the machine as it is
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { setup } = require("./setup.cjs");

const root = path.resolve(__dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const OWN_FLAGS = ["--setup-only", "--no-setup"];
const flags = process.argv.slice(2).filter((a) => OWN_FLAGS.includes(a));
const extra = process.argv.slice(2).filter((a) => !OWN_FLAGS.includes(a));
const totals = { passed: 0, failed: 0, skipped: 0 };
let ok = true;

function run(label, cmd, args, opts = {}) {
  console.log(`\n=== ${label}: ${[path.basename(cmd), ...args].join(" ")}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...opts });
  console.log(`=== ${label}: exit ${r.status} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return r.status === 0;
}

/** A step that is not a test runner counts as one failure when it fails. */
function step(label, cmd, args, what) {
  if (run(label, cmd, args)) return;
  ok = false;
  totals.failed += 1;
  console.log(`${what} failed (counted as one failure)`);
}

async function main() {
  if (!flags.includes("--no-setup")) {
    console.log("\n=== setup: packages and services the tests need");
    const r = await setup();
    if (flags.includes("--setup-only")) return r.ready ? 0 : 1;
    // Not fatal: unit tests need none of it, and each other test names what it misses.
    if (!r.ready) console.log("=== setup: the machine is not complete (see above); the tests that need it will fail");
  } else if (flags.includes("--setup-only")) return 0;

  if (!extra.length) {
    step("boundaries", process.execPath, [path.join(root, "scripts/check-boundaries.cjs")], "the boundary check");
    for (const project of ["tsconfig.json", "shell/tsconfig.json"]) step(`typecheck ${project}`, bin("tsc"), ["-p", project], `typecheck of ${project}`);
  }
  // The browser tests drive the built shell and plugin remotes.
  step("build", process.execPath, [path.join(root, "scripts/build-ui.cjs"), ...(extra.length ? ["--if-stale"] : [])], "the UI build");

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
  return ok && totals.failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    console.log("\n0 passed, 1 failed");
    process.exit(1);
  },
);
