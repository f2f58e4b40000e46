/**
 * Test helpers: a real core (real MariaDB or SQLite, real Redis) on a random port, with a
 * fresh database per test file, plus small HTTP helpers. Nothing of our own is mocked.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { createConnection } from "mysql2/promise";
import type { ServiceSchema, LoggerConfig, Loggers } from "moleculer";
import { loadConfig, AppConfig } from "@openatende/config";
import { createCore, Core } from "../src/broker";
import { createMigratedDatabase } from "./db-template";
import type { Clock } from "../src/lib/clock";
import { pluginDatabaseUserName } from "../src/plugins/data";
import { pluginRedisUserPrefix } from "../src/plugins/redis-access";
import { generateLicenceKeys, signLicence, loadPrivateKey } from "../src/licence/token";
import type { Tier } from "../src/licence/tiers";

export type Dialect = "mariadb" | "sqlite";
export const DIALECTS: Dialect[] = ["mariadb", "sqlite"];

/** One Ed25519 pair for the whole test process; tests sign licences with it. */
export const LICENCE_KEYS = generateLicenceKeys();
export const LICENCE_DOMAIN = "atende.test";
export const PASSWORD = "Secret123";

export const uid = () => randomBytes(4).toString("hex");

export interface TestCore {
  core: Core;
  config: AppConfig;
  url: string;
  api: ApiClient;
  /** Where its data lives (a second core started with `reuse` shares it). */
  store: { dbName: string; dataDir: string; dialect: Dialect };
  /** `keep`: leave the database and data dir for a core started after it with `reuse` (a restart). */
  stop(opts?: { keep?: boolean }): Promise<void>;
}

export interface StartOptions {
  dialect?: Dialect;
  env?: Record<string, string>;
  services?: ServiceSchema[];
  /** The core's Moleculer logger (default: none); a test that reads the logs passes its own. */
  logger?: LoggerConfig | Loggers.Base<Loggers.Base.LoggerOptions>;
  /** The core's clock (a TestClock moves time without sleeping) and the scheduler's tick (0: tick by hand with schedulerOf(core.broker).tick()). */
  clock?: Clock;
  schedulerTickMs?: number;
  /** Start on the database and data dir of a core stopped with `keep` (a restart: same installation, same Redis prefix). */
  reuse?: TestCore["store"];
}

