import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { loadConfig, ConfigError, KNOWN_VARIABLES } from "./index";

const root = path.resolve(__dirname, "../..");
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "oa-cfg-"));

describe("configuration", () => {
  it("defaults to embedded mode with a SQLite file under data/ and port 8080", () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir }, { cwd: root });
    expect(c.mode).toBe("embedded");
    expect(c.port).toBe(8080);
    expect(c.database.dialect).toBe("sqlite");
    expect(c.database.storage).toBe(path.join(dir, "openatende.sqlite"));
    expect(c.redisUrl).toBe("redis://127.0.0.1:6379");
    expect(c.services).toEqual(["all"]);
    // The embedded JWT secret is generated once and kept.
    expect(c.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }, { cwd: root }).jwtSecret).toBe(c.jwtSecret);
  });

  it("switches to cluster mode with a NATS transporter and a MySQL URL", () => {
    const c = loadConfig(
      { TRANSPORTER: "nats://nats:4222", DATABASE_URL: "mysql://u:p%40ss@db:3307/app", JWT_SECRET: "x".repeat(40), SERVICES: "api,core" },
      { cwd: root },
    );
    expect(c.mode).toBe("cluster");
    expect(c.database).toMatchObject({ dialect: "mysql", host: "db", port: 3307, database: "app", username: "u", password: "p@ss" });
    expect(c.services).toEqual(["api", "core"]);
  });

  it("runs named plugins in nodes of their own, over the TCP transporter beside an embedded core", () => {
    const dir = tmp();
    const defaults = loadConfig({ DATA_DIR: dir }, { cwd: root });
    expect(defaults).toMatchObject({ pluginsExternal: [], transporterPort: 0, transporter: undefined });
    const c = loadConfig({ DATA_DIR: dir, PLUGINS_EXTERNAL: " channel-telegram, channel-email,channel-telegram", TRANSPORTER_PORT: "7410" }, { cwd: root });
    expect(c.pluginsExternal).toEqual(["channel-telegram", "channel-email"]);
    expect(c.transporterPort).toBe(7410);
    expect(c.mode).toBe("embedded");
    // A plugin node beside it is given the core's address and node id.
    const node = loadConfig({ DATA_DIR: dir, TRANSPORTER: "tcp://127.0.0.1:7410/core-1" }, { cwd: root });
    expect(node).toMatchObject({ mode: "embedded", transporter: "tcp://127.0.0.1:7410/core-1" });
  });

  const bad: Array<[Record<string, string>, string]> = [
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "postgres://x/y" }, "DATABASE_URL"],
    [{ DATABASE_URL: "mysql://host/" }, "DATABASE_URL"],
    [{ DATABASE_URL: "mysql://host/bad-name;" }, "DATABASE_URL"],
    [{ REDIS_URL: "localhost:6379" }, "REDIS_URL"],
    [{ TRANSPORTER: "amqp://x" }, "TRANSPORTER"],
    [{ TRANSPORTER: "nats://nats:4222" }, "JWT_SECRET"],
    [{ JWT_SECRET: "short" }, "JWT_SECRET"],
    [{ SERVICES: "api,everything" }, "SERVICES"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ NODE_ENV: "staging" }, "NODE_ENV"],
    [{ SEED_ADMIN_PASSWORD: "weakpass" }, "SEED_ADMIN_PASSWORD"],
    [{ CORS_ORIGINS: "not a url" }, "CORS_ORIGINS"],
    [{ REDIS_AUTOSTART: "maybe" }, "REDIS_AUTOSTART"],
    [{ NAMESPACE: "a b" }, "NAMESPACE"],
    [{ PUBLIC_URL: "::::" }, "PUBLIC_URL"],
    [{ TRANSPORTER: "tcp://127.0.0.1/core" }, "TRANSPORTER"],
    [{ TRANSPORTER_PORT: "99999" }, "TRANSPORTER_PORT"],
    [{ PLUGINS_EXTERNAL: "channel-telegram,Channel Email" }, "PLUGINS_EXTERNAL"],
    [{ OUTBOUND_URL_ALLOWLIST: "127.0.0.1,10.0.0.0/33" }, "OUTBOUND_URL_ALLOWLIST"],
    [{ OUTBOUND_URL_ALLOWLIST: "http://fake.local" }, "OUTBOUND_URL_ALLOWLIST"],
  ];
  it.each(bad)("refuses %p naming %s", (env, variable) => {
    let err: unknown;
    try {
      loadConfig({ DATA_DIR: tmp(), ...env }, { cwd: root });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe(variable);
    expect((err as Error).message).toContain(variable);
  });

  it("reads the outbound URL allow-list (hosts, IPs, CIDRs), empty by default", () => {
    const dir = tmp();
    expect(loadConfig({ DATA_DIR: dir }, { cwd: root }).outboundUrlAllowlist).toEqual([]);
    const c = loadConfig({ DATA_DIR: dir, OUTBOUND_URL_ALLOWLIST: " 127.0.0.1, 10.0.0.0/8,fake.local,*.corp.example, ::1,127.0.0.1" }, { cwd: root });
    expect(c.outboundUrlAllowlist).toEqual(["127.0.0.1", "10.0.0.0/8", "fake.local", "*.corp.example", "::1"]);
  });

  it("is the only module that reads process.env", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (["node_modules", "dist", "data", ".git"].includes(e.name)) continue;
        const p = path.join(dir, e.name);
        // The SDK's command line is a tool for plugin authors, not the platform: it reads its own
        // PLUGIN_SDK_TOKEN (publish --token default), never the platform's configuration.
        if (e.isDirectory() && path.relative(root, p) === path.join("plugin-sdk", "src", "cli")) continue;
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|tsx|js|cjs|mjs)$/.test(e.name) && !e.name.endsWith(".test.ts")) {
          if (/process\.env\b/.test(fs.readFileSync(p, "utf8")) && p !== path.join(root, "config/src/index.ts")) offenders.push(path.relative(root, p));
        }
      }
    };
    for (const d of ["core", "plugin-sdk", "plugins", "marketplace", "shell"]) if (fs.existsSync(path.join(root, d))) walk(path.join(root, d));
    expect(offenders).toEqual([]);
  });
});

