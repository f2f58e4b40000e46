/**
 * Shared by the benchmarks: a real core on a fresh MariaDB database (`oa_bench_<random>`,
 * created by the core's own start, dropped at the end), a licensed tenant built through the
 * services' internal actions, a small fetch client, and percentile helpers.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createConnection } from "mysql2/promise";
import { loadConfig, AppConfig } from "@openatende/config";
import { createCore, Core } from "../src/broker";
import { generateLicenceKeys, loadPrivateKey, signLicence } from "../src/licence/token";
import type { Tier } from "../src/licence/tiers";

export const PASSWORD = "Secret123";
const LICENCE_KEYS = generateLicenceKeys();
const LICENCE_DOMAIN = "atende.bench";

export const tag = () => randomBytes(4).toString("hex");

export interface BenchCore {
  core: Core;
  config: AppConfig;
  url: string;
  dbName: string;
  stop(): Promise<void>;
}

export const MYSQL = { host: "127.0.0.1", port: 3306, user: "root", password: "" };

export async function startBenchCore(env: Record<string, string> = {}): Promise<BenchCore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-bench-"));
  const dbName = `oa_bench_${tag()}`;
  const config = loadConfig({
    PLUGIN_INSTALLS: "false",
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://${LICENCE_DOMAIN}`,
    DATA_DIR: dataDir,
    DATABASE_URL: `mysql://root@127.0.0.1:3306/${dbName}`,
    REDIS_URL: "redis://127.0.0.1:6379",
    JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123456789",
    BCRYPT_ROUNDS: "4",
    LICENCE_PUBLIC_KEY: LICENCE_KEYS.publicKeyPem,
    LICENCE_DOMAIN,
    LOGIN_RATE_LIMIT: "100000",
    SEED: "false",
    LOG_LEVEL: "error",
    TRANSPORTER: "",
    SERVICES: "all",
    ...env,
  });
  const core = createCore({ config, logger: benchArg("log", 0) ? ({ type: "Console", options: { level: "warn" } } as never) : false });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await core.stop().catch(() => undefined);
    if (!benchArg("keep-db", 0)) await dropDatabase(dbName).catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await core.start();
  } catch (err) {
    await stop();
    throw err;
  }
  const api = core.broker.getLocalService("api") as unknown as { server: { address(): { port: number } } };
  const url = `http://127.0.0.1:${api.server.address().port}`;
  // Auto aliases are regenerated with a debounce when services appear; wait for them.
  for (let i = 0; i < 60; i++) {
    const aliases = (await core.broker.call("api.listAliases")) as unknown[];
    if (aliases.length > 10) break;
    await sleep(100);
  }
  await sleep(600);
  return { core, config, url, dbName, stop };
}

/** Drops the bench core's database and its plugins' own databases (`<name>__<plugin>`). */
export async function dropDatabase(name: string) {
  const c = await createConnection(MYSQL);
  const [plugins] = await c.query("SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?", [`${name.replace(/_/g, "\\_")}\\_\\_%`]);
  for (const p of plugins as Array<{ name: string }>) await c.query(`DROP DATABASE IF EXISTS \`${p.name}\``);
  await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await c.end();
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Auth {
  token: string;
  sessionId: string;
  userId: number;
  tenantId: number;
}

export function authHeaders(a: Auth): Record<string, string> {
  return { authorization: `Bearer ${a.token}`, "x-session-id": a.sessionId };
}

export async function api<T = any>(base: string, method: string, p: string, body?: unknown, auth?: Auth): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = auth ? authHeaders(auth) : {};
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${base}/api${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* keep text */
  }
  return { status: res.status, body: parsed as T };
}

export async function login(base: string, email: string): Promise<Auth> {
  const r = await api(base, "POST", "/auth/login", { email, password: PASSWORD });
  if (r.status !== 200) throw new Error(`login ${email}: ${r.status} ${JSON.stringify(r.body)}`);
  return { token: r.body.token, sessionId: r.body.sessionId, userId: r.body.userId, tenantId: r.body.tenantId };
}

function licenceFor(tier: Tier, tenantId: number): string {
  const now = Date.now();
  return signLicence(
    {
      lid: `bench-${tag()}`,
      tier,
      issuedAt: new Date(now - 86400_000).toISOString(),
      expiresAt: new Date(now + 30 * 86400_000).toISOString(),
      domain: LICENCE_DOMAIN,
      document: "11222333000181",
      tenantId,
      issuer: "bench",
    },
    loadPrivateKey(LICENCE_KEYS.privateKeyPem),
  );
}

export interface BenchTenant {
  tenantId: number;
  queueIds: number[];
  /** e-mail and id of each user; the first is the admin. */
  users: Array<{ id: number; email: string; profile: string; queues: number[] }>;
}

/**
 * A licensed tenant with `queues` queues and `users` users (one admin, a few supervisors,
 * the rest agents; every user in one or two queues), through the internal actions.
 */
