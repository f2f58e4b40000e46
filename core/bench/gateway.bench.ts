/**
 * `npm run bench:gateway`: requests/s of a no-op action through the gateway (moleculer-web,
 * security headers, error shape, broker call) against a bare node:http server answering the
 * same JSON, measured in the same run with the same load generator. Prints JSON.
 *
 * The load runs in a child process (autocannon) so it does not share the server's event loop.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as http from "node:http";
import { fork } from "node:child_process";
import { loadConfig } from "@openatende/config";
import { createCore } from "../src/broker";

const DURATION = 8;
const CONNECTIONS = 50;

function runLoad(url: string): Promise<{ rps: number; p99: number; errors: number; non2xx: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, "load.cjs"), [url, String(DURATION), String(CONNECTIONS)], { stdio: ["ignore", "pipe", "inherit", "ipc"] });
    child.on("message", (m) => resolve(m as { rps: number; p99: number; errors: number; non2xx: number }));
    child.on("error", reject);
    child.on("exit", (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)));
  });
}

async function main() {
  const body = JSON.stringify({ ok: true });
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
    res.end(body);
  });
  await new Promise<void>((r) => bare.listen(0, "127.0.0.1", () => r()));
  const barePort = (bare.address() as { port: number }).port;

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-bench-"));
  const config = loadConfig({
    PLUGIN_INSTALLS: "false",
    DATA_DIR: dir,
    PORT: "0",
    HOST: "127.0.0.1",
    SEED: "false",
    LOG_LEVEL: "error",
    JWT_SECRET: "bench-secret-bench-secret-bench-secret-0000",
  });
  const core = createCore({ config, logger: false });
  await core.start();
  const api = core.broker.getLocalService("api") as unknown as { server: { address(): { port: number } } };
  const gwPort = api.server.address().port;
  await new Promise((r) => setTimeout(r, 1000)); // auto aliases settle

  // Warm up both, then measure one after the other.
  await runLoad(`http://127.0.0.1:${barePort}/`);
  await runLoad(`http://127.0.0.1:${gwPort}/api/ping`);
  const bareRes = await runLoad(`http://127.0.0.1:${barePort}/`);
  const gwRes = await runLoad(`http://127.0.0.1:${gwPort}/api/ping`);

  await core.stop();
  bare.close();
  fs.rmSync(dir, { recursive: true, force: true });

  const result = {
    benchmark: "gateway",
    durationSeconds: DURATION,
    connections: CONNECTIONS,
    cpus: os.cpus().length,
    node: process.version,
    gateway: { url: "/api/ping (system.ping, no-op action)", ...gwRes },
    bareHttp: { url: "node:http, same JSON", ...bareRes },
    ratio: Number((gwRes.rps / bareRes.rps).toFixed(3)),
    goal: 0.5,
  };
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
