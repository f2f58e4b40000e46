/**
 * Per-tenant enablement of plugins on MariaDB: the platform level (super; the product has no
 * separate reseller level) allows a plugin for a tenant, the tenant admin switches it, the
 * licence tier still applies. The default policy: bundled FREE-tier plugins are allowed for
 * every tenant, anything else only where the super allows it. A plugin the tenant may not use
 * takes its connections down with it — status "inactive" with the reason's code, nothing in,
 * nothing out, its type no longer offered — and they come back when it is usable again.
 */
import * as path from "node:path";
import type { Service } from "moleculer";
import { io as ioClient, Socket } from "socket.io-client";
import type { EnabledPlugin, InstalledPlugin, TenantPluginView } from "@openatende/plugin-sdk";
import { startCore, createTenant, createSuper, signTestLicence, uid, TestCore, TenantFixture, Auth, Res } from "./helpers";
import { createPluginsService } from "../src/plugins/plugins.service";

const FIXTURES = path.join(__dirname, "fixtures-plugins");

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
}

async function rejection(p: Promise<unknown>): Promise<{ type?: string; code?: number; data?: Record<string, unknown> }> {
  try {
    await p;
  } catch (err) {
    return err as { type?: string; code?: number };
  }
  throw new Error("expected a rejection");
}

const waitFor = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 8000): Promise<T> => {
  const t0 = Date.now();
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

function socketOf(t: TestCore, auth: Auth): Promise<{ socket: Socket; events: Array<{ event: string; payload: any }> }> {
  const events: Array<{ event: string; payload: any }> = [];
  const socket = ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth: { token: auth.token, sessionId: auth.sessionId }, reconnection: false });
  socket.onAny((event, payload) => events.push({ event, payload }));
  return new Promise((resolve, reject) => {
    socket.on("ready", () => resolve({ socket, events }));
    socket.on("connect_error", reject);
  });
}

