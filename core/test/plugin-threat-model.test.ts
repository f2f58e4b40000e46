/**
 * The plugin threat model (core/src/plugins/THREAT-MODEL.md) against a real attacker: the
 * fixture plugin module-intruder runs in a plugin node of its own, spawned as the plugin host
 * spawns an installed plugin (installedNodeEnv: its token, its own MariaDB user and Redis
 * user), joined to the core over the embedded core's TCP transporter on loopback. From inside
 * its node it tries every path the model closes, and the allowed ones.
 *
 * The core runs a probe service named under the plugin-facing `platform.` prefix: `whoami`
 * answers who the core thinks is calling, `relay` calls the plugin and answers its own meta
 * afterwards, and it listens to an event a plugin must not reach it with.
 */
import * as path from "node:path";
import Redis from "ioredis";
import type { Context, ServiceSchema } from "moleculer";
import { ensurePluginDatabase } from "@openatende/plugin-sdk";
import { startCore, TestCore, uid } from "./helpers";
import { startPluginNode, PluginNode } from "./plugin-node";
import { transporterForPluginNodes } from "../src/plugins/external";
import { installedNodeEnv } from "../src/plugins/install-files";
import { ensurePluginDatabaseUser, pluginDatabaseName, pluginDatabaseOf } from "../src/plugins/data";
import { ensurePluginRedisUser, pluginRedisUser } from "../src/plugins/redis-access";
import { waitFor } from "../../plugins/channel-telegram/test/helpers";
import { createConnection } from "mysql2/promise";

const ID = "module-intruder";
const VICTIM = "module-victim";
const FOLDER = path.join(__dirname, "fixtures-plugins/threat", ID);

type Outcome = { ok: boolean; result?: any; type?: string; code?: unknown; message?: string };

