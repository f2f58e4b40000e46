/**
 * Test helper: a plugin node (core/src/bin/plugin-node.ts) as a child process, the way
 * `npm start` runs one, with its output kept for the failure message.
 */
import { spawn, ChildProcess } from "node:child_process";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { childEnv } from "@openatende/config";
import { busKeyOf, pluginTokensEnv } from "../src/middlewares/caller-identity";

const root = path.resolve(__dirname, "../..");
const tsx = pathToFileURL(require.resolve("tsx", { paths: [root] })).href;

export interface PluginNode {
  proc: ChildProcess;
  output: string[];
  /** Resolves with the node id once its plugins run. */
  ready: Promise<string>;
  /** Kills it (SIGKILL by default: no goodbye on the transporter) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * `env.JWT_SECRET` is the core's (the tests pass it): the node is given the tokens of the plugins
 * it runs the way the core's host gives them (PLUGIN_TOKENS), unless the test sets its own.
 */
export function startPluginNode(ids: string[], env: Record<string, string | undefined>): PluginNode {
  const plugins = ids.filter((a, i) => /^[a-z0-9][a-z0-9-]*$/.test(a) && !/^--/.test(ids[i - 1] ?? ""));
  if (env.JWT_SECRET && !("PLUGIN_TOKENS" in env)) env = { ...env, PLUGIN_TOKENS: pluginTokensEnv(busKeyOf(env.JWT_SECRET), plugins) };
  const proc = spawn(process.execPath, ["--import", tsx, path.join(root, "core/src/bin/plugin-node.ts"), ...ids], {
    cwd: root,
    env: childEnv({ LOG_LEVEL: "warn", NODE_ENV: "test", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (b: Buffer) => {
      output.push(b.toString());
      const m = output.join("").match(/node (\S+) running plugins/);
      if (m) resolve(m[1]);
    };
    proc.stdout!.on("data", onData);
    proc.stderr!.on("data", onData);
    proc.once("exit", (code, signal) => reject(new Error(`plugin node exited (${signal ?? code}):\n${output.join("")}`)));
    setTimeout(() => reject(new Error(`plugin node not ready in 60 s:\n${output.join("")}`)), 60_000).unref();
  });
  ready.catch(() => undefined);
  return {
    proc,
    output,
    ready,
    async kill(signal: NodeJS.Signals = "SIGKILL") {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill(signal);
      await exited;
    },
  };
}
