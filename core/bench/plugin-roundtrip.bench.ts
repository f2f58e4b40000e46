/**
 * `npm run bench:plugin-roundtrip`: how long a message round trip takes through channel-telegram
 * running inside the core's process versus in a plugin node of its own (over Moleculer's TCP
 * transporter on loopback, and over the machine's NATS). Prints JSON.
 *
 * One round trip: a customer's message is pushed to the local Bot API server (the plugin's
 * long poll takes it at once) → the plugin hands it to the core → the ticket's
 * `<tenantId>:appMessage` event reaches the agent's socket → the agent replies through the
 * API → the plugin sends it → the Bot API server receives the sendMessage. Reported per mode:
 * p50/p95 of the whole trip and of its two halves (inbound: push → socket event; outbound:
 * reply POST → sendMessage at the server).
 *
 * Telegram's limits are the plugin's (1 message a second per chat, 30 a second per bot):
 * --chats customers take turns and --pause-ms separates the iterations, so no send waits in
 * the plugin's queue and the figures are the platform's own. A fresh MariaDB database per mode.
 *
 * Options: --iterations 100 --warmup 10 --chats 20 --pause-ms 120 --tcp 1 --nats 1
 */
import * as path from "node:path";
import * as fs from "node:fs";
import * as os from "node:os";
import { spawn, ChildProcess } from "node:child_process";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { io as ioClient, Socket } from "socket.io-client";
import { childEnv } from "@openatende/config";
import { startBenchCore, createBenchTenant, login, api, summarise, sleep, benchArg, tag, BenchCore, Auth } from "./common";
import { transporterForPluginNodes } from "../src/plugins/external";
import { FakeBotApi, FakeCall } from "../../plugins/channel-telegram/test/fake-bot-api";

const ITERATIONS = benchArg("iterations", 100);
const WARMUP = benchArg("warmup", 10);
const CHATS = benchArg("chats", 20);
const PAUSE_MS = benchArg("pause-ms", 120);
const WITH_TCP = benchArg("tcp", 1) !== 0;
const WITH_NATS = benchArg("nats", 1) !== 0;

const root = path.resolve(__dirname, "../..");
const now = () => performance.now();

type Mode = "inProcess" | "tcp" | "nats";

/** Resolves the first time `test` holds for something `subscribe` reports. */
function nextMatch<T>(subscribe: (fn: (x: T) => void) => () => void, test: (x: T) => boolean, timeoutMs = 15_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error("timed out"));
    }, timeoutMs);
    const off = subscribe((x) => {
      if (!test(x)) return;
      clearTimeout(timer);
      off();
      resolve(x);
    });
  });
}

