/**
 * The one typed runtime configuration of the platform.
 *
 * It is the only module that reads `process.env`. Everything else receives an `AppConfig`
 * (usually through `getConfig()`, or explicitly in tests). A bad variable fails loudly with
 * a message naming it, at start-up, never later.
 */
import * as path from "node:path";
import * as fs from "node:fs";
import { allowEntryError } from "@openatende/plugin-sdk/src/url-policy-address";

export type RuntimeMode = "embedded" | "cluster";
export type DatabaseDialect = "sqlite" | "mysql" | "mariadb";
export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace";

export interface DatabaseConfig {
  dialect: DatabaseDialect;
  /** SQLite file path (sqlite only). */
  storage?: string;
  host?: string;
  port?: number;
  database?: string;
  username?: string;
  password?: string;
  /** Original URL, credentials included; never log it. */
  url: string;
  poolMax: number;
}

export interface AppConfig {
  env: "development" | "production" | "test";
  mode: RuntimeMode;
  /** Repository root (where package.json with the workspaces sits). */
  rootDir: string;
  dataDir: string;
  host: string;
  port: number;
  publicUrl: string;
  /** False when PUBLIC_URL was not set and publicUrl is the localhost default. */
  publicUrlFromEnv: boolean;
  nodeId: string | undefined;
  /** Moleculer namespace: nodes only see nodes of the same namespace on the transporter. */
  namespace: string;
  /**
   * INSTALLATION_PREFIX: the core's Redis prefix (`<namespace>:<installation id>`), given by a
   * core to the plugin nodes it spawns; a node started on its own asks the core instead.
   */
  installationPrefix: string | undefined;
  /** Which service groups this node runs; "all" in embedded mode. */
  services: string[];
  transporter: string | undefined;
  /**
   * Plugins that run as broker nodes of their own (core/src/bin/plugin-node.ts): the plugin
   * host validates and lists them but does not start them in this process.
   */
  pluginsExternal: string[];
  /** Port the TCP transporter listens on (0: a free one); used when TRANSPORTER is tcp. */
  transporterPort: number;
  /**
   * Plugins installed from the marketplace run here (unpacked under DATA_DIR/plugins/<id>/<version>/,
   * each in a plugin node of its own). On: an embedded core listens on a loopback TCP transporter
   * for those nodes. Off: installs are refused (ERR_PLUGIN_INSTALLS_DISABLED).
   */
  pluginInstalls: boolean;
  /** Largest plugin archive the marketplace accepts, bytes. */
  marketplaceMaxArchiveBytes: number;
  database: DatabaseConfig;
  /**
   * The own database of the one plugin a plugin node runs (sqlite:… or mysql://…), set by the
   * plugin host for a node of an installed plugin, which does not get the core's DATABASE_URL.
   */
  pluginDatabaseUrl: string | undefined;
  /**
   * PLUGIN_TOKENS (`<id>:<token>,…`): a plugin node's proof of which plugins it runs, given by
   * the host that starts it (core/src/middlewares/caller-identity.ts). Never set on a core node.
   */
  pluginTokens: Record<string, string>;
  redisUrl: string;
  /** Try to start the machine's redis-server when Redis is unreachable. */
  redisAutostart: boolean;
  logLevel: LogLevel;
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  sessionTtlSeconds: number;
  bcryptRounds: number;
  seedAdminPassword: string | undefined;
  seedOnStart: boolean;
  corsOrigins: string[];
  trustProxy: boolean;
  loginRateLimit: { max: number; windowSeconds: number };
  requestTimeoutMs: number;
  licencePublicKey: string | undefined;
  /** Free-plan user cap (spec: "few users"). */
  freePlanMaxUsers: number;
  /** Domain this installation answers for; a licence for another domain is refused. */
  licenceDomain: string | undefined;
  /** CPF/CNPJ of the installation owner; a licence for another document is refused. */
  licenceDocument: string | undefined;
  shellDir: string;
  /**
   * OUTBOUND_URL_ALLOWLIST: hosts, IPs and CIDRs tenants' URLs may reach although they are not
   * public (a wuzapi or Typebot on the operator's own network, a test's loopback fake). Set by
   * the installation's operator only; everything else private is refused (ERR_URL_NOT_ALLOWED).
   */
  outboundUrlAllowlist: string[];
}

export { KNOWN_VARIABLES } from "./variables";

export class ConfigError extends Error {
  constructor(
    public readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

/** `tcp` (UDP discovery) or `tcp://host:port/nodeID[,host:port/nodeID…]` (static peers). */
const TCP_TRANSPORTER = /^tcp(:\/\/[^\s/,]+:\d+\/[^\s/,]+(,\s*(tcp:\/\/)?[^\s/,]+:\d+\/[^\s/,]+)*)?$/;

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg)) {
      try {
        const json = JSON.parse(fs.readFileSync(pkg, "utf8")) as { workspaces?: unknown };
        if (json.workspaces) return dir;
      } catch {
        /* keep looking */
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}

function int(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return def;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(name, `must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, def: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return def;
  const v = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], def: T): T {
  const raw = env[name];
  if (raw === undefined || raw === "") return def;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${values.join(", ")}, got "${raw}"`);
  }
  return raw as T;
}