describe("a third-party plugin in its own node, against the threat model", () => {
  const heard: unknown[] = [];
  const probe: ServiceSchema = {
    name: "platform.probe",
    actions: {
      whoami: (ctx: Context<unknown, any>) => ({ user: ctx.meta.user ?? null, caller: ctx.meta.$caller ?? null, api: ctx.meta.$api ?? null, service: ctx.caller }),
      async relay(ctx: Context<unknown, any>) {
        const saw = await ctx.call(`v1.${ID}.meddle`, {});
        return { saw, user: ctx.meta.user ?? null, caller: ctx.meta.$caller ?? null, tenant: ctx.meta.tenant ?? null, api: ctx.meta.$api ?? null };
      },
    },
    events: { "probe.core-event": (ctx: Context) => void heard.push(ctx.params) },
  };
  let t: TestCore;
  let node: PluginNode;
  let prefix: string;
  let raw: Redis;
  const intruder = (action: string, params: object = {}) => t.core.broker.call(`v1.${ID}.${action}`, params) as Promise<any>;
  const attempt = (params: object) => intruder("call", params) as Promise<Outcome>;

  beforeAll(async () => {
    t = await startCore({ env: { NAMESPACE: `threat-${uid()}`, LOG_LEVEL: "error", PLUGIN_INSTALLS: "true" }, services: [probe] });
    const config = t.config;
    prefix = t.core.deps.redisPrefix();
    raw = new Redis(config.redisUrl, { maxRetriesPerRequest: 1 });
    // What the host does before it starts an installed plugin's node (installs.ts ensureDatabase), for the intruder and a victim.
    for (const id of [ID, VICTIM]) {
      await ensurePluginDatabase(pluginDatabaseOf(config, id));
      await ensurePluginDatabaseUser(config, id);
      await ensurePluginRedisUser(config, t.core.deps.redis(), prefix, id);
    }
    const victim = await createConnection({ host: config.database.host, port: config.database.port, user: config.database.username, database: pluginDatabaseName(config.database.database!, VICTIM) });
    await victim.query("CREATE TABLE IF NOT EXISTS notes (id INT PRIMARY KEY, text TEXT)");
    await victim.query("REPLACE INTO notes VALUES (1, 'the victim''s')");
    await victim.end();
    await raw.set(`${prefix}${VICTIM}:secret`, "victim's");
    await raw.set(`${prefix}core-secret`, "core's");

    node = startPluginNode(["--folder", FOLDER], {
      ...installedNodeEnv(config, ID, FOLDER, prefix),
      TRANSPORTER: transporterForPluginNodes(config, t.core.broker),
      NAMESPACE: config.namespace,
      INSTALLATION_PREFIX: prefix,
      LOG_LEVEL: "warn",
    });
    await node.ready;
    await waitFor("the intruder's service on the core's broker", async () => t.core.broker.registry.hasService(`v1.${ID}`, undefined as never), 30_000);
  }, 120_000);

  afterAll(async () => {
    await node?.kill("SIGTERM");
    if (raw) {
      await raw.del(`${prefix}${VICTIM}:secret`, `${prefix}core-secret`, `${prefix}${ID}:mine`);
      for (const id of [ID, VICTIM]) await raw.call("ACL", "DELUSER", pluginRedisUser(t.config, prefix, id).user);
      raw.disconnect();
    }
    if (t) {
      const c = await createConnection({ host: t.config.database.host, port: t.config.database.port, user: t.config.database.username });
      for (const id of [ID, VICTIM]) await c.query(`DROP DATABASE IF EXISTS \`${pluginDatabaseName(t.config.database.database!, id)}\``);
      await c.end();
      await t.stop();
    }
  });

  it("may call the actions meant for plugins, as itself: a forged user, $api or $caller is not what the core sees", async () => {
    const forged = { user: { id: 1, tenantId: 1, profile: "super", isMaster: true }, $api: true, $caller: { plugin: VICTIM } };
    const who = await attempt({ action: "platform.probe.whoami", meta: forged });
    expect(who).toEqual({ ok: true, result: { user: null, caller: { plugin: ID }, api: null, service: `v1.${ID}` } });
    // The calling service's name (which channels check a connection against) cannot name another plugin.
    const asVictimService = await attempt({ action: "platform.probe.whoami", forge: { caller: `v1.${VICTIM}` } });
    expect(asVictimService.result).toMatchObject({ caller: { plugin: ID }, service: ID });
    const registry = await attempt({ action: "plugins.registry" });
    expect(registry.ok).toBe(true);
    expect(Array.isArray(registry.result)).toBe(true);
  });

  it("is refused the core actions not meant for plugins, even with an admin's forged session", async () => {
    for (const [action, params] of [
      ["users.getInternal", { id: 1 }],
      ["users.createAdmin", { tenantId: 1, name: "x", email: "x@x.test", password: "Secret123" }],
    ] as const) {
      const plain = await attempt({ action, params });
      expect({ action, type: plain.type }).toEqual({ action, type: "ERR_PLUGIN_FORBIDDEN" });
      const forged = await attempt({ action, params, meta: { user: { id: 1, tenantId: 1, profile: "super", isMaster: true }, $api: true } });
      expect({ action, type: forged.type }).toEqual({ action, type: "ERR_PLUGIN_FORBIDDEN" });
    }
  });

  it("counts rate limits under its own keys only, never another plugin's", async () => {
    const own = await attempt({ action: "api.rateLimit", params: { rules: [{ key: `plugin:${ID}:session:ip:1`, max: 5, windowSeconds: 60 }] } });
    expect(own).toMatchObject({ ok: true, result: { allowed: true } });
    const other = await attempt({ action: "api.rateLimit", params: { rules: [{ key: `plugin:${VICTIM}:session:ip:1`, max: 5, windowSeconds: 60 }] } });
    expect(other.type).toBe("ERR_PLUGIN_FORBIDDEN");
  });

  it("cannot speak as another plugin, nor unsigned", async () => {
    const asVictim = await attempt({ action: "platform.probe.whoami", forge: { plugin: VICTIM } });
    expect(asVictim.type).toBe("ERR_PLUGIN_FORBIDDEN");
    const noId = await attempt({ action: "platform.probe.whoami", forge: { plugin: null } });
    expect(noId.type).toBe("ERR_PLUGIN_FORBIDDEN");
    const unsigned = await attempt({ action: "platform.probe.whoami", forge: { sig: null, plugin: null } });
    expect(unsigned.type).toBe("ERR_PLUGIN_FORBIDDEN");
  });

  it("cannot change the caller's meta through its response, nor replay the signature the core sent it", async () => {
    const user = { id: 42, tenantId: 7, profile: "user" };
    const after = (await t.core.broker.call("platform.probe.relay", {}, { meta: { user } })) as any;
    // The plugin saw the core's signed call, changed user, $caller, tenant and $api in its answer: none of it stuck.
    expect(after.saw.saw.sig).toEqual(expect.any(String));
    expect({ user: after.user, caller: after.caller, tenant: after.tenant, api: after.api }).toEqual({ user, caller: null, tenant: null, api: null });
    for (const action of ["users.getInternal", "platform.probe.whoami"]) {
      const replayed = (await intruder("replay", { action, params: { id: 1 } })) as Outcome;
      expect({ action, type: replayed.type }).toEqual({ action, type: "ERR_PLUGIN_FORBIDDEN" });
    }
  });

  it("cannot reach core listeners with an event, emitted or broadcast", async () => {
    await intruder("emit", { event: "probe.core-event", payload: { from: "emit" } });
    await intruder("emit", { event: "probe.core-event", payload: { from: "broadcast" }, broadcast: true });
    // Packets of one node arrive in order: once this call is answered, the events were handled (dropped).
    expect((await attempt({ action: "platform.probe.whoami" })).ok).toBe(true);
    expect(heard).toEqual([]);
    // The same event from within the core is heard.
    await t.core.broker.emit("probe.core-event", { from: "core" });
    expect(heard).toEqual([{ from: "core" }]);
  });

  it("cannot stand in for a core service or another plugin's", async () => {
    const nodeID = (await intruder("impostors")) as string;
    // Its INFO with the impostors reached the core…
    await waitFor("the intruder's new INFO", async () => {
      const n = t.core.broker.registry.nodes.get(nodeID) as unknown as { rawInfo?: { services?: Array<{ name: string }> } } | undefined;
      return n?.rawInfo?.services?.some((s) => s.name === "tenants");
    });
    // …and only its own service was registered.
    const ofNode = (t.core.broker.registry.getServiceList({ withActions: true }) as Array<{ name: string; fullName: string; nodeID: string }>).filter((s) => s.nodeID === nodeID);
    const names = ofNode.map((s) => s.fullName);
    expect(names).not.toContain("tenants");
    expect(names).not.toContain(`v1.${VICTIM}`);
    expect(ofNode.some((s) => s.fullName === `v1.${ID}`)).toBe(true);
    await expect(t.core.broker.call("tenants.hijack")).rejects.toMatchObject({ name: "ServiceNotFoundError" });
    await expect(t.core.broker.call(`v1.${VICTIM}.steal`)).rejects.toMatchObject({ name: "ServiceNotFoundError" });
  });

  it("reaches its own database with a user of its own, and neither the core's nor another plugin's", async () => {
    const given = await intruder("given");
    expect(given.dbUser).toMatch(/^oap_/);
    expect(given.dbUser).not.toBe(t.config.database.username);
    expect(given.database).toBe(pluginDatabaseName(t.config.database.database!, ID));
    expect(await intruder("own")).toEqual([expect.objectContaining({ id: "a", text: "mine" })]);
    const core = (await intruder("database", { database: t.config.database.database, table: "users" })) as Outcome;
    expect(core).toMatchObject({ ok: false, code: expect.stringMatching(/ACCESS_DENIED/) });
    const victim = (await intruder("database", { database: pluginDatabaseName(t.config.database.database!, VICTIM), table: "notes" })) as Outcome;
    expect(victim).toMatchObject({ ok: false, code: expect.stringMatching(/ACCESS_DENIED/) });
  });

  it("keeps Redis keys of its own only: another plugin's and the core's keys, key listings and admin commands are refused", async () => {
    const given = await intruder("given");
    expect(given.redisUser).toBe(pluginRedisUser(t.config, prefix, ID).user);
    const mine = `${given.redisPrefix}:${ID}:mine`;
    const run = (...command: string[]) => intruder("redis", { command }) as Promise<Outcome>;
    expect(await run("SET", mine, "ok")).toEqual({ ok: true, result: "OK" });
    expect(await run("GET", mine)).toEqual({ ok: true, result: "ok" });
    for (const command of [
      ["GET", `${prefix}${VICTIM}:secret`],
      ["SET", `${prefix}${VICTIM}:secret`, "overwritten"],
      ["GET", `${prefix}core-secret`],
      ["DEL", `${prefix}core-secret`],
      ["KEYS", "*"],
      ["SCAN", "0"],
      ["FLUSHALL"],
      ["ACL", "SETUSER", "intruder", "on", "+@all", "~*"],
      ["CONFIG", "GET", "requirepass"],
    ]) {
      const r = await run(...command);
      expect({ command, ok: r.ok, noperm: /NOPERM/.test(r.message ?? "") }).toEqual({ command, ok: false, noperm: true });
    }
    expect(await raw.get(`${prefix}${VICTIM}:secret`)).toBe("victim's");
    expect(await raw.get(`${prefix}core-secret`)).toBe("core's");
  });
});
