/**
 * `plugin-sdk test [dir]`: the plugin's tests (the conformance kit against its fake core, and
 * the plugin's own) with the platform's jest and transform, wherever the plugin folder is:
 * the generated config's rootDir is the plugin, and modules resolve from this repo.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { parseArgs } from "./args";
import { readPluginFolder, REPO_NODE_MODULES, REPO_ROOT } from "./workspace";

export const TEST_HELP = `Usage: plugin-sdk test [dir] [-- <jest options>]

Runs the tests of the plugin in <dir> (default: the current folder): every *.test.ts / *.test.tsx
under it (dist/ and node_modules/ left out), with the platform's jest and @swc/jest transform.
A channel's test/conformance.test.ts runs the SDK's conformance kit against its fake core.
Options after "--" go to jest as they are (e.g. -- -t "send"). Exit code: jest's (2 for bad usage).`;

/** The jest config for a plugin folder: the platform's preset with every path made absolute. */
export function jestConfigFor(dir: string): Record<string, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const preset = require(path.join(REPO_ROOT, "config/jest/preset.cjs")) as { transform: Record<string, [string, unknown]> } & Record<string, unknown>;
  const transform: Record<string, [string, unknown]> = {};
  for (const [pattern, [name, options]] of Object.entries(preset.transform)) transform[pattern] = [require.resolve(name, { paths: [REPO_ROOT] }), options];
  return {
    ...preset,
    rootDir: dir,
    roots: ["<rootDir>"],
    testMatch: ["**/?(*.)test.ts", "**/?(*.)test.tsx"],
    testEnvironment: require.resolve("jest-environment-node", { paths: [REPO_ROOT] }),
    transform,
    moduleFileExtensions: ["ts", "tsx", "js", "cjs", "json"],
    testPathIgnorePatterns: ["/node_modules/", "/dist/"],
    // The plugin's imports (the SDK, moleculer, react, …) resolve from this repo, wherever it sits.
    modulePaths: [REPO_NODE_MODULES],
    moduleDirectories: ["node_modules", REPO_NODE_MODULES],
    testTimeout: 60_000,
  };
}

export async function testCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, {}, 1);
  if (args.flags.help) {
    console.log(TEST_HELP);
    return 0;
  }
  const { dir } = readPluginFolder(args.positionals[0]);
  const jest = require.resolve("jest/bin/jest", { paths: [REPO_ROOT] });
  const child = spawn(process.execPath, [jest, "--config", JSON.stringify(jestConfigFor(dir)), ...args.rest], { cwd: dir, stdio: "inherit" });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  try {
    return await new Promise<number>((resolve, reject) => {
      child.on("error", reject);
      child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
  } finally {
    process.off("SIGINT", forward);
    process.off("SIGTERM", forward);
  }
}