function startPluginNode(env: Record<string, string>): { proc: ChildProcess; ready: Promise<void> } {
  const tsx = pathToFileURL(require.resolve("tsx", { paths: [root] })).href;
  const proc = spawn(process.execPath, ["--import", tsx, path.join(root, "core/src/bin/plugin-node.ts"), "channel-telegram"], {
    cwd: root,
    env: childEnv({ LOG_LEVEL: "error", NODE_ENV: "production", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const ready = new Promise<void>((resolve, reject) => {
    const on = (b: Buffer) => {
      out += b.toString();
      if (/running plugins/.test(out)) resolve();
    };
    proc.stdout!.on("data", on);
    proc.stderr!.on("data", on);
    proc.once("exit", (code) => reject(new Error(`plugin node exited ${code}: ${out}`)));
  });
  return { proc, ready };
}

async function runMode(mode: Mode) {
  const namespace = `bench-rt-${mode}-${tag()}`;
  const env: Record<string, string> = { NAMESPACE: namespace };
  if (mode !== "inProcess") env.PLUGINS_EXTERNAL = "channel-telegram";
  if (mode === "nats") env.TRANSPORTER = "nats://127.0.0.1:4222";
  const bot = await FakeBotApi.start();
  const calls = new Set<(c: FakeCall) => void>();
  const push = bot.calls.push.bind(bot.calls);
  bot.calls.push = (...items: FakeCall[]) => {
    const n = push(...items);
    for (const c of items) for (const fn of calls) fn(c);
    return n;
  };
  let b: BenchCore | undefined;
  let node: ChildProcess | undefined;
  let socket: Socket | undefined;
  const pluginDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-bench-plugin-"));
  try {
    b = await startBenchCore(env);
    if (mode !== "inProcess") {
      const n = startPluginNode({
        TRANSPORTER: transporterForPluginNodes(b.config, b.core.broker),
        NAMESPACE: namespace,
        REDIS_URL: b.config.redisUrl,
        DATA_DIR: pluginDir,
        PUBLIC_URL: b.config.publicUrl,
        JWT_SECRET: b.config.jwtSecret,
      });
      node = n.proc;
      await n.ready;
      for (let i = 0; i < 300 && !b.core.broker.registry.hasService("v1.channel-telegram", undefined as never); i++) await sleep(100);
    }
    const tenant = await createBenchTenant(b, { name: `Bench ${mode}`, queues: 1, users: 1 });
    const admin: Auth = await login(b.url, tenant.users[0].email);
    const { token: botToken } = bot.addBot();
    const conn = await api(b.url, "POST", "/connections", { name: "Telegram bench", type: "channel-telegram", queueId: tenant.queueIds[0], settings: { token: botToken, mode: "polling", apiRoot: bot.url } }, admin);
    if (conn.status !== 201) throw new Error(`connection: ${conn.status} ${JSON.stringify(conn.body)}`);
    const on = await api(b.url, "POST", `/connections/${conn.body.id}/connect`, {}, admin);
    if (on.body?.status !== "connected") throw new Error(`connect: ${JSON.stringify(on.body)}`);

    socket = ioClient(b.url, { path: "/socket.io", transports: ["websocket"], auth: { token: admin.token, sessionId: admin.sessionId }, reconnection: false });
    const s = socket;
    await new Promise((resolve, reject) => {
      s.on("ready", resolve);
      s.on("connect_error", reject);
    });
    type AppMessage = { action: string; message: { body: string | null }; ticket: { id: number } };
    const events = (fn: (p: AppMessage) => void) => {
      s.on(`${tenant.tenantId}:appMessage`, fn);
      return () => void s.off(`${tenant.tenantId}:appMessage`, fn);
    };
    const atTelegram = (fn: (c: FakeCall) => void) => {
      calls.add(fn);
      return () => void calls.delete(fn);
    };

    const chats = Array.from({ length: CHATS }, (_, i) => ({ id: 8_000_000 + i, first_name: `Cliente ${i}` }));
    let messageId = 1_000_000;
    const samples = { roundTrip: [] as number[], inbound: [] as number[], outbound: [] as number[] };
    const total = WARMUP + ITERATIONS;
    for (let i = 0; i < total; i++) {
      const chat = chats[i % chats.length];
      const text = `rt ${i}`;
      const seen = nextMatch(events, (p) => p.action === "create" && p.message?.body === text);
      const t0 = now();
      bot.pushUpdate(botToken, { message: FakeBotApi.message(chat, { text }, messageId++) });
      const evt = await seen;
      const t1 = now();
      const reply = `re ${i}`;
      const sent = nextMatch(atTelegram, (c) => c.method === "sendMessage" && c.params.text === reply);
      const posted = api(b.url, "POST", `/messages/${evt.ticket.id}`, { body: reply }, admin);
      await sent;
      const t2 = now();
      const r = await posted;
      if (r.status !== 201 || r.body.status !== "sent") throw new Error(`reply ${i}: ${r.status} ${JSON.stringify(r.body)}`);
      if (i >= WARMUP) {
        samples.roundTrip.push(t2 - t0);
        samples.inbound.push(t1 - t0);
        samples.outbound.push(t2 - t1);
      }
      await sleep(PAUSE_MS);
    }
    return { roundTripMs: summarise(samples.roundTrip), inboundMs: summarise(samples.inbound), outboundMs: summarise(samples.outbound) };
  } finally {
    socket?.disconnect();
    if (node && node.exitCode === null) {
      const gone = new Promise((r) => node!.once("exit", r));
      node.kill("SIGTERM");
      await Promise.race([gone, sleep(8000)]);
      if (node.exitCode === null) node.kill("SIGKILL");
    }
    await b?.stop();
    await bot.close();
    fs.rmSync(pluginDir, { recursive: true, force: true });
  }
}

async function main() {
  const modes: Mode[] = ["inProcess", ...(WITH_TCP ? (["tcp"] as const) : []), ...(WITH_NATS ? (["nats"] as const) : [])];
  const results: Partial<Record<Mode, Awaited<ReturnType<typeof runMode>>>> = {};
  for (const m of modes) results[m] = await runMode(m);
  const base = results.inProcess!.roundTripMs;
  const vs = (m: Mode) => {
    const r = results[m]?.roundTripMs;
    return r ? { p50AddedMs: Number((r.p50 - base.p50).toFixed(2)), p95AddedMs: Number((r.p95 - base.p95).toFixed(2)), p50Ratio: Number((r.p50 / base.p50).toFixed(2)) } : undefined;
  };
  const out = {
    benchmark: "plugin-roundtrip",
    what: "customer message pushed to the Bot API server → ticket event at the agent's socket → agent's reply via the API → sendMessage at the Bot API server (channel-telegram, MariaDB, Redis)",
    options: { iterations: ITERATIONS, warmup: WARMUP, chats: CHATS, pauseMs: PAUSE_MS },
    machine: { cpus: os.cpus().length, node: process.version },
    modes: results,
    separateProcessVsInProcess: { tcp: vs("tcp"), nats: vs("nats") },
  };
  console.log(JSON.stringify(out, null, 2));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