function parseDatabase(env: Env, dataDir: string, rootDir: string): DatabaseConfig {
  const raw = env.DATABASE_URL;
  const poolMax = int(env, "DATABASE_POOL_MAX", 10, 1, 500);
  if (!raw) {
    const storage = path.join(dataDir, "openatende.sqlite");
    return { dialect: "sqlite", storage, url: `sqlite:${storage}`, poolMax };
  }
  if (raw.startsWith("sqlite:")) {
    const p = raw.slice("sqlite:".length).replace(/^\/\//, "");
    if (!p) throw new ConfigError("DATABASE_URL", "sqlite: needs a file path (sqlite:data/app.sqlite)");
    const storage = p === ":memory:" ? p : path.resolve(rootDir, p);
    return { dialect: "sqlite", storage, url: raw, poolMax };
  }
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError("DATABASE_URL", "is not a valid URL (mysql://user:pass@host:3306/db)");
  }
  const proto = u.protocol.replace(":", "");
  if (proto !== "mysql" && proto !== "mariadb") {
    throw new ConfigError("DATABASE_URL", `has unsupported scheme "${proto}" (use mysql:// or sqlite:)`);
  }
  const database = decodeURIComponent(u.pathname.replace(/^\//, ""));
  if (!database) throw new ConfigError("DATABASE_URL", "must name a database (mysql://…/dbname)");
  if (!/^[A-Za-z0-9_]+$/.test(database)) {
    throw new ConfigError("DATABASE_URL", "database name may hold letters, digits and _ only");
  }
  return {
    dialect: "mysql",
    host: u.hostname || "127.0.0.1",
    port: u.port ? Number(u.port) : 3306,
    database,
    username: decodeURIComponent(u.username || "root"),
    password: decodeURIComponent(u.password || ""),
    url: raw,
    poolMax,
  };
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, ".jwt-secret");
  try {
    const s = fs.readFileSync(file, "utf8").trim();
    if (s.length >= 32) return s;
  } catch {
    /* first start */
  }
  fs.mkdirSync(dataDir, { recursive: true });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const secret = (require("node:crypto") as typeof import("node:crypto")).randomBytes(48).toString("base64url");
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * Builds a configuration from an environment map. Pure apart from the embedded-mode JWT
 * secret, which is generated once and kept in DATA_DIR.
 */
export function loadConfig(env: Env = process.env, opts: { cwd?: string } = {}): AppConfig {
  const rootDir = findRoot(opts.cwd ?? process.cwd());
  if (env.NAMESPACE && !/^[A-Za-z0-9_-]{1,64}$/.test(env.NAMESPACE)) {
    throw new ConfigError("NAMESPACE", "may hold letters, digits, - and _ only (at most 64)");
  }
  const nodeEnv = oneOf(env, "NODE_ENV", ["development", "production", "test"] as const, "development");
  const dataDir = path.resolve(rootDir, env.DATA_DIR || "data");
  const transporter = env.TRANSPORTER || undefined;
  if (transporter && !/^nats:\/\/[^\s/]+(:\d+)?\/?$/.test(transporter) && !TCP_TRANSPORTER.test(transporter)) {
    throw new ConfigError("TRANSPORTER", `must look like nats://host:4222, tcp or tcp://host:port/nodeID, got "${transporter}"`);
  }
  const pluginsExternal = (env.PLUGINS_EXTERNAL || "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const id of pluginsExternal) {
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(id)) throw new ConfigError("PLUGINS_EXTERNAL", `has an invalid plugin id "${id}" (kebab-case, as in the manifest)`);
  }
  const mode: RuntimeMode = transporter?.startsWith("nats://") ? "cluster" : "embedded";
  const database = parseDatabase(env, dataDir, rootDir);
  const pluginDatabaseUrl = env.PLUGIN_DATABASE_URL || undefined;
  if (pluginDatabaseUrl && !/^(sqlite:.+|mysql:\/\/[^\s/]+\/[A-Za-z0-9_]{1,64})$/.test(pluginDatabaseUrl)) {
    throw new ConfigError("PLUGIN_DATABASE_URL", "must be sqlite:<file> or mysql://user:pass@host:port/<database>");
  }
  const pluginTokens: Record<string, string> = {};
  for (const pair of (env.PLUGIN_TOKENS || "").split(",").map((x) => x.trim()).filter(Boolean)) {
    const m = /^([a-z0-9][a-z0-9-]{0,63}):([A-Za-z0-9_-]{20,})$/.exec(pair);
    if (!m) throw new ConfigError("PLUGIN_TOKENS", "must be a comma list of <plugin id>:<token>");
    pluginTokens[m[1]] = m[2];
  }
  const port = int(env, "PORT", 8080, 0, 65535);
  const host = env.HOST || "0.0.0.0";
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError("PUBLIC_URL", `is not a valid URL, got "${publicUrl}"`);
  }
  const redisUrl = env.REDIS_URL || "redis://127.0.0.1:6379";
  if (!/^rediss?:\/\//.test(redisUrl)) throw new ConfigError("REDIS_URL", `must start with redis://, got "${redisUrl}"`);

  let jwtSecret = env.JWT_SECRET;
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError("JWT_SECRET", "must be at least 32 characters long");
  }
  if (!jwtSecret) {
    if (mode === "cluster") throw new ConfigError("JWT_SECRET", "is required in cluster mode (all nodes share it)");
    jwtSecret = readOrCreateSecret(dataDir);
  }

  const services = (env.SERVICES || "all")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const knownGroups = ["all", "api", "core", "plugins", "marketplace"];
  for (const s of services) {
    if (!knownGroups.includes(s)) throw new ConfigError("SERVICES", `has unknown group "${s}" (known: ${knownGroups.join(", ")})`);
  }

  const corsOrigins = (env.CORS_ORIGINS || "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const o of corsOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(o)) throw new ConfigError("CORS_ORIGINS", `has an invalid origin "${o}"`);
  }

  const seedAdminPassword = env.SEED_ADMIN_PASSWORD || undefined;
  if (seedAdminPassword !== undefined && !/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d]{8,}$/.test(seedAdminPassword)) {
    throw new ConfigError(
      "SEED_ADMIN_PASSWORD",
      "must have at least 8 letters and digits with an upper-case letter, a lower-case letter and a digit",
    );
  }

  const outboundUrlAllowlist = (env.OUTBOUND_URL_ALLOWLIST || "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of outboundUrlAllowlist) {
    const why = allowEntryError(entry);
    if (why) throw new ConfigError("OUTBOUND_URL_ALLOWLIST", `${why} (a comma list such as 127.0.0.1,10.0.0.0/8,wuzapi.internal)`);
  }

  return Object.freeze({
    env: nodeEnv,
    mode,
    rootDir,
    dataDir,
    host,
    port,
    publicUrl,
    publicUrlFromEnv: !!env.PUBLIC_URL,
    nodeId: env.NODE_ID || undefined,
    namespace: env.NAMESPACE || "openatende",
    installationPrefix: env.INSTALLATION_PREFIX?.trim() || undefined,
    services,
    transporter,
    pluginsExternal: [...new Set(pluginsExternal)],
    transporterPort: int(env, "TRANSPORTER_PORT", 0, 0, 65535),
    pluginInstalls: bool(env, "PLUGIN_INSTALLS", true),
    marketplaceMaxArchiveBytes: int(env, "MARKETPLACE_MAX_ARCHIVE_MB", 20, 1, 500) * 1024 * 1024,
    database,
    pluginDatabaseUrl,
    pluginTokens,
    redisUrl,
    redisAutostart: bool(env, "REDIS_AUTOSTART", mode === "embedded"),
    logLevel: oneOf(env, "LOG_LEVEL", ["fatal", "error", "warn", "info", "debug", "trace"] as const, "info"),
    jwtSecret,
    accessTokenTtlSeconds: int(env, "ACCESS_TOKEN_TTL", 900, 10, 86400),
    sessionTtlSeconds: int(env, "SESSION_TTL", 7 * 86400, 60, 365 * 86400),
    bcryptRounds: int(env, "BCRYPT_ROUNDS", 10, 4, 15),
    seedAdminPassword,
    seedOnStart: bool(env, "SEED", mode === "embedded"),
    corsOrigins,
    trustProxy: bool(env, "TRUST_PROXY", false),
    loginRateLimit: {
      max: int(env, "LOGIN_RATE_LIMIT", 10, 1, 100000),
      windowSeconds: int(env, "LOGIN_RATE_WINDOW", 60, 1, 86400),
    },
    requestTimeoutMs: int(env, "REQUEST_TIMEOUT_MS", 120000, 1000, 3600000),
    licencePublicKey: env.LICENCE_PUBLIC_KEY || undefined,
    licenceDomain: env.LICENCE_DOMAIN || undefined,
    licenceDocument: env.LICENCE_DOCUMENT ? env.LICENCE_DOCUMENT.replace(/\D/g, "") : undefined,
    freePlanMaxUsers: int(env, "FREE_PLAN_MAX_USERS", 3, 1, 100000),
    shellDir: path.resolve(rootDir, env.SHELL_DIR || "shell/dist"),
    outboundUrlAllowlist: [...new Set(outboundUrlAllowlist)],
  });
}

let cached: AppConfig | undefined;

/** The process-wide configuration, read from the environment once. */
export function getConfig(): AppConfig {
  if (!cached) cached = loadConfig();
  return cached;
}

/** Tests and tools that build their own configuration install it here. */
export function setConfig(config: AppConfig): void {
  cached = config;
}

/**
 * Builds a configuration for a test or a tool from explicit variables on top of the
 * process environment (so the machine's PATH-level settings still count).
 */
export function configWith(overrides: Env): AppConfig {
  return loadConfig({ ...process.env, ...overrides });
}

/** Environment for a child process: the current one plus overrides. */
export function childEnv(overrides: Env = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** True when running under a CI system (CI=true). */
export function isCI(): boolean {
  return bool(process.env, "CI", false);
}
