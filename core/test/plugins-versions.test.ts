/**
 * Two major versions of one plugin side by side, on MariaDB: channel-fixture 1.4.0
 * (fixtures-plugins/versions/channel-fixture-v1) and 2.1.0 (fixtures-plugins/channel-fixture),
 * same id, same connection type. The story of an upgrade, on one database across three
 * starts of the core: a connection made while only major 1 was installed; then both majors
 * run at once ("v1.channel-fixture", "v2.channel-fixture") — the old connection stays pinned
 * to major 1 (sends and inbound go through v1), new connections use major 2; then major 1 is
 * removed, and its connection shows inactive with ERR_PLUGIN_VERSION_UNAVAILABLE.
 */
import * as path from "node:path";
import type { Service } from "moleculer";
import type { ChannelForResult, EnabledPlugin, InstalledPlugin, PluginRecord, TenantPluginView } from "@openatende/plugin-sdk";
import { startCore, createTenant, createSuper, dropDatabase, uid, TestCore, Auth, Res } from "./helpers";
import { createPluginsService } from "../src/plugins/plugins.service";

const FIXTURES = path.join(__dirname, "fixtures-plugins");
const V1_ONLY = path.join(FIXTURES, "versions");

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

async function rejection(p: Promise<unknown>): Promise<{ type?: string; code?: number; data?: Record<string, unknown> }> {
  try {
    await p;
  } catch (err) {
    return err as { type?: string; code?: number };
  }
  throw new Error("expected a rejection");
}