/** A core whose plugin host also scans the fixture folder (as plugins.test.ts). */
async function startWithFixtures(): Promise<TestCore> {
  const t = await startCore({ env: { SERVICES: "api,core" } });
  const svc: Service = t.core.broker.createService(createPluginsService(t.core.deps, { pluginDirs: [FIXTURES], startTimeoutMs: 5000 }));
  jest.spyOn(svc.logger, "warn").mockImplementation(() => undefined);
  await t.core.broker.waitForServices(["plugins"], 30_000);
  for (let i = 0; i < 100; i++) {
    const aliases = (await t.core.broker.call("api.listAliases")) as Array<{ actionName: string }>;
    if (["plugins.enabled", "plugins.setAllowed", "plugins.tenantPlugins", "connections.create"].every((n) => aliases.some((a) => a.actionName === n))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return t;
}

const ids = (r: Res<EnabledPlugin[]>) => r.body.map((p) => p.id);
type ConnectionView = { id: number; type: string; status: string; inactiveReason: string | null; pluginMajor: number | null; token?: string };

describe("per-tenant enablement of plugins (MariaDB)", () => {
  let t: TestCore;
  let sup: Auth;
  let a: TenantFixture;
  let b: TenantFixture;
  let free: TenantFixture;
  let conn: ConnectionView;
  let idle: ConnectionView;
  let ticketId: number;
  const changed: any[] = [];

  const row = async (id: number) => (await t.core.broker.call("connections.getInternal", { id })) as { status: string; inactiveReason: string | null; resumeStatus: string | null };
  const get = async (id: number, who: Auth) => (await t.api.get<ConnectionView>(`/connections/${id}`, who)).body;
  const fixtureStatus = async (tenantId: number, connectionId: number) => ((await t.core.broker.call("v2.channel-fixture.status", { tenantId, connectionId })) as { status: string }).status;
  const receive = (tenantId: number, connectionId: number, key: string) => t.core.broker.call("v2.channel-fixture.receive", { tenantId, connectionId, key });
  const stored = (tenantId: number, connectionId: number, key: string) => t.core.broker.call("messages.findByProvider", { tenantId, connectionId, providerId: `fx-in-${key}` });
  const messageCount = async (who: Auth) => ((await t.api.get(`/messages/${ticketId}`, who)).body.messages as unknown[]).length;

  beforeAll(async () => {
    t = await startWithFixtures();
    [a, b, free] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" }), createTenant(t)]);
    sup = await createSuper(t);
    t.core.broker.createService({ name: `plugins-listener-${uid()}`, events: { "plugins.changed": (ctx: { params: unknown }) => void changed.push(ctx.params) } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("by default bundled plugins are allowed for every tenant (their tier still gates them), installed ones only where the super allows it", async () => {
    const r = await t.api.get<TenantPluginView[]>(`/plugins/tenants/${a.tenantId}`, sup);
    expect(r.status).toBe(200);
    const by = new Map(r.body.map((p) => [p.id, p]));
    for (const id of ["channel-webchat", "channel-telegram", "channel-email"]) {
      expect(by.get(id)).toMatchObject({ bundled: true, tier: "FREE", decision: null, allowedByDefault: true, allowed: true, enabled: true, tierAllowed: true, available: true });
    }
    expect(by.get("channel-fixture")).toEqual({
      id: "channel-fixture",
      kind: "channel",
      version: "2.1.0",
      versions: ["2.1.0"],
      tier: "PLUS",
      displayName: expect.objectContaining({ "pt-BR": "Canal de teste" }),
      bundled: false,
      decision: null,
      allowedByDefault: false,
      allowed: false,
      enabled: true,
      tierAllowed: true,
      available: false,
    });
    // Not bundled, even at FREE.
    expect(by.get("module-fixture")).toMatchObject({ bundled: false, tier: "FREE", allowed: false, available: false });
    // Bundled above FREE: allowed by default, the tenant's tier decides.
    expect(by.get("module-kanban")).toMatchObject({ bundled: true, tier: "PLUS", decision: null, allowedByDefault: true, allowed: true, tierAllowed: true, available: true });
    const forFree = new Map((await t.api.get<TenantPluginView[]>(`/plugins/tenants/${free.tenantId}`, sup)).body.map((p) => [p.id, p]));
    expect(forFree.get("module-kanban")).toMatchObject({ allowed: true, tierAllowed: false, available: false });

    // The tenant's side: not offered, not listed as allowed, and not usable in any way.
    const enabled = ids(await t.api.get("/plugins/enabled", a.admin));
    expect(enabled).toEqual(expect.arrayContaining(["channel-webchat", "channel-telegram", "channel-email"]));
    expect(enabled).not.toContain("channel-fixture");
    expect(enabled).not.toContain("module-fixture");
    expect((await t.api.get<InstalledPlugin[]>("/plugins", a.admin)).body.find((p) => p.id === "channel-fixture")).toMatchObject({ enabled: true, tierAllowed: true, allowed: false });
    expectError(await t.api.put("/plugins/channel-fixture/enabled", { enabled: true }, a.admin), 403, "ERR_PLUGIN_NOT_ALLOWED");
    expectError(await t.api.post("/connections", { type: "channel-fixture", name: "Fixture", settings: { greeting: "Olá" } }, a.admin), 403, "ERR_PLUGIN_NOT_ALLOWED");
    expectError(await t.api.post("/connections/test", { type: "channel-fixture", settings: { greeting: "Olá" } }, a.admin), 403, "ERR_PLUGIN_NOT_ALLOWED");
    expect(await t.core.broker.call("plugins.availability", { tenantId: a.tenantId, id: "channel-fixture" })).toEqual({ enabled: false, reason: "not_allowed" });
    expect((await rejection(t.core.broker.call("plugins.channelFor", { type: "fixture", tenantId: a.tenantId }))).type).toBe("ERR_PLUGIN_NOT_ALLOWED");
    // Switching off what is not allowed is fine (and changes nothing visible).
    expect((await t.api.put("/plugins/module-fixture/enabled", { enabled: false }, a.admin)).status).toBe(200);
    expect((await t.api.put("/plugins/module-fixture/enabled", { enabled: true }, a.admin)).status).toBe(403);
  });

  it("only the super decides; an unknown tenant or plugin answers 404; the body is checked", async () => {
    for (const who of [a.admin, a.supervisor, a.agent]) {
      expectError(await t.api.get(`/plugins/tenants/${a.tenantId}`, who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put(`/plugins/channel-fixture/tenants/${a.tenantId}`, { allowed: true }, who), 403, "ERR_NO_PERMISSION");
    }
    expectError(await t.api.get(`/plugins/tenants/${a.tenantId}`), 401, "ERR_SESSION_REQUIRED");
    expectError(await t.api.put(`/plugins/channel-nope/tenants/${a.tenantId}`, { allowed: true }, sup), 404, "ERR_PLUGIN_NOT_FOUND");
    expectError(await t.api.put(`/plugins/channel-throws/tenants/${a.tenantId}`, { allowed: true }, sup), 404, "ERR_PLUGIN_NOT_FOUND");
    expectError(await t.api.put("/plugins/channel-fixture/tenants/987654", { allowed: true }, sup), 404, "ERR_TENANT_NOT_FOUND");
    expectError(await t.api.get("/plugins/tenants/987654", sup), 404, "ERR_TENANT_NOT_FOUND");
    const bad = await t.api.put(`/plugins/channel-fixture/tenants/${a.tenantId}`, { allowed: "maybe" }, sup);
    expectError(bad, 400, "ERR_VALIDATION");
    expect(bad.body.data.field).toBe("allowed");
    expectError(await t.api.put(`/plugins/channel-fixture/tenants/${a.tenantId}`, {}, sup), 400, "ERR_VALIDATION");
    expect((await t.api.get<TenantPluginView[]>(`/plugins/tenants/${a.tenantId}`, sup)).body.find((p) => p.id === "channel-fixture")).toMatchObject({ decision: null, allowed: false });
  });

  it("allowed for one tenant: its admin sees it and connects; traffic flows; other tenants still do not see it", async () => {
    const r = await t.api.put(`/plugins/channel-fixture/tenants/${a.tenantId}`, { allowed: true }, sup);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: "channel-fixture", tenantId: a.tenantId, decision: true, allowed: true });
    expect(changed).toContainEqual({ tenantId: a.tenantId, id: "channel-fixture", enabled: true, allowed: true });
    expect(ids(await t.api.get("/plugins/enabled", a.agent))).toContain("channel-fixture");
    expect(ids(await t.api.get("/plugins/enabled", b.admin))).not.toContain("channel-fixture");
    expect((await t.api.get<TenantPluginView[]>(`/plugins/tenants/${a.tenantId}`, sup)).body.find((p) => p.id === "channel-fixture")).toMatchObject({ decision: true, allowed: true, available: true });
    expect((await t.api.get<TenantPluginView[]>(`/plugins/tenants/${b.tenantId}`, sup)).body.find((p) => p.id === "channel-fixture")).toMatchObject({ decision: null, allowed: false });

    const c = await t.api.post("/connections", { type: "channel-fixture", name: "Fixture", settings: { greeting: "Olá" } }, a.admin);
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ type: "channel-fixture", status: "disconnected", pluginMajor: 2, inactiveReason: null });
    conn = c.body;
    expect((await t.api.post(`/connections/${conn.id}/connect`, {}, a.admin)).body.status).toBe("connected");
    const idleRes = await t.api.post("/connections", { type: "channel-fixture", name: "Fixture parada", settings: { greeting: "Oi" } }, a.admin);
    expect(idleRes.status).toBe(201);
    idle = idleRes.body;

    const first = (await receive(a.tenantId, conn.id, "k1")) as { ticketId: number; duplicate: boolean };
    expect(first.duplicate).toBe(false);
    ticketId = first.ticketId;
    const sent = await t.api.post(`/messages/${ticketId}`, { body: "Olá, cliente" }, a.admin);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ status: "sent", providerId: expect.stringMatching(/^fx-\d+$/) });
  });

  it("a connect answer older than the status the plugin reported meanwhile does not take it back", async () => {
    const c = await t.api.post("/connections", { type: "channel-fixture", name: `Fixture tardia ${uid()}`, settings: { greeting: "late answer" } }, a.admin);
    expect(c.status).toBe(201);
    await t.api.post(`/connections/${c.body.id}/connect`, {}, a.admin);
    expect((await row(c.body.id)).status).toBe("connected");
    await t.api.post(`/connections/${c.body.id}/disconnect`, {}, a.admin);
    expect((await t.api.call("DELETE", `/connections/${c.body.id}?confirmation=EXCLUIR`, undefined, a.admin)).status).toBeLessThan(300);
  });

  it("the tier still applies: a FREE tenant the super allows it for is refused with ERR_LICENSE_TIER_REQUIRED", async () => {
    expect((await t.api.put(`/plugins/channel-fixture/tenants/${free.tenantId}`, { allowed: true }, sup)).status).toBe(200);
    expect(ids(await t.api.get("/plugins/enabled", free.admin))).not.toContain("channel-fixture");
    expect((await t.api.get<TenantPluginView[]>(`/plugins/tenants/${free.tenantId}`, sup)).body.find((p) => p.id === "channel-fixture")).toMatchObject({ allowed: true, tierAllowed: false, available: false });
    const r = await t.api.post("/connections", { type: "channel-fixture", name: "Fixture", settings: { greeting: "Olá" } }, free.admin);
    expectError(r, 403, "ERR_LICENSE_TIER_REQUIRED");
    expect(r.body.data).toMatchObject({ requiredTier: "PLUS", currentTier: "FREE" });
  });

  it("switched off by the tenant admin: its connections go inactive with the reason, nothing comes in or goes out; on again, they are back", async () => {
    const admin = await socketOf(t, a.admin);
    try {
      const before = await messageCount(a.admin);
      expect((await t.api.put("/plugins/channel-fixture/enabled", { enabled: false }, a.admin)).status).toBe(200);

      // Stopped: the plugin was told to disconnect, the row says why, admins hear it live.
      expect(await row(conn.id)).toMatchObject({ status: "inactive", inactiveReason: "ERR_PLUGIN_DISABLED", resumeStatus: "connected" });
      expect(await row(idle.id)).toMatchObject({ status: "inactive", inactiveReason: "ERR_PLUGIN_DISABLED", resumeStatus: "disconnected" });
      expect(await fixtureStatus(a.tenantId, conn.id)).toBe("disconnected");
      expect(await get(conn.id, a.admin)).toMatchObject({ status: "inactive", inactiveReason: "ERR_PLUGIN_DISABLED" });
      const list = (await t.api.get<ConnectionView[]>("/connections", a.admin)).body;
      expect(list.find((x) => x.id === conn.id)).toMatchObject({ status: "inactive", inactiveReason: "ERR_PLUGIN_DISABLED" });
      // Agents see the status too (the reason is part of the short view).
      expect((await t.api.get<ConnectionView[]>("/connections", a.agent)).body.find((x) => x.id === conn.id)).toMatchObject({ status: "inactive", inactiveReason: "ERR_PLUGIN_DISABLED" });
      await waitFor(
        async () => admin.events.filter((e) => e.event === `${a.tenantId}:whatsappSession` && e.payload?.session?.id === conn.id).map((e) => e.payload.session),
        (s) => s.some((x: any) => x.status === "inactive" && x.inactiveReason === "ERR_PLUGIN_DISABLED"),
        "the inactive status pushed to the admins",
      );
      expect(ids(await t.api.get("/plugins/enabled", a.admin))).not.toContain("channel-fixture");

      // Nothing in: the plugin's inbound is refused and nothing is stored.
      const inbound = await rejection(receive(a.tenantId, conn.id, "k2"));
      expect(inbound).toMatchObject({ type: "ERR_CONNECTION_INACTIVE", code: 409, data: { reason: "ERR_PLUGIN_DISABLED" } });
      expect(await stored(a.tenantId, conn.id, "k2")).toBeNull();
      // Nothing out: refused with the catalogue's code, in the caller's language, nothing stored.
      const out = await t.api.post(`/messages/${ticketId}`, { body: "Alguém aí?" }, a.admin);
      expectError(out, 409, "ERR_CONNECTION_INACTIVE");
      expect(out.body.data).toMatchObject({ reason: "ERR_PLUGIN_DISABLED" });
      expect(out.body.message).toMatch(/desativado para a sua empresa/);
      const en = await t.api.call("POST", `/messages/${ticketId}`, { body: "Anyone?" }, a.admin, { "accept-language": "en" });
      expect(en.body.message).toMatch(/disabled for your company/);
      const ru = await t.api.call("POST", `/messages/${ticketId}`, { body: "?" }, a.admin, { "accept-language": "ru" });
      expect(ru.body.message).toMatch(/отключён/);
      expect(await messageCount(a.admin)).toBe(before);
      // Not connectable meanwhile, and the plugin's late reports do not bring it back.
      expectError(await t.api.post(`/connections/${conn.id}/connect`, {}, a.admin), 403, "ERR_PLUGIN_DISABLED");
      expect(await t.core.broker.call("channels.status", { tenantId: a.tenantId, connectionId: conn.id, status: "connected" }, { caller: "v2.channel-fixture" } as never)).toMatchObject({ ignored: true });
      expect(await row(conn.id)).toMatchObject({ status: "inactive" });

      // On again: what was running reconnects; what was not is disconnected.
      expect((await t.api.put("/plugins/channel-fixture/enabled", { enabled: true }, a.admin)).status).toBe(200);
      expect(await row(conn.id)).toMatchObject({ status: "connected", inactiveReason: null, resumeStatus: null });
      expect(await row(idle.id)).toMatchObject({ status: "disconnected", inactiveReason: null });
      expect(await fixtureStatus(a.tenantId, conn.id)).toBe("connected");
      expect(await fixtureStatus(a.tenantId, idle.id)).toBe("disconnected");
      expect(((await receive(a.tenantId, conn.id, "k3")) as { duplicate: boolean }).duplicate).toBe(false);
      expect(await stored(a.tenantId, conn.id, "k3")).not.toBeNull();
      expect((await t.api.post(`/messages/${ticketId}`, { body: "De volta" }, a.admin)).body).toMatchObject({ status: "sent" });
      expect(await messageCount(a.admin)).toBe(before + 1);
    } finally {
      admin.socket.close();
    }
  });

  it("disallowed by the super: stopped with ERR_PLUGIN_NOT_ALLOWED and the admin cannot switch it back; the decision forgotten, the default applies; allowed again, back", async () => {
    expect((await t.api.put(`/plugins/channel-fixture/tenants/${a.tenantId}`, { allowed: false }, sup)).status).toBe(200);
    expect(await row(conn.id)).toMatchObject({ status: "inactive", inactiveReason: "ERR_PLUGIN_NOT_ALLOWED", resumeStatus: "connected" });
    expect(await row(idle.id)).toMatchObject({ status: "inactive", inactiveReason: "ERR_PLUGIN_NOT_ALLOWED" });
    expect(await fixtureStatus(a.tenantId, conn.id)).toBe("disconnected");
    expect((await t.api.get<InstalledPlugin[]>("/plugins", a.admin)).body.find((p) => p.id === "channel-fixture")).toMatchObject({ allowed: false, enabled: true });
    expectError(await t.api.put("/plugins/channel-fixture/enabled", { enabled: true }, a.admin), 403, "ERR_PLUGIN_NOT_ALLOWED");
    expect((await rejection(receive(a.tenantId, conn.id, "k4"))).data).toMatchObject({ reason: "ERR_PLUGIN_NOT_ALLOWED" });
    expect(await stored(a.tenantId, conn.id, "k4")).toBeNull();
    expect((await t.api.post(`/messages/${ticketId}`, { body: "?" }, a.admin)).body).toMatchObject({ error: "ERR_CONNECTION_INACTIVE", data: { reason: "ERR_PLUGIN_NOT_ALLOWED" } });

    // null forgets the decision: for a plugin from outside the bundle the default is "no".
    expect((await t.api.put(`/plugins/channel-fixture/tenants/${a.tenantId}`, { allowed: null }, sup)).body).toEqual({ id: "channel-fixture", tenantId: a.tenantId, decision: null, allowed: false });
    expect(await row(conn.id)).toMatchObject({ status: "inactive", inactiveReason: "ERR_PLUGIN_NOT_ALLOWED" });

    expect((await t.api.put(`/plugins/channel-fixture/tenants/${a.tenantId}`, { allowed: true }, sup)).status).toBe(200);
    expect(await row(conn.id)).toMatchObject({ status: "connected", inactiveReason: null });
    expect(await row(idle.id)).toMatchObject({ status: "disconnected", inactiveReason: null });
    expect(((await receive(a.tenantId, conn.id, "k5")) as { duplicate: boolean }).duplicate).toBe(false);
  });

  it("a bundled FREE plugin disallowed for one tenant: its type is no longer offered and its connections stop; other tenants keep it", async () => {
    const w = await t.api.post("/connections", { type: "channel-webchat", name: `Site ${uid()}`, settings: { title: "Fale conosco" } }, b.admin);
    expect(w.status).toBe(201);
    expect((await t.api.post(`/connections/${w.body.id}/connect`, {}, b.admin)).body.status).toBe("connected");
    const visitor = () => t.core.broker.call("channels.inbound", { tenantId: b.tenantId, connectionId: w.body.id, providerMessageId: `w-${uid()}`, timestamp: Date.now(), from: { externalId: `v-${uid()}` }, body: "olá" }, { caller: "v1.channel-webchat" } as never);
    expect(((await visitor()) as { duplicate: boolean }).duplicate).toBe(false);

    expect((await t.api.put(`/plugins/channel-webchat/tenants/${b.tenantId}`, { allowed: false }, sup)).status).toBe(200);
    expect(ids(await t.api.get("/plugins/enabled", b.admin))).not.toContain("channel-webchat");
    expect(ids(await t.api.get("/plugins/enabled", a.admin))).toContain("channel-webchat");
    expect(await row(w.body.id)).toMatchObject({ status: "inactive", inactiveReason: "ERR_PLUGIN_NOT_ALLOWED" });
    expect((await rejection(visitor())).type).toBe("ERR_CONNECTION_INACTIVE");
    expectError(await t.api.post("/connections", { type: "channel-webchat", name: `Outro ${uid()}` }, b.admin), 403, "ERR_PLUGIN_NOT_ALLOWED");

    // Forgetting the decision brings the default back: bundled and FREE, so allowed.
    expect((await t.api.put(`/plugins/channel-webchat/tenants/${b.tenantId}`, { allowed: null }, b.admin)).status).toBe(403);
    expect((await t.api.put(`/plugins/channel-webchat/tenants/${b.tenantId}`, { allowed: null }, sup)).body).toMatchObject({ decision: null, allowed: true });
    expect(await row(w.body.id)).toMatchObject({ status: "connected", inactiveReason: null });
    expect(((await visitor()) as { duplicate: boolean }).duplicate).toBe(false);
  });

  it("a licence below the plugin's tier stops its connections; the licence back brings them back", async () => {
    await t.core.broker.call("tenants.setLicenseToken", { id: a.tenantId, token: null });
    await t.core.broker.broadcast("licence.changed", { tenantId: a.tenantId });
    await waitFor(() => row(conn.id), (r) => r.status === "inactive", "the connection stopped by the licence");
    expect(await row(conn.id)).toMatchObject({ status: "inactive", inactiveReason: "ERR_LICENSE_TIER_REQUIRED", resumeStatus: "connected" });
    expect(await fixtureStatus(a.tenantId, conn.id)).toBe("disconnected");
    expect((await t.api.post(`/messages/${ticketId}`, { body: "?" }, a.admin)).body).toMatchObject({ error: "ERR_CONNECTION_INACTIVE", data: { reason: "ERR_LICENSE_TIER_REQUIRED" } });
    expect((await rejection(receive(a.tenantId, conn.id, "k6"))).data).toMatchObject({ reason: "ERR_LICENSE_TIER_REQUIRED" });
    expect(ids(await t.api.get("/plugins/enabled", a.admin))).not.toContain("channel-fixture");

    await t.core.broker.call("tenants.setLicenseToken", { id: a.tenantId, token: signTestLicence({ tier: "PLUS", tenantId: a.tenantId }) });
    await t.core.broker.broadcast("licence.changed", { tenantId: a.tenantId });
    await waitFor(() => row(conn.id), (r) => r.status === "connected", "the connection back with the licence");
    expect(await row(idle.id)).toMatchObject({ status: "disconnected", inactiveReason: null });
    expect((await t.api.post(`/messages/${ticketId}`, { body: "Voltamos" }, a.admin)).body).toMatchObject({ status: "sent" });
  });
});
