/**
 * Helpers of the CLI's tests: the real bin run as a child process (asynchronously, so a test's
 * own HTTP server keeps answering while it runs), temp folders, a free port.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

export const BIN = path.resolve(__dirname, "../../bin/plugin-sdk.cjs");

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function runCli(args: string[], opts: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {}): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 170_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Starts the bin and resolves once a stdout line matches `ready` (the child keeps running). */
export function startCli(args: string[], ready: RegExp, opts: { cwd?: string; timeoutMs?: number } = {}): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no ${ready} within ${opts.timeoutMs ?? 60_000} ms; output:\n${out}`));
    }, opts.timeoutMs ?? 60_000);
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = out.match(ready);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m, output: () => out });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${ready}; output:\n${out}`));
    });
  });
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `plugin-sdk-${prefix}-`));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export function copyDir(from: string, to: string): string {
  fs.cpSync(from, to, { recursive: true, filter: (src) => !/[\\/](node_modules|dist)$/.test(src) });
  return to;
}

export function editJson(file: string, edit: (json: any) => void): void {
  const json = JSON.parse(fs.readFileSync(file, "utf8"));
  edit(json);
  fs.writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
}
