/**
 * `npm run bench:whatsapp`: many WhatsApp connections in one plugin node (core/bench/whatsapp-node.ts:
 * the real channel-whatsapp service on fake sockets, its own MariaDB database, joined to a real
 * core over the loopback TCP transporter). Prints JSON:
 *
 * - setup: the connections made through the API (POST /connections, then connect) and the
 *   plugin node's RSS per connection;
 * - inbound: customers' messages emitted by the sockets at a sustained total rate → each one's
 *   `<tenantId>:appMessage` at an agent's socket.io client; msg/s delivered and p50/p95 end to
 *   end (the body carries the emit time; both processes read the same machine clock);
 * - storm: every socket dropped at once (408, connection lost): time until every connection is
 *   connected again (the plugin's sockets open and the core's rows say connected), the most live
 *   sockets any one connection had at once (must be 1), and duplicate messages (every message
 *   upserted again after the storm, as a replay: must store and push nothing).
 *
 * Goals (issue 11): ≥ 1,000 msg/s with p95 ≤ 50 ms; all back within 30 s; 0 duplicate sockets or messages.
 * Options: --connections 100 --customers 5 --rate 1000 --seconds 10 --warmup-rate 300 --log (the core's and the node's warnings)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { io as ioClient, type Socket } from "socket.io-client";
import { childEnv } from "@openatende/config";
import { startBenchCore, createBenchTenant, login, api, summarise, sleep, benchArg, tag, cpuSampler, type BenchCore, type Auth } from "./common";
import { transporterForPluginNodes } from "../src/plugins/external";

const CONNECTIONS = benchArg("connections", 100);
const CUSTOMERS = benchArg("customers", 5);
const RATE = benchArg("rate", 1000);
const SECONDS = benchArg("seconds", 10);
const WARMUP_RATE = benchArg("warmup-rate", 300);
const LOG = benchArg("log", 0) !== 0;

const root = path.resolve(__dirname, "../..");
const wallMs = () => performance.timeOrigin + performance.now();
const SERVICE = "v1.channel-whatsapp";

function startNode(env: Record<string, string>): { proc: ChildProcess; ready: Promise<void> } {
  const tsx = pathToFileURL(require.resolve("tsx", { paths: [root] })).href;
  const proc = spawn(process.execPath, ["--import", tsx, path.join(root, "core/bench/whatsapp-node.ts")], { cwd: root, env: childEnv({ LOG_LEVEL: LOG ? "warn" : "error", NODE_ENV: "production", ...env }), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const ready = new Promise<void>((resolve, reject) => {
    const on = (b: Buffer) => {
      out += b.toString();
      if (/running/.test(out)) resolve();
    };
    proc.stdout!.on("data", on);
    proc.stderr!.on("data", on);
    // The node's own log, with --log.
    if (LOG) proc.stderr!.on("data", (d: Buffer) => process.stderr.write(`[node] ${d}`));
    proc.once("exit", (code) => reject(new Error(`bench node exited ${code}: ${out}`)));
  });
  return { proc, ready };
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (await ok()) return performance.now() - t0;
    if (performance.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

type AppMessage = { action: string; message: { id: number; body: string | null; providerId?: string | null } };

async function main() {
  const namespace = `bench-wa-${tag()}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-bench-wa-"));
  let b: BenchCore | undefined;
  let node: ChildProcess | undefined;
  let socket: Socket | undefined;
  try {
    b = await startBenchCore({ NAMESPACE: namespace, PLUGINS_EXTERNAL: "channel-whatsapp" });
    const n = startNode({
      TRANSPORTER: transporterForPluginNodes(b.config, b.core.broker),
      NAMESPACE: namespace,
      REDIS_URL: b.config.redisUrl,
      DATA_DIR: dataDir,
      PUBLIC_URL: b.config.publicUrl,
      JWT_SECRET: b.config.jwtSecret,
      DATABASE_URL: `mysql://root@127.0.0.1:3306/${b.dbName}`,
    });
    node = n.proc;
    await n.ready;
    const broker = b.core.broker;
    await until("the plugin's service", async () => broker.registry.hasService(SERVICE, undefined as never) && broker.registry.hasService("wa-bench", undefined as never), 30_000, 100);
    const stats = () => broker.call("wa-bench.stats") as Promise<{ rss: number; sockets: number; live: number; openConnections: number; maxLivePerConnection: number }>;

    const tenant = await createBenchTenant(b, { name: "Bench WhatsApp", queues: 1, users: 1, tier: "PREMIUM" });
    const admin: Auth = await login(b.url, tenant.users[0].email);

    // --- setup: connections through the API -----------------------------------------------------
    const before = await stats();
    const setup0 = performance.now();
    const ids: number[] = [];
    for (let i = 0; i < CONNECTIONS; i++) {
      const c = await api(b.url, "POST", "/connections", { name: `WhatsApp ${i + 1}`, type: "channel-whatsapp", queueId: tenant.queueIds[0], settings: {} }, admin);
      if (c.status !== 201) throw new Error(`connection ${i}: ${c.status} ${JSON.stringify(c.body)}`);
      ids.push(c.body.id);
    }
    await Promise.all(
      ids.map(async (id) => {
        const r = await api(b!.url, "POST", `/connections/${id}/connect`, {}, admin);
        if (r.status >= 400) throw new Error(`connect ${id}: ${r.status} ${JSON.stringify(r.body)}`);
      }),
    );
    const allConnected = async () => {
      const r = await api(b!.url, "GET", "/connections", undefined, admin);
      const rows = (Array.isArray(r.body) ? r.body : r.body.connections ?? r.body.rows ?? []) as Array<{ id: number; status: string }>;
      const mine = rows.filter((x) => ids.includes(x.id));
      return mine.length === ids.length && mine.every((x) => x.status === "connected");
    };
    await until("every connection connected", async () => (await stats()).openConnections === CONNECTIONS && (await allConnected()), 120_000, 200).catch(async (err) => {
      const r = await api(b!.url, "GET", "/connections", undefined, admin);
      throw new Error(`${(err as Error).message}: plugin node ${JSON.stringify(await stats())}, core ${JSON.stringify(r.body).slice(0, 1500)}`);
    });
    const setupSeconds = (performance.now() - setup0) / 1000;
    const afterSetup = await stats();

    // --- the agent's socket ---------------------------------------------------------------------
    socket = ioClient(b.url, { path: "/socket.io", transports: ["websocket"], auth: { token: admin.token, sessionId: admin.sessionId }, reconnection: false });
    const s = socket;
    await new Promise((resolve, reject) => {
      s.on("ready", resolve);
      s.on("connect_error", reject);
    });
    const seen = new Map<number, number>(); // message id → times pushed as created
    let latencies: number[] = [];
    let received = 0;
    let lastAt = 0;
    s.on(`${tenant.tenantId}:appMessage`, (p: AppMessage) => {
      if (p.action !== "create" || !p.message?.body) return;
      const at = wallMs();
      seen.set(p.message.id, (seen.get(p.message.id) ?? 0) + 1);
      const m = / @(\d+\.\d+)$/.exec(p.message.body);
      if (m) latencies.push(at - Number(m[1]));
      received++;
      lastAt = at;
    });

    // --- warm-up: every customer's first message makes their contact and ticket -----------------
    const warm = CONNECTIONS * CUSTOMERS;
    received = 0;
    await broker.call("wa-bench.inbound", { connectionIds: ids, customers: CUSTOMERS, count: warm, rate: WARMUP_RATE, tag: `w${tag()}` }, { timeout: 0 });
    await until("the warm-up messages", async () => received >= warm, 120_000);

    // --- sustained inbound ------------------------------------------------------------------------
    const cpu = cpuSampler()();
    latencies = [];
    received = 0;
    const count = RATE * SECONDS;
    const t0 = wallMs();
    const emit = (await broker.call("wa-bench.inbound", { connectionIds: ids, customers: CUSTOMERS, count, rate: RATE, tag: `m${tag()}` }, { timeout: 0 })) as { emitted: number; seconds: number };
    await until("the measured messages", async () => received >= emit.emitted, 120_000).catch(() => undefined);
    const inbound = {
      emitted: emit.emitted,
      emitSeconds: Number(emit.seconds.toFixed(2)),
      delivered: received,
      msgPerSec: Math.round(received / ((lastAt - t0) / 1000)),
      endToEndMs: summarise(latencies),
      cpuPercentOfOneCore: cpu(),
    };

    // --- reconnect storm --------------------------------------------------------------------------
    const drop = (await broker.call("wa-bench.dropAll")) as { dropped: number; at: number };
    const stormMs = await until("every connection back", async () => (await stats()).openConnections === CONNECTIONS && (await allConnected()), 120_000, 100);
    const afterStorm = await stats();
    // WhatsApp replays what it had delivered before the drop: nothing may be stored or pushed again.
    received = 0;
    const replay = (await broker.call("wa-bench.replayLast")) as { replayed: number };
    await sleep(2000);
    const pushedAgain = received;
    const pushedTwice = [...seen.values()].filter((v) => v > 1).length;

    const out = {
      benchmark: "whatsapp",
      what: "channel-whatsapp in a plugin node of its own on fake sockets (Baileys' event emitter and protobuf messages), real core, MariaDB, Redis; customer message emitted by the socket → appMessage at the agent's socket.io client",
      options: { connections: CONNECTIONS, customers: CUSTOMERS, rate: RATE, seconds: SECONDS },
      machine: { cpus: os.cpus().length, node: process.version },
      setup: {
        seconds: Number(setupSeconds.toFixed(2)),
        pluginNodeRssMb: { before: Math.round(before.rss / 1048576), after: Math.round(afterSetup.rss / 1048576) },
        rssPerConnectionKb: Math.round((afterSetup.rss - before.rss) / 1024 / CONNECTIONS),
      },
      inbound,
      storm: {
        dropped: drop.dropped,
        allBackSeconds: Number((stormMs / 1000).toFixed(2)),
        socketsCreated: afterStorm.sockets - afterSetup.sockets,
        maxLiveSocketsPerConnection: afterStorm.maxLivePerConnection,
        replayedAfterStorm: replay.replayed,
        replaysPushedAgain: pushedAgain,
        messagesPushedTwice: pushedTwice,
      },
      goals: {
        msgPerSecAtLeast1000: inbound.msgPerSec >= 1000,
        p95AtMost50ms: inbound.endToEndMs.p95 <= 50,
        allBackWithin30s: stormMs <= 30_000,
        noDuplicateSockets: afterStorm.maxLivePerConnection <= 1,
        noDuplicateMessages: pushedTwice === 0 && pushedAgain === 0,
      },
    };
    console.log(JSON.stringify(out, null, 2));
  } finally {
    socket?.disconnect();
    if (node && node.exitCode === null) {
      const gone = new Promise((r) => node!.once("exit", r));
      node.kill("SIGTERM");
      await Promise.race([gone, sleep(8000)]);
      if (node.exitCode === null) node.kill("SIGKILL");
    }
    await b?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
