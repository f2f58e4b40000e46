/**
 * The Typebot plugin's routes in a real core: admins of PLUS tenants only (a FREE tenant gets
 * the licence code naming PLUS, agents and supervisors ERR_NO_PERMISSION); the settings keep
 * their token write-only and their URLs under the outbound URL policy; the platform's global
 * Typebot URLs are the defaults; the test button tries the saved settings against Typebot; a
 * connection's section binds and unbinds the connection; another tenant's connection or queue
 * is its not-found code on every route that takes one.
 */
import { QueryTypes } from "sequelize";
import { createTenant, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { startFakeTypebot, type FakeTypebot } from "./fake-typebot";
import { allowPlugin, expectError, ok, webchat } from "./support";

jest.setTimeout(180_000);

const TOKEN = "tb-route-token-9876";
let t: TestCore;
let fake: FakeTypebot;
let sup: Auth;
let a: TenantFixture;
let b: TenantFixture;
let free: TenantFixture;
let connA: number;
let connB: number;

const body = (patch: Record<string, unknown> = {}) => ({ viewerUrl: fake.url, builderUrl: "https://builder.exemplo.com.br/", apiGeneration: "latest", sessionTimeoutMinutes: 15, queueId: a.queueIds[0], ...patch });
const bindings = (tenantId: number) => t.core.sequelize.query<{ scope: string; targetId: number; pluginId: string; ref: string }>("SELECT scope, targetId, pluginId, ref FROM chatbot_bindings WHERE tenantId = ?", { replacements: [tenantId], type: QueryTypes.SELECT });

beforeAll(async () => {
  fake = await startFakeTypebot({ token: TOKEN });
  t = await startCore({ env: { NAMESPACE: `typebot-routes-${uid()}`, OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
  [a, b, free] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" }), createTenant(t)]);
  sup = await allowPlugin(t, [a, b, free]);
  connA = (await webchat(t, a)).id;
  connB = (await webchat(t, b)).id;
});

afterAll(async () => {
  await t?.stop();
  await fake?.stop();
});

describe("the Typebot plugin's routes", () => {
  it("refuses a FREE tenant with the licence code naming PLUS", async () => {
    for (const r of [await t.api.get("/typebot/settings", free.admin), await t.api.put("/typebot/settings", body(), free.admin), await t.api.get(`/typebot/connection?connectionId=${connA}`, free.admin)]) {
      expect(r.body.error).toBe("ERR_LICENSE_TIER_REQUIRED");
      expect(r.body.data).toMatchObject({ requiredTier: "PLUS", currentTier: "FREE" });
    }
  });

  it("is for admins only", async () => {
    for (const who of [a.agent, a.supervisor]) {
      expectError(await t.api.get("/typebot/settings", who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put("/typebot/settings", body(), who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.post("/typebot/settings/test", { publicId: "atendimento" }, who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.get(`/typebot/connection?connectionId=${connA}`, who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put("/typebot/connection", { connectionId: connA, enabled: false }, who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.get("/typebot/failures", who), 403, "ERR_NO_PERMISSION");
    }
  });

  it("uses the platform's global Typebot URLs as the defaults, never its token", async () => {
    const blank = await ok(t.api.get("/typebot/settings", a.admin));
    expect(blank).toMatchObject({ viewerUrl: null, builderUrl: null, apiGeneration: "latest", sessionTimeoutMinutes: 0, queueId: null, hasToken: false, defaults: { viewerUrl: null, builderUrl: null } });
    await ok(t.api.put("/settings/global/typebot", { value: { builderUrl: "https://builder.plataforma.com", viewerUrl: fake.url, apiToken: "global-secret" } }, sup));
    const defaults = await ok(t.api.get("/typebot/settings", a.admin));
    expect(defaults).toMatchObject({ viewerUrl: null, defaults: { viewerUrl: fake.url, builderUrl: "https://builder.plataforma.com" }, effective: { viewerUrl: fake.url, builderUrl: "https://builder.plataforma.com" } });
    expect(JSON.stringify(defaults)).not.toContain("global-secret");
    // The platform's viewer is enough to test a bot.
    expect(await ok(t.api.post("/typebot/settings/test", { publicId: "atendimento" }, a.admin))).toMatchObject({ ok: true, viewerUrl: fake.url });
  });

  it("saves the settings, keeps the token write-only, and lets it be kept or removed", async () => {
    const saved = await ok(t.api.put("/typebot/settings", body({ apiToken: TOKEN }), a.admin));
    expect(saved).toMatchObject({ viewerUrl: fake.url, builderUrl: "https://builder.exemplo.com.br", sessionTimeoutMinutes: 15, queueId: a.queueIds[0], hasToken: true, tokenHint: "••••9876" });
    expect(JSON.stringify(await ok(t.api.get("/typebot/settings", a.admin)))).not.toContain(TOKEN);
    // Absent: kept (the test's request carries it).
    await ok(t.api.put("/typebot/settings", body({ apiGeneration: "legacy" }), a.admin));
    expect((await ok(t.api.get("/typebot/settings", a.admin))).hasToken).toBe(true);
    const n = fake.requests.length;
    expect(await ok(t.api.post("/typebot/settings/test", { publicId: "atendimento" }, a.admin))).toMatchObject({ ok: true, generation: "legacy", sessionId: expect.any(String) });
    expect(fake.requests.slice(n)).toEqual([expect.objectContaining({ path: "/api/v1/sendMessage", authorization: `Bearer ${TOKEN}`, body: expect.objectContaining({ startParams: expect.objectContaining({ publicId: "atendimento", isOnlyRegistering: true }) }) })]);
    // Another tenant sees nothing of it.
    expect(await ok(t.api.get("/typebot/settings", b.admin))).toMatchObject({ viewerUrl: null, hasToken: false, queueId: null });
    // "": removed.
    await ok(t.api.put("/typebot/settings", body({ apiToken: "" }), a.admin));
    expect((await ok(t.api.get("/typebot/settings", a.admin))).hasToken).toBe(false);
  });

  it("answers the test button with Typebot's own failure, and refuses an unconfigured tenant", async () => {
    await ok(t.api.put("/typebot/settings", body(), a.admin));
    expect(await ok(t.api.post("/typebot/settings/test", { publicId: "nao-existe" }, a.admin))).toMatchObject({ ok: false, kind: "http", status: 404, message: "Typebot not found" });
    await ok(t.api.put("/settings/global/typebot", { value: {} }, sup));
    expectError(await t.api.post("/typebot/settings/test", { publicId: "atendimento" }, b.admin), 400, "ERR_TYPEBOT_NOT_CONFIGURED");
    expectError(await t.api.post("/typebot/settings/test", {}, a.admin), 400, "ERR_VALIDATION");
  });

  it("keeps the URLs under the outbound policy and checks every field", async () => {
    const r = await t.api.put("/typebot/settings", body({ viewerUrl: "http://10.1.2.3/typebot" }), a.admin);
    expectError(r, 400, "ERR_URL_NOT_ALLOWED");
    expect(r.body.data).toMatchObject({ field: "viewerUrl" });
    expectError(await t.api.put("/typebot/settings", body({ viewerUrl: "http://169.254.169.254/" }), a.admin), 400, "ERR_URL_NOT_ALLOWED");
    // The builder is only opened by the admin's browser: its shape is checked, not where it points.
    expectError(await t.api.put("/typebot/settings", body({ builderUrl: "javascript:alert(1)" }), a.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.put("/typebot/settings", body({ viewerUrl: "ftp://typebot.exemplo.com" }), a.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.put("/typebot/settings", body({ apiGeneration: "v3" }), a.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.put("/typebot/settings", body({ sessionTimeoutMinutes: -1 }), a.admin), 400, "ERR_VALIDATION");
    expect((await ok(t.api.get("/typebot/settings", a.admin))).viewerUrl).toBe(fake.url);
  });

  it("binds a connection when its section is enabled and unbinds it when disabled", async () => {
    expect(await ok(t.api.get(`/typebot/connection?connectionId=${connA}`, a.admin))).toEqual({ connectionId: connA, enabled: false, publicId: "", restartKeyword: "", invalidMessage: "" });
    expectError(await t.api.put("/typebot/connection", { connectionId: connA, enabled: true, publicId: "" }, a.admin), 400, "ERR_VALIDATION");
    const on = { connectionId: connA, enabled: true, publicId: "atendimento", restartKeyword: "#menu", invalidMessage: "Não entendi." };
    expect(await ok(t.api.put("/typebot/connection", on, a.admin))).toEqual(on);
    expect(await ok(t.api.get(`/typebot/connection?connectionId=${connA}`, a.admin))).toEqual(on);
    expect(await bindings(a.tenantId)).toEqual([{ scope: "connection", targetId: connA, pluginId: "chatbot-typebot", ref: String(connA) }]);
    await ok(t.api.put("/typebot/connection", { ...on, enabled: false }, a.admin));
    expect(await bindings(a.tenantId)).toEqual([]);
    expect(await ok(t.api.get(`/typebot/connection?connectionId=${connA}`, a.admin))).toMatchObject({ enabled: false, publicId: "atendimento" });
    // Another bot bound to the connection since (the Chatbot section) switches this one off.
    await ok(t.api.put("/typebot/connection", on, a.admin));
    await t.core.broker.call("platform.chatbots.bind", { tenantId: a.tenantId, scope: "connection", targetId: connA, ref: "7" }, { meta: { $caller: { plugin: "chatbot-flows" } } });
    expect(await bindings(a.tenantId)).toEqual([{ scope: "connection", targetId: connA, pluginId: "chatbot-flows", ref: "7" }]);
    expect(await ok(t.api.get(`/typebot/connection?connectionId=${connA}`, a.admin))).toMatchObject({ enabled: false, publicId: "atendimento" });
  });

  it("refuses enabling a connection while the tenant has no Typebot", async () => {
    expectError(await t.api.put("/typebot/connection", { connectionId: connB, enabled: true, publicId: "atendimento" }, b.admin), 400, "ERR_TYPEBOT_NOT_CONFIGURED");
    expect(await bindings(b.tenantId)).toEqual([]);
  });

  it("answers another tenant's connection or queue with its not-found code", async () => {
    expectError(await t.api.get(`/typebot/connection?connectionId=${connB}`, a.admin), 404, "ERR_CONNECTION_NOT_FOUND");
    expectError(await t.api.put("/typebot/connection", { connectionId: connB, enabled: false }, a.admin), 404, "ERR_CONNECTION_NOT_FOUND");
    expectError(await t.api.put("/typebot/connection", { connectionId: connB, enabled: true, publicId: "atendimento" }, a.admin), 404, "ERR_CONNECTION_NOT_FOUND");
    expectError(await t.api.get("/typebot/connection?connectionId=999999", a.admin), 404, "ERR_CONNECTION_NOT_FOUND");
    expectError(await t.api.put("/typebot/settings", body({ queueId: b.queueIds[0] }), a.admin), 404, "ERR_QUEUE_NOT_FOUND");
    expect(await bindings(b.tenantId)).toEqual([]);
    expect((await ok(t.api.get(`/typebot/connection?connectionId=${connB}`, b.admin))).enabled).toBe(false);
    expect(await ok(t.api.get("/typebot/failures", b.admin))).toEqual([]);
  });
});