describe("docker-compose.yml", () => {
  const compose = parse(fs.readFileSync(path.join(root, "docker-compose.yml"), "utf8"), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string>; command?: unknown }>;
  };
  const platform = ["gateway", "core", "plugins", "migrate"];

  it("describes MySQL, Redis, NATS and gateway, core and plugin nodes (the plugin host also runs the marketplace)", () => {
    for (const s of ["mysql", "redis", "nats", ...platform]) expect(Object.keys(compose.services)).toContain(s);
    expect(compose.services.gateway.environment?.SERVICES).toBe("api");
    expect(compose.services.core.environment?.SERVICES).toBe("core");
    expect(compose.services.plugins.environment?.SERVICES).toBe("plugins,marketplace");
  });

  it("sets only variables the configuration module knows, and they validate in cluster mode", () => {
    for (const name of platform) {
      const env = compose.services[name].environment ?? {};
      const unknown = Object.keys(env).filter((k) => !(k in KNOWN_VARIABLES));
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] });
      // With the compose defaults filled in, the node's configuration is valid.
      const resolved = Object.fromEntries(
        Object.entries(env).map(([k, v]) => [k, String(v).replace(/\$\{([A-Z_]+)(?::?[-?])?([^}]*)\}/g, (_m, key: string, def: string) => (key === "JWT_SECRET" ? "j".repeat(40) : def))]),
      );
      const c = loadConfig({ ...resolved, DATA_DIR: tmp() }, { cwd: root });
      expect(c.mode).toBe("cluster");
      expect(c.database.dialect).toBe("mysql");
    }
  });
});
