/**
 * The plugin host on MariaDB: discovery of the fixture plugins in test/fixtures-plugins
 * (good ones loaded, broken ones refused with their reasons while the core keeps serving),
 * the tenant's plugin list filtered by tier, profile and enablement, and the internal
 * actions the channels side uses.
 */
import * as path from "node:path";
import type { Service } from "moleculer";
import { ChannelForResult, EnabledPlugin, InstalledPlugin, PluginRecord, callChannel, runChannelConformance } from "@openatende/plugin-sdk";
import { startCore, createTenant, createSuper, TestCore, TenantFixture, Res } from "./helpers";
import { createPluginsService } from "../src/plugins/plugins.service";
import fixtureChannel from "./fixtures-plugins/channel-fixture/src/service";

const FIXTURES = path.join(__dirname, "fixtures-plugins");

// The good fixture honours the channel contract: the same kit every channel plugin runs.
runChannelConformance({
  plugin: fixtureChannel,
  settings: { greeting: "Olá" },
  driver: {
    async triggerInbound(broker, ref, key) {
      await broker.call("v2.channel-fixture.receive", { ...ref, key });
    },
  },
});

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
  expect(r.body.data).toEqual(expect.any(Object));
}

async function rejection(p: Promise<unknown>): Promise<{ type?: string; code?: number; data?: Record<string, unknown> }> {
  try {
    await p;
  } catch (err) {
    return err as { type?: string; code?: number };
  }
  throw new Error("expected a rejection");
}

/**
 * A core whose plugin host also scans the fixture folder: the "plugins" group is left out of
 * SERVICES and the host created with `pluginDirs`, its warnings captured.
 */