export async function createBenchTenant(b: BenchCore, opts: { name: string; queues: number; users: number; tier?: Tier }): Promise<BenchTenant> {
  const broker = b.core.broker;
  const t = (await broker.call("tenants.createInternal", { name: opts.name, document: "11222333000181" })) as { id: number };
  const queueIds: number[] = [];
  for (let i = 0; i < opts.queues; i++) {
    const q = (await broker.call("queues.createInternal", { tenantId: t.id, name: `Fila ${i + 1}` })) as { id: number };
    queueIds.push(q.id);
  }
  const users: BenchTenant["users"] = [];
  const k = tag();
  for (let i = 0; i < opts.users; i++) {
    const profile = i === 0 ? "admin" : i <= 2 ? "supervisor" : "user";
    const queues = i === 0 ? queueIds : [queueIds[i % queueIds.length], queueIds[(i + 1) % queueIds.length]].filter((q, j, a) => a.indexOf(q) === j);
    const email = `u${i}-${k}@bench.test`;
    const u = (await broker.call("users.createInternal", { tenantId: t.id, name: `User ${i}`, email, password: PASSWORD, profile, queues })) as { id: number };
    users.push({ id: u.id, email, profile, queues });
  }
  await broker.call("tenants.setLicenseToken", { id: t.id, token: licenceFor(opts.tier ?? "PLUS", t.id) });
  await broker.broadcast("licence.changed", { tenantId: t.id });
  return { tenantId: t.id, queueIds, users };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function summarise(samples: number[]): { n: number; p50: number; p95: number; p99: number; max: number } {
  const s = [...samples].sort((a, b) => a - b);
  const r = (x: number) => Number(x.toFixed(2));
  return { n: s.length, p50: r(percentile(s, 50)), p95: r(percentile(s, 95)), p99: r(percentile(s, 99)), max: r(s[s.length - 1] ?? NaN) };
}

/**
 * CPU time of the parts of a run (Linux /proc; empty elsewhere): this process, MariaDB, and
 * the whole machine, to tell which one a measurement ran out of.
 */
export function cpuSampler() {
  const tick = 100; // USER_HZ
  const procCpu = (pid: number) => {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const rest = f.slice(f.lastIndexOf(")") + 2).split(" ");
      return (Number(rest[11]) + Number(rest[12])) / tick; // utime + stime
    } catch {
      return NaN;
    }
  };
  const machine = () => {
    try {
      const [cpu] = fs.readFileSync("/proc/stat", "utf8").split("\n");
      const v = cpu.trim().split(/\s+/).slice(1).map(Number);
      const idle = v[3] + (v[4] ?? 0);
      return { busy: (v.reduce((a, b) => a + b, 0) - idle) / tick };
    } catch {
      return { busy: NaN };
    }
  };
  let mariadb = 0;
  try {
    for (const d of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(d)) continue;
      try {
        if (fs.readFileSync(`/proc/${d}/comm`, "utf8").trim() === "mariadbd") mariadb = Number(d);
      } catch {
        /* gone */
      }
    }
  } catch {
    /* not Linux */
  }
  return () => {
    const t0 = process.hrtime.bigint();
    const self0 = process.cpuUsage();
    const db0 = mariadb ? procCpu(mariadb) : NaN;
    const m0 = machine();
    /** Percent of one core each, over the time since the sampler started. */
    return (extra: Record<string, number> = {}) => {
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      const self = process.cpuUsage(self0);
      const pct = (s: number) => Math.round((s / secs) * 100);
      const serverProcess = pct((self.user + self.system) / 1e6);
      const db = mariadb ? pct(procCpu(mariadb) - db0) : 0;
      const more = Object.fromEntries(Object.entries(extra).map(([k, s]) => [k, pct(s)]));
      const machineBusy = pct(machine().busy - m0.busy);
      return {
        serverProcess,
        mariadb: mariadb ? db : null,
        ...more,
        machineBusy,
        machineCores: os.cpus().length * 100,
        // Everything else on the machine (kernel, Redis, other people's processes): a large
        // figure means the run shared the CPUs and its throughput reads low.
        otherProcesses: machineBusy - serverProcess - db - Object.values(more).reduce((a, b) => a + b, 0),
      };
    };
  };
}


/**
 * A benchmark option from the command line (`--duration 15`), so benchmarks need no
 * environment variables (the configuration module is the only reader of those).
 */
export function benchArg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return def;
  const v = process.argv[i + 1];
  if (v === undefined || v.startsWith("--")) return 1;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${name} needs a number, got "${v}"`);
  return n;
}

/** What http-load.cjs answers: exact latency percentiles in ms. */
export interface LoadResult {
  /** CPU seconds the load generator used. */
  cpuSeconds: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/**
 * GETs of `url` from a child process (http-load.cjs, so the clients do not share the server's
 * event loop): `connections` keep-alive clients for `duration` seconds or `count` requests.
 */
export function httpLoad(url: string, auth: Auth, opts: { duration?: number; count?: number; connections: number }): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const arg = JSON.stringify({ url, headers: authHeaders(auth), duration: opts.duration, count: opts.count, connections: opts.connections });
    const child = fork(path.join(__dirname, "http-load.cjs"), [arg], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.on("message", (m) => resolve(m as LoadResult));
    child.on("error", reject);
    child.on("exit", (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)));
  });
}