/** A core on database `db` whose plugin host also scans `dirs`. */
async function startHost(db: string, dirs: string[]): Promise<TestCore> {
  const t = await startCore({ env: { SERVICES: "api,core", DATABASE_URL: `mysql://root@127.0.0.1:3306/${db}` } });
  const svc: Service = t.core.broker.createService(createPluginsService(t.core.deps, { pluginDirs: dirs, startTimeoutMs: 5000 }));
  jest.spyOn(svc.logger, "warn").mockImplementation(() => undefined);
  await t.core.broker.waitForServices(["plugins"], 30_000);
  for (let i = 0; i < 100; i++) {
    const aliases = (await t.core.broker.call("api.listAliases")) as Array<{ actionName: string }>;
    if (["plugins.enabled", "plugins.tenantPlugins", "connections.create", "messages.send"].every((n) => aliases.some((a) => a.actionName === n))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return t;
}

type ConnectionView = { id: number; status: string; statusDetail?: string | null; pluginMajor: number | null; inactiveReason: string | null };

describe("a plugin in two major versions side by side (MariaDB)", () => {
  const db = `oa_t_ver_${process.pid}_${uid()}`;
  let t: TestCore | undefined;
  let tenantId: number;
  let emails: { admin: string };
  let admin: Auth;
  let sup: Auth;
  let old: ConnectionView;
  let fresh: ConnectionView;
  let oldTicket: number;
  let freshTicket: number;

  const receive = (major: number, connectionId: number, key: string) => t!.core.broker.call(`v${major}.channel-fixture.receive`, { tenantId, connectionId, key }) as Promise<{ ticketId: number; duplicate: boolean }>;
  const fixtureRecords = async () => ((await t!.core.broker.call("plugins.registry")) as PluginRecord[]).filter((r) => r.id === "channel-fixture");

  afterAll(async () => {
    await t?.stop();
    await dropDatabase(db);
  });

  it("with only major 1 installed, a connection is made with major 1", async () => {
    t = await startHost(db, [V1_ONLY]);
    expect(await fixtureRecords()).toEqual([expect.objectContaining({ status: "loaded", version: "1.4.0", major: 1, service: "v1.channel-fixture" })]);
    const a = await createTenant(t, { tier: "PLUS" });
    tenantId = a.tenantId;
    emails = a.emails;
    sup = await createSuper(t);
    expect((await t.api.put(`/plugins/channel-fixture/tenants/${tenantId}`, { allowed: true }, sup)).status).toBe(200);

    const c = await t.api.post("/connections", { type: "channel-fixture", name: "Antiga", settings: { greeting: "Olá" } }, a.admin);
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ type: "channel-fixture", pluginMajor: 1 });
    old = c.body;
    expect((await t.api.post(`/connections/${old.id}/connect`, {}, a.admin)).body).toMatchObject({ status: "connected", statusDetail: "fixture v1" });
    oldTicket = (await receive(1, old.id, "old-1")).ticketId;
    await t.stop();
    t = undefined;
  });

  it("with both installed, both majors run, and the registry and the lists show both", async () => {
    t = await startHost(db, [FIXTURES, V1_ONLY]);
    admin = await t.api.login(emails.admin);
    expect((await fixtureRecords()).map((r) => ({ status: r.status, version: r.version, major: r.major, service: r.service }))).toEqual([
      { status: "loaded", version: "2.1.0", major: 2, service: "v2.channel-fixture" },
      { status: "loaded", version: "1.4.0", major: 1, service: "v1.channel-fixture" },
    ]);
    expect(t.core.broker.registry.hasService("v1.channel-fixture", t.core.broker.nodeID)).toBe(true);
    expect(t.core.broker.registry.hasService("v2.channel-fixture", t.core.broker.nodeID)).toBe(true);

    // The tenant admin's list and the super's per-tenant view name both versions; the shell
    // gets the newest only (its UI remote, and the major new connections use).
    const installed = (await t.api.get<InstalledPlugin[]>("/plugins", admin)).body.filter((p) => p.id === "channel-fixture");
    expect(installed).toEqual([expect.objectContaining({ version: "2.1.0", versions: ["2.1.0", "1.4.0"], allowed: true })]);
    const enabled = (await t.api.get<EnabledPlugin[]>("/plugins/enabled", admin)).body.filter((p) => p.id === "channel-fixture");
    expect(enabled).toEqual([expect.objectContaining({ version: "2.1.0", channel: expect.objectContaining({ capabilities: ["text", "reaction"] }) })]);

    const newest = (await t.core.broker.call("plugins.channelFor", { type: "fixture" })) as ChannelForResult;
    expect(newest).toMatchObject({ service: "v2.channel-fixture", version: "2.1.0", major: 2 });
    expect(await t.core.broker.call("plugins.channelFor", { type: "fixture", major: 1, tenantId })).toMatchObject({ service: "v1.channel-fixture", version: "1.4.0", major: 1, capabilities: ["text"] });
    expect((await rejection(t.core.broker.call("plugins.channelFor", { type: "fixture", major: 7 }))).type).toBe("ERR_PLUGIN_VERSION_UNAVAILABLE");
    expect(await t.core.broker.call("plugins.availability", { tenantId, id: "channel-fixture", major: 7 })).toEqual({ enabled: false, reason: "version" });
  });

  it("the super's view lists both versions too", async () => {
    const s = await createSuper(t!);
    const view = (await t!.api.get<TenantPluginView[]>(`/plugins/tenants/${tenantId}`, s)).body.find((p) => p.id === "channel-fixture");
    expect(view).toMatchObject({ version: "2.1.0", versions: ["2.1.0", "1.4.0"], decision: true, available: true });
  });

  it("the old connection stays on major 1: sends and inbound go through v1, and v2 may not speak for it", async () => {
    expect((await t!.api.get<ConnectionView>(`/connections/${old.id}`, admin)).body).toMatchObject({ pluginMajor: 1, inactiveReason: null });
    expect((await t!.api.post(`/connections/${old.id}/connect`, {}, admin)).body).toMatchObject({ status: "connected", statusDetail: "fixture v1" });
    const again = await receive(1, old.id, "old-2");
    expect(again).toMatchObject({ ticketId: expect.any(Number), duplicate: false });
    expect(await t!.core.broker.call("messages.findByProvider", { tenantId, connectionId: old.id, providerId: "fx1-in-old-2" })).toMatchObject({ connectionId: old.id });
    expect(await rejection(receive(2, old.id, "old-3"))).toMatchObject({ type: "ERR_NO_PERMISSION", data: { major: 1 } });
    expect(await t!.core.broker.call("messages.findByProvider", { tenantId, connectionId: old.id, providerId: "fx-in-old-3" })).toBeNull();

    const sent = await t!.api.post(`/messages/${oldTicket}`, { body: "Olá pela v1" }, admin);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ status: "sent", providerId: expect.stringMatching(/^fx1-\d+$/) });
  });

  it("a new connection uses the newest major and stays on it", async () => {
    const c = await t!.api.post("/connections", { type: "channel-fixture", name: "Nova", settings: { greeting: "Olá" } }, admin);
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ pluginMajor: 2 });
    fresh = c.body;
    const connected = (await t!.api.post(`/connections/${fresh.id}/connect`, {}, admin)).body;
    expect(connected).toMatchObject({ status: "connected", statusDetail: null });
    freshTicket = (await receive(2, fresh.id, "new-1")).ticketId;
    expect(await rejection(receive(1, fresh.id, "new-2"))).toMatchObject({ type: "ERR_NO_PERMISSION", data: { major: 2 } });

    expect((await t!.api.post(`/messages/${freshTicket}`, { body: "Olá pela v2" }, admin)).body).toMatchObject({ status: "sent", providerId: expect.stringMatching(/^fx-\d+$/) });
    // Both at once: the old one still goes through v1.
    expect((await t!.api.post(`/messages/${oldTicket}`, { body: "Ainda pela v1" }, admin)).body).toMatchObject({ status: "sent", providerId: expect.stringMatching(/^fx1-\d+$/) });
    // A reaction (major 2 can, major 1 cannot) follows each connection's own major.
    const last = (await t!.api.get(`/messages/${freshTicket}`, admin)).body.messages.at(-1);
    expect((await t!.api.post(`/messagesReaction/${last.id}`, { emoji: "👍" }, admin)).status).toBe(200);
    const oldLast = (await t!.api.get(`/messages/${oldTicket}`, admin)).body.messages.at(-1);
    expectError(await t!.api.post(`/messagesReaction/${oldLast.id}`, { emoji: "👍" }, admin), 400, "ERR_CHANNEL_UNSUPPORTED");
  });

  it("with major 1 removed, its connection is inactive with ERR_PLUGIN_VERSION_UNAVAILABLE while major 2's keeps working", async () => {
    await t!.stop();
    t = await startHost(db, [FIXTURES]);
    admin = await t.api.login(emails.admin);
    expect((await t.api.get<ConnectionView>(`/connections/${old.id}`, admin)).body).toMatchObject({ status: "inactive", inactiveReason: "ERR_PLUGIN_VERSION_UNAVAILABLE", pluginMajor: 1 });
    expect((await t.api.get<ConnectionView>(`/connections/${fresh.id}`, admin)).body).toMatchObject({ inactiveReason: null, pluginMajor: 2 });
    expectError(await t.api.post(`/connections/${old.id}/connect`, {}, admin), 503, "ERR_PLUGIN_VERSION_UNAVAILABLE");
    const refused = await t.api.post(`/messages/${oldTicket}`, { body: "?" }, admin);
    expectError(refused, 409, "ERR_CONNECTION_INACTIVE");
    expect(refused.body.data).toMatchObject({ reason: "ERR_PLUGIN_VERSION_UNAVAILABLE" });
    expect((await t.api.post(`/messages/${freshTicket}`, { body: "Seguimos" }, admin)).body).toMatchObject({ status: "sent", providerId: expect.stringMatching(/^fx-\d+$/) });
  });
});