async function startWithFixtures(): Promise<{ t: TestCore; warnings: string[] }> {
  const t = await startCore({ env: { SERVICES: "api,core" } });
  const warnings: string[] = [];
  const svc: Service = t.core.broker.createService(createPluginsService(t.core.deps, { pluginDirs: [FIXTURES], startTimeoutMs: 5000 }));
  // The host loads plugins in `started`, which runs after createService returns.
  jest.spyOn(svc.logger, "warn").mockImplementation((...args: unknown[]) => {
    warnings.push(args.map(String).join(" "));
  });
  await t.core.broker.waitForServices(["plugins"], 30_000);
  for (let i = 0; i < 100; i++) {
    const aliases = (await t.core.broker.call("api.listAliases")) as Array<{ actionName: string }>;
    if (aliases.some((a) => a.actionName === "plugins.enabled") && aliases.some((a) => a.actionName === "plugins.setEnabled")) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { t, warnings };
}

const ids = (r: Res<EnabledPlugin[]>) => r.body.map((p) => p.id);
const fixtureRecords = async (t: TestCore) => ((await t.core.broker.call("plugins.registry")) as PluginRecord[]).filter((r) => r.folder.startsWith(FIXTURES));

describe("plugin host on mariadb", () => {
  let t: TestCore;
  let warnings: string[];
  let free: TenantFixture;
  let plus: TenantFixture;
  let plus2: TenantFixture;

  beforeAll(async () => {
    ({ t, warnings } = await startWithFixtures());
    [free, plus, plus2] = await Promise.all([createTenant(t), createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
    // The fixtures are not shipped in the platform's plugins/ folder: the super allows them
    // (the default policy allows bundled FREE plugins only; see plugins-enablement.test.ts).
    const sup = await createSuper(t);
    for (const f of [free, plus, plus2]) {
      for (const id of ["channel-fixture", "module-fixture"]) expect((await t.api.put(`/plugins/${id}/tenants/${f.tenantId}`, { allowed: true }, sup)).status).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.stop();
  });

  describe("discovery", () => {
    it("loads the good plugins as v<major>.<id> services", async () => {
      const loaded = (await fixtureRecords(t)).filter((r) => r.status === "loaded");
      expect(loaded).toEqual([
        { id: "channel-fixture", folder: path.join(FIXTURES, "channel-fixture"), version: "2.1.0", kind: "channel", tier: "PLUS", status: "loaded", major: 2, service: "v2.channel-fixture" },
        { id: "module-fixture", folder: path.join(FIXTURES, "module-fixture"), version: "1.0.0", kind: "module", tier: "FREE", status: "loaded", major: 1, service: "v1.module-fixture" },
      ]);
      expect(await t.core.broker.call("v1.module-fixture.ping")).toBe("pong");
      expect(await t.core.broker.call("v2.channel-fixture.status", { tenantId: plus.tenantId, connectionId: 1 })).toEqual({ status: "disconnected" });
    });

    it("refuses the broken, incompatible, throwing, failing and untagged ones, each with its reason", async () => {
      const refused = Object.fromEntries((await fixtureRecords(t)).filter((r) => r.status === "refused").map((r) => [path.basename(r.folder), r]));
      expect(Object.keys(refused).sort()).toEqual(["broken-manifest", "channel-fixture-throws", "incompatible-core", "module-fixture-start-fails", "untagged"]);
      expect(refused["broken-manifest"].id).toBe("broken-manifest"); // unreadable manifest: named by its folder
      expect(refused["broken-manifest"].reason).toMatch(/^invalid manifest: version must be a semver version \(got "1\.0"\); platform\.id "Broken Plugin" must be kebab-case.*; platform\.kind must be one of .*; platform\.displayName\["pt-BR"\] must be a non-empty string/);
      expect(refused["incompatible-core"]).toMatchObject({ id: "channel-incompatible", version: "3.0.0", reason: "incompatible core API: the plugin needs ^2.0.0, this core offers 1.0.0" });
      expect(refused["channel-fixture-throws"]).toMatchObject({ id: "channel-throws", reason: "its service failed to create: fixture: the provider library is missing" });
      expect(refused["module-fixture-start-fails"]).toMatchObject({ id: "module-start-fails", reason: "its service failed to start: fixture: cannot reach its database" });
      expect(refused.untagged).toMatchObject({ id: "module-untagged", reason: "entry failed to load: the entry does not export a definePlugin() object (tag $$openatendePlugin: 1)" });
    });

    it("loads every bundled plugin of the repo's plugins/ folder", async () => {
      const bundled = ((await t.core.broker.call("plugins.registry")) as PluginRecord[]).filter((r) => r.folder.startsWith(path.join(t.config.rootDir, "plugins") + path.sep));
      expect(bundled.filter((r) => r.status !== "loaded").map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    });

    it("logs one clear line per refused plugin", () => {
      const lines = warnings.filter((w) => w.includes(FIXTURES));
      expect(lines).toHaveLength(5);
      expect(lines).toContain(`Plugin refused: channel-incompatible (${path.join(FIXTURES, "incompatible-core")}): incompatible core API: the plugin needs ^2.0.0, this core offers 1.0.0`);
      expect(lines).toContain(`Plugin refused: channel-throws (${path.join(FIXTURES, "channel-fixture-throws")}): its service failed to create: fixture: the provider library is missing`);
    });

    it("leaves no trace of a refused plugin's service, and the core keeps serving", async () => {
      for (const name of ["v1.channel-throws", "v1.module-start-fails", "v1.module-untagged", "v3.channel-incompatible"]) {
        expect([name, t.core.broker.registry.hasService(name, t.core.broker.nodeID)]).toEqual([name, false]);
      }
      expect(t.core.broker.getLocalService({ name: "module-start-fails", version: 1 })).toBeFalsy();
      expect((await t.api.get("/queues", plus.admin)).status).toBe(200);
      expect((await t.api.get("/plugins/enabled", plus.agent)).status).toBe(200);
    });
  });

  describe("GET /plugins/enabled", () => {
    it("hides a PLUS plugin from a FREE tenant and shows it to a PLUS tenant", async () => {
      const f = await t.api.get<EnabledPlugin[]>("/plugins/enabled", free.admin);
      expect(f.status).toBe(200);
      expect(ids(f)).toContain("module-fixture");
      expect(ids(f)).not.toContain("channel-fixture");
      const p = await t.api.get<EnabledPlugin[]>("/plugins/enabled", plus.admin);
      expect(ids(p)).toEqual(expect.arrayContaining(["channel-fixture", "module-fixture"]));
      for (const refused of ["channel-throws", "module-start-fails", "module-untagged", "channel-incompatible", "broken-manifest"]) expect(ids(p)).not.toContain(refused);
    });

    it("answers what the shell needs: kind, version, tier, names, the UI remote and, for channels, the settings schema", async () => {
      const p = await t.api.get<EnabledPlugin[]>("/plugins/enabled", plus.admin);
      expect(p.body.find((x) => x.id === "channel-fixture")).toEqual({
        id: "channel-fixture",
        kind: "channel",
        version: "2.1.0",
        tier: "PLUS",
        displayName: { "pt-BR": "Canal de teste", en: "Test channel", es: "Canal de prueba", ru: "Тестовый канал" },
        ui: { remoteEntry: "/api/plugins/channel-fixture/remote/remoteEntry.js", exposes: ["register", "ConnectForm"] },
        channel: { type: "fixture", capabilities: ["text", "reaction"], settingsSchema: { greeting: { type: "string", min: 1, max: 200 } } },
      });
      expect(p.body.find((x) => x.id === "module-fixture")).toEqual({
        id: "module-fixture",
        kind: "module",
        version: "1.0.0",
        tier: "FREE",
        displayName: { "pt-BR": "Módulo de teste", en: "Test module" },
        ui: { remoteEntry: "/api/plugins/module-fixture/remote/remoteEntry.js", exposes: ["SettingsPanel"] },
      });
    });

    it("filters by profile: a plugin for supervisors and admins is hidden from agents", async () => {
      expect(ids(await t.api.get("/plugins/enabled", plus.agent))).toEqual(expect.arrayContaining(["channel-fixture"]));
      expect(ids(await t.api.get("/plugins/enabled", plus.agent))).not.toContain("module-fixture");
      expect(ids(await t.api.get("/plugins/enabled", plus.supervisor))).toEqual(expect.arrayContaining(["channel-fixture", "module-fixture"]));
    });

    it("needs a session", async () => {
      expectError(await t.api.get("/plugins/enabled"), 401, "ERR_SESSION_REQUIRED");
    });
  });

  describe("GET /plugins/routes", () => {
    it("answers the routes every loaded plugin's UI declares, with its tier, even to a tenant below it", async () => {
      const r = await t.api.get<Array<{ path: string; pluginId: string; tier: string }>>("/plugins/routes", free.agent);
      expect(r.status).toBe(200);
      expect(r.body.filter((x) => x.pluginId === "channel-fixture")).toEqual([
        { path: "fixture-board", pluginId: "channel-fixture", tier: "PLUS" },
        { path: "configuracoes/fixture", pluginId: "channel-fixture", tier: "PLUS" },
      ]);
      expect(ids(await t.api.get("/plugins/enabled", free.agent))).not.toContain("channel-fixture");
      expectError(await t.api.get("/plugins/routes"), 401, "ERR_SESSION_REQUIRED");
    });
  });

  describe("per-tenant enablement", () => {
    it("an admin switches a plugin off for their tenant only, and on again", async () => {
      const changed: unknown[] = [];
      t.core.broker.createService({ name: `plugins-listener-${Date.now()}`, events: { "plugins.changed": (ctx: { params: unknown }) => void changed.push(ctx.params) } });

      const off = await t.api.put("/plugins/channel-fixture/enabled", { enabled: false }, plus.admin);
      expect(off.status).toBe(200);
      expect(off.body).toEqual({ id: "channel-fixture", enabled: false });
      // Twice is fine (the row exists now).
      expect((await t.api.put("/plugins/channel-fixture/enabled", { enabled: false }, plus.admin)).status).toBe(200);

      for (const who of [plus.admin, plus.supervisor, plus.agent]) expect(ids(await t.api.get("/plugins/enabled", who))).not.toContain("channel-fixture");
      // The other tenant is unaffected.
      expect(ids(await t.api.get("/plugins/enabled", plus2.admin))).toContain("channel-fixture");
      expect(ids(await t.api.get("/plugins/enabled", plus2.agent))).toContain("channel-fixture");

      const list = await t.api.get<InstalledPlugin[]>("/plugins", plus.admin);
      expect(list.status).toBe(200);
      expect(list.body.find((p) => p.id === "channel-fixture")).toEqual({
        id: "channel-fixture",
        kind: "channel",
        version: "2.1.0",
        tier: "PLUS",
        displayName: expect.objectContaining({ "pt-BR": "Canal de teste" }),
        profiles: ["user", "supervisor", "admin"],
        enabled: false,
        tierAllowed: true,
        allowed: true,
        versions: ["2.1.0"],
      });
      expect((await t.api.get<InstalledPlugin[]>("/plugins", plus2.admin)).body.find((p) => p.id === "channel-fixture")?.enabled).toBe(true);
      expect((await t.api.get<InstalledPlugin[]>("/plugins", free.admin)).body.find((p) => p.id === "channel-fixture")).toMatchObject({ enabled: true, tierAllowed: false });

      expect(await t.core.broker.call("plugins.availability", { tenantId: plus.tenantId, id: "channel-fixture" })).toEqual({ enabled: false, reason: "disabled" });
      expect(await t.core.broker.call("plugins.isEnabled", { tenantId: plus.tenantId, id: "channel-fixture" })).toBe(false);
      expect(await t.core.broker.call("plugins.isEnabled", { tenantId: plus2.tenantId, id: "channel-fixture" })).toBe(true);

      const on = await t.api.put("/plugins/channel-fixture/enabled", { enabled: true }, plus.admin);
      expect(on.body).toEqual({ id: "channel-fixture", enabled: true });
      expect(ids(await t.api.get("/plugins/enabled", plus.agent))).toContain("channel-fixture");
      expect(changed).toEqual([
        { tenantId: plus.tenantId, id: "channel-fixture", enabled: false },
        { tenantId: plus.tenantId, id: "channel-fixture", enabled: false },
        { tenantId: plus.tenantId, id: "channel-fixture", enabled: true },
      ]);
    });

    it("another tenant naming the same plugin changes only its own switch", async () => {
      expect((await t.api.put("/plugins/module-fixture/enabled", { enabled: false }, plus2.admin)).status).toBe(200);
      expect(ids(await t.api.get("/plugins/enabled", plus2.admin))).not.toContain("module-fixture");
      expect(ids(await t.api.get("/plugins/enabled", plus.admin))).toContain("module-fixture");
      expect((await t.api.put("/plugins/module-fixture/enabled", { enabled: true }, plus2.admin)).status).toBe(200);
    });

    it("agents and supervisors get 403 on the switch and the admin list", async () => {
      for (const who of [plus.agent, plus.supervisor]) {
        expectError(await t.api.put("/plugins/channel-fixture/enabled", { enabled: false }, who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.get("/plugins", who), 403, "ERR_NO_PERMISSION");
      }
      expect(ids(await t.api.get("/plugins/enabled", plus.agent))).toContain("channel-fixture");
    });

    it("an unknown or refused plugin id answers 404 ERR_PLUGIN_NOT_FOUND", async () => {
      expectError(await t.api.put("/plugins/channel-nope/enabled", { enabled: false }, plus.admin), 404, "ERR_PLUGIN_NOT_FOUND");
      expectError(await t.api.put("/plugins/channel-throws/enabled", { enabled: false }, plus.admin), 404, "ERR_PLUGIN_NOT_FOUND");
    });

    it("validates the body, naming the field", async () => {
      const r = await t.api.put("/plugins/channel-fixture/enabled", { enabled: "maybe" }, plus.admin);
      expectError(r, 400, "ERR_VALIDATION");
      expect(r.body.data.field).toBe("enabled");
    });
  });

  describe("internal actions for the channels side", () => {
    it("channelFor finds the channel by connection type or id, and its service answers", async () => {
      const ch = (await t.core.broker.call("plugins.channelFor", { type: "fixture" })) as ChannelForResult;
      expect(ch).toEqual({
        id: "channel-fixture",
        service: "v2.channel-fixture",
        version: "2.1.0",
        major: 2,
        type: "fixture",
        capabilities: ["text", "reaction"],
        settingsSchema: { greeting: { type: "string", min: 1, max: 200 } },
        receipts: true,
        numberCheck: true,
      });
      expect(await t.core.broker.call("plugins.channelFor", { type: "channel-fixture" })).toEqual(ch);
      const sent = await callChannel(t.core.broker, ch.service, "send", { tenantId: plus.tenantId, connectionId: 1, to: { externalId: "x" }, message: { kind: "text", body: "oi" } });
      expect(sent).toEqual({ providerMessageId: expect.stringMatching(/^fx-/), timestamp: expect.any(Number) });
      const unsupported = await rejection(callChannel(t.core.broker, ch.service, "send", { tenantId: plus.tenantId, connectionId: 1, to: { externalId: "x" }, message: { kind: "delete", targetProviderId: "fx-1" } }));
      expect({ type: unsupported.type, code: unsupported.code }).toEqual({ type: "ERR_CHANNEL_UNSUPPORTED", code: 400 });
    });

    it("channelFor answers ERR_PLUGIN_UNAVAILABLE for a refused channel and ERR_PLUGIN_NOT_FOUND for an unknown type", async () => {
      for (const type of ["throws", "future", "channel-throws"]) {
        expect((await rejection(t.core.broker.call("plugins.channelFor", { type }))).type).toBe("ERR_PLUGIN_UNAVAILABLE");
      }
      expect((await rejection(t.core.broker.call("plugins.channelFor", { type: "carrier-pigeon" }))).type).toBe("ERR_PLUGIN_NOT_FOUND");
      // A plugin that is not a channel is not a channel.
      expect((await rejection(t.core.broker.call("plugins.channelFor", { type: "module-fixture" }))).type).toBe("ERR_PLUGIN_NOT_FOUND");
    });

    it("availability says why not, isEnabled answers a boolean, and with assert both throw the matching error", async () => {
      const call = (tenantId: number, id: string, assert?: boolean) => t.core.broker.call("plugins.availability", { tenantId, id, assert });
      expect(await t.core.broker.call("plugins.isEnabled", { tenantId: free.tenantId, id: "module-fixture" })).toBe(true);
      expect(await t.core.broker.call("plugins.isEnabled", { tenantId: free.tenantId, id: "channel-fixture" })).toBe(false);
      expect((await rejection(t.core.broker.call("plugins.isEnabled", { tenantId: free.tenantId, id: "channel-fixture", assert: true }))).type).toBe("ERR_LICENSE_TIER_REQUIRED");
      expect(await call(free.tenantId, "module-fixture")).toEqual({ enabled: true });
      expect(await call(free.tenantId, "channel-fixture")).toEqual({ enabled: false, reason: "tier" });
      expect(await call(free.tenantId, "channel-throws")).toEqual({ enabled: false, reason: "refused" });
      expect(await call(free.tenantId, "channel-nope")).toEqual({ enabled: false, reason: "unknown" });
      expect(await rejection(call(free.tenantId, "channel-fixture", true))).toMatchObject({ type: "ERR_LICENSE_TIER_REQUIRED", data: { requiredTier: "PLUS", currentTier: "FREE" } });
      expect((await rejection(call(free.tenantId, "channel-throws", true))).type).toBe("ERR_PLUGIN_UNAVAILABLE");
      expect((await rejection(call(free.tenantId, "channel-nope", true))).type).toBe("ERR_PLUGIN_NOT_FOUND");
      await t.api.put("/plugins/module-fixture/enabled", { enabled: false }, free.admin);
      expect((await rejection(call(free.tenantId, "module-fixture", true))).type).toBe("ERR_PLUGIN_DISABLED");
      await t.api.put("/plugins/module-fixture/enabled", { enabled: true }, free.admin);
      expect(await call(free.tenantId, "module-fixture", true)).toEqual({ enabled: true });
    });

    it("get answers a plugin's record and manifest, loaded or refused", async () => {
      expect(await t.core.broker.call("plugins.get", { id: "channel-fixture" })).toMatchObject({
        status: "loaded",
        service: "v2.channel-fixture",
        manifest: { id: "channel-fixture", packageName: "@openatende-fixtures/channel-fixture", channel: { type: "fixture" } },
      });
      expect(await t.core.broker.call("plugins.get", { id: "channel-incompatible" })).toMatchObject({ status: "refused", reason: expect.stringMatching(/^incompatible core API/), manifest: { coreApi: "^2.0.0" } });
      expect((await rejection(t.core.broker.call("plugins.get", { id: "nope" }))).type).toBe("ERR_PLUGIN_NOT_FOUND");
    });
  });
});