export async function startCore(opts: StartOptions = {}): Promise<TestCore> {
  const dialect = opts.reuse?.dialect ?? opts.dialect ?? "mariadb";
  const dataDir = opts.reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "oa-test-"));
  const dbName = opts.reuse?.dbName ?? `oa_t_${process.pid}_${uid()}`;
  const env: Record<string, string | undefined> = {
    NODE_ENV: "test",
    PORT: "0",
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://${LICENCE_DOMAIN}`,
    DATA_DIR: dataDir,
    DATABASE_URL: dialect === "mariadb" ? `mysql://root@127.0.0.1:3306/${dbName}` : `sqlite:${path.join(dataDir, "test.sqlite")}`,
    REDIS_URL: "redis://127.0.0.1:6379",
    JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
    BCRYPT_ROUNDS: "4",
    LICENCE_PUBLIC_KEY: LICENCE_KEYS.publicKeyPem,
    LICENCE_DOMAIN,
    LOGIN_RATE_LIMIT: "1000",
    SEED: "false",
    LOG_LEVEL: "warn",
    FREE_PLAN_MAX_USERS: "3",
    TRANSPORTER: "",
    // Marketplace installs need a transporter for their plugin nodes: on only where a test asks.
    PLUGIN_INSTALLS: "false",
    SERVICES: "all",
    ...opts.env,
  };
  const config = loadConfig(env);
  const core = createCore({ config, logger: (opts.logger as LoggerConfig | undefined) ?? false, clock: opts.clock, schedulerTickMs: opts.schedulerTickMs });
  for (const s of opts.services ?? []) core.broker.createService(s);
  // A fresh MariaDB database is a copy of the migrated template (db-template.ts), not migrated
  // again. Made after createCore, which is synchronous: cores started together in one process
  // are created in the order they were asked for, as before.
  if (dialect === "mariadb" && !opts.reuse) await createMigratedDatabase(dbName);
  // A service with `dependencies` (automation on scheduler, realtime on api) finds them not yet
  // up on its first look, as all start together, and looked again after Moleculer's default
  // 1 s: a second of every test core's start. Production keeps the default.
  core.broker.options.dependencyInterval = DEPENDENCY_INTERVAL_MS;
  await core.start();
  const api = core.broker.getLocalService("api") as unknown as { server: { address(): { port: number } } };
  const url = `http://127.0.0.1:${api.server.address().port}`;
  // Auto aliases are regenerated with a debounce when services appear; wait for them.
  await waitForRoutes(core);
  return {
    core,
    config,
    url,
    api: new ApiClient(url),
    store: { dbName, dataDir, dialect },
    async stop(stopOpts = {}) {
      // The Redis users the plugin host made for this installation's plugins (redis-access.ts).
      const users = pluginRedisUserPrefix(core.deps.redisPrefix());
      const redis = core.deps.redis();
      for (const u of (await redis.call("ACL", "USERS").catch(() => [])) as string[]) if (u.startsWith(users)) await redis.call("ACL", "DELUSER", u);
      await core.stop();
      if (stopOpts.keep) return;
      if (dialect === "mariadb") await dropDatabase(dbName);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const DEPENDENCY_INTERVAL_MS = 50;

interface Gateway {
  routes?: Array<{ opts: { autoAliases?: boolean } }>;
  regenerateAutoAliases?(route: unknown): void;
}

/**
 * The gateway's REST aliases for every service that has started. Moleculer-web makes them half
 * a second after the last service appeared (a debounce); once core.start() has resolved every
 * local service (the plugins too) is in the registry, so they are made from it at once. Then a
 * short pause for what services do on `$services.changed` (platform events learn their
 * subscribers). Without moleculer-web's methods (another gateway), the old wait: aliases, then
 * the debounce.
 */
async function waitForRoutes(core: Core) {
  const api = core.broker.getLocalService("api") as unknown as Gateway | undefined;
  if (api?.routes && typeof api.regenerateAutoAliases === "function") {
    for (const route of api.routes) if (route.opts.autoAliases) api.regenerateAutoAliases(route);
    const aliases = (await core.broker.call("api.listAliases")) as unknown[];
    if (aliases.length > 10) {
      await new Promise((r) => setTimeout(r, ROUTES_SETTLE_MS));
      return;
    }
  }
  for (let i = 0; i < 60; i++) {
    const aliases = (await core.broker.call("api.listAliases")) as unknown[];
    if (aliases.length > 10) {
      await new Promise((r) => setTimeout(r, 600));
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ROUTES_SETTLE_MS = 100;

/** Drops a test core's database and its plugins' own databases (`<name>__<plugin>`, see core/src/plugins/data.ts) and their users. */
export async function dropDatabase(name: string) {
  const connect = () => createConnection({ host: "127.0.0.1", user: "root", password: "" });
  const c = await connect();
  try {
    const [plugins] = await c.query("SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?", [`${name.replace(/_/g, "\\_")}\\_\\_%`]);
    const names = (plugins as Array<{ name: string }>).map((p) => p.name);
    // The plugins' users in one statement; the databases DROP_CONNECTIONS at a time (the server mostly waits on files).
    if (names.length) await c.query(`DROP USER IF EXISTS ${names.map(() => "?@'%'").join(", ")}`, names.map(pluginDatabaseUserName));
    const drops = [...names, name];
    const more = await Promise.all(Array.from({ length: Math.min(DROP_CONNECTIONS, drops.length) - 1 }, connect));
    try {
      await Promise.all(
        [c, ...more].map(async (conn) => {
          for (let next = drops.shift(); next; next = drops.shift()) await conn.query(`DROP DATABASE IF EXISTS \`${next}\``);
        }),
      );
    } finally {
      await Promise.all(more.map((m) => m.end()));
    }
  } finally {
    await c.end();
  }
}

const DROP_CONNECTIONS = 4;

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Auth {
  token: string;
  sessionId: string;
  userId: number;
  tenantId: number;
  refreshToken?: string;
}

/** A thin fetch client that speaks the API's conventions (bearer + session id). */
export class ApiClient {
  constructor(public readonly base: string) {}

  async call<T = any>(method: string, p: string, body?: unknown, auth?: Auth | null, headers: Record<string, string> = {}): Promise<Res<T>> {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined && typeof body !== "string") h["content-type"] = "application/json";
    if (typeof body === "string" && !h["content-type"]) h["content-type"] = "application/json";
    if (auth) {
      h.authorization = `Bearer ${auth.token}`;
      h["x-session-id"] = auth.sessionId;
    }
    const res = await fetch(this.base + "/api" + p, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* keep text */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
  get<T = any>(p: string, auth?: Auth | null, headers?: Record<string, string>) {
    return this.call<T>("GET", p, undefined, auth, headers);
  }
  post<T = any>(p: string, body?: unknown, auth?: Auth | null, headers?: Record<string, string>) {
    return this.call<T>("POST", p, body ?? {}, auth, headers);
  }
  put<T = any>(p: string, body?: unknown, auth?: Auth | null, headers?: Record<string, string>) {
    return this.call<T>("PUT", p, body ?? {}, auth, headers);
  }
  del<T = any>(p: string, auth?: Auth | null, headers?: Record<string, string>) {
    return this.call<T>("DELETE", p, undefined, auth, headers);
  }

  async login(email: string, password = PASSWORD): Promise<Auth> {
    const r = await this.post("/auth/login", { email, password });
    if (r.status !== 200) throw new Error(`login ${email} failed: ${r.status} ${JSON.stringify(r.body)}`);
    return { token: r.body.token, sessionId: r.body.sessionId, userId: r.body.userId, tenantId: r.body.tenantId, refreshToken: r.body.refreshToken };
  }
}

export function signTestLicence(opts: { tier: Tier; tenantId?: number; days?: number; domain?: string; document?: string; lid?: string; maxUsers?: number; maxConnections?: number }): string {
  const now = Date.now();
  return signLicence(
    {
      lid: opts.lid ?? `lic-${uid()}`,
      tier: opts.tier,
      issuedAt: new Date(now - 86400_000 * 2).toISOString(),
      expiresAt: new Date(now + (opts.days ?? 30) * 86400_000).toISOString(),
      domain: opts.domain ?? LICENCE_DOMAIN,
      document: opts.document ?? "11222333000181",
      tenantId: opts.tenantId,
      maxUsers: opts.maxUsers,
      maxConnections: opts.maxConnections,
      issuer: "test",
    },
    loadPrivateKey(LICENCE_KEYS.privateKeyPem),
  );
}

export interface TenantFixture {
  tenantId: number;
  queueIds: number[];
  emails: { admin: string; supervisor: string; agent: string };
  admin: Auth;
  supervisor: Auth;
  agent: Auth;
}

/**
 * A tenant with an admin, a supervisor, an agent and two queues, created through the
 * services' internal actions (the way the seed and the super level do it), logged in.
 */
export async function createTenant(t: TestCore, opts: { name?: string; tier?: Tier; document?: string } = {}): Promise<TenantFixture> {
  const b = t.core.broker;
  const tag = uid();
  const tenant = (await b.call("tenants.createInternal", { name: opts.name ?? `Tenant ${tag}`, document: opts.document ?? "11222333000181" })) as { id: number };
  const q1 = (await b.call("queues.createInternal", { tenantId: tenant.id, name: "Suporte" })) as { id: number };
  const q2 = (await b.call("queues.createInternal", { tenantId: tenant.id, name: "Vendas", active: opts.tier && opts.tier !== "FREE" ? true : false })) as { id: number };
  const emails = { admin: `admin-${tag}@t.test`, supervisor: `sup-${tag}@t.test`, agent: `agent-${tag}@t.test` };
  await b.call("users.createInternal", { tenantId: tenant.id, name: "Admin", email: emails.admin, password: PASSWORD, profile: "admin", queues: [q1.id, q2.id] });
  await b.call("users.createInternal", { tenantId: tenant.id, name: "Supervisor", email: emails.supervisor, password: PASSWORD, profile: "supervisor", queues: [q1.id] });
  await b.call("users.createInternal", { tenantId: tenant.id, name: "Agent", email: emails.agent, password: PASSWORD, profile: "user", queues: [q1.id] });
  if (opts.tier && opts.tier !== "FREE") {
    await b.call("tenants.setLicenseToken", { id: tenant.id, token: signTestLicence({ tier: opts.tier, tenantId: tenant.id }) });
    await b.broadcast("licence.changed", { tenantId: tenant.id });
  }
  return {
    tenantId: tenant.id,
    queueIds: [q1.id, q2.id],
    emails,
    admin: await t.api.login(emails.admin),
    supervisor: await t.api.login(emails.supervisor),
    agent: await t.api.login(emails.agent),
  };
}

/** A platform (super, master) user in its own tenant. */
export async function createSuper(t: TestCore): Promise<Auth & { email: string }> {
  const b = t.core.broker;
  const tag = uid();
  const tenant = (await b.call("tenants.createInternal", { name: `Platform ${tag}` })) as { id: number };
  const email = `super-${tag}@t.test`;
  await b.call("users.createInternal", { tenantId: tenant.id, name: "Super", email, password: PASSWORD, profile: "super", isMaster: true });
  return { ...(await t.api.login(email)), email };
}

// The test kit (`@openatende/core/testkit`, what plugin and shell tests import) also starts
// a plugin node of its own and names the transporter such a node joins.
export { startPluginNode, type PluginNode } from "./plugin-node";
export { transporterForPluginNodes } from "../src/plugins/external";
// …and signs an access token the way the core does (a client's expiry and refresh handling).
export { signAccessToken } from "../src/auth/tokens";
export { ok, expectError, waitFor } from "./assertions";
