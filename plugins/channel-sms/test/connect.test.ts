/**
 * Connecting an SMS account on a real core (MariaDB, Redis, the plugin host loading this
 * plugin) against the local Comtele: a token Comtele accepts connects and shows its credits; a
 * refused one answers the "contact the reseller" code and leaves the connection disconnected
 * saying why; the plugin's routes answer only the connection's own tenant, and only tenants
 * with the plugin's tier.
 */
import { createTenant, startCore, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { FakeComtele } from "./fake-comtele";
import { accountSettings, connectSms, createSmsConnection, LOOPBACK_FAKES, WEBHOOK_SECRET } from "./helpers";

describe("SMS connections, real core", () => {
  let api: FakeComtele;
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;

  beforeAll(async () => {
    api = await FakeComtele.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    a = await createTenant(t, { tier: "PREMIUM" });
    b = await createTenant(t, { tier: "PREMIUM" });
  });
  afterAll(async () => {
    await t?.stop();
    await api?.close();
  });

  it("a token Comtele accepts connects, checked with the auth-key header, and the form reads the credits", async () => {
    const account = api.addAccount({ credits: 42 });
    const c = await connectSms(t, a, api, account, "SMS loja");
    expect(c.status).toBe("connected");
    expect(c.statusDetail).toBe("Credits: 42");
    const asked = api.requests.filter((r) => r.headers["auth-key"] === account.token);
    expect(asked.map((r) => `${r.method} ${r.path}`)).toContain("GET /api/v2/credits");

    const credits = await t.api.post("/sms/credits", { token: c.token }, a.admin);
    expect(credits.status).toBe(200);
    expect(credits.body).toMatchObject({ provider: "comtele", credits: 42 });
    account.credits = 7;
    expect((await t.api.post("/sms/credits", { token: c.token }, a.admin)).body.credits).toBe(7);

    // The callback addresses carry the connection's token and its secret, on the platform's public URL.
    const hooks = await t.api.post("/sms/webhooks", { token: c.token }, a.admin);
    expect(hooks.body).toEqual({
      status: `${t.config.publicUrl}/api/sms/${c.token}/${WEBHOOK_SECRET}/status`,
      inbound: `${t.config.publicUrl}/api/sms/${c.token}/${WEBHOOK_SECRET}/inbound`,
    });
  });

  it("a token Comtele refuses answers ERR_SMS_TOKEN_REFUSED (contact the reseller) and the connection says so", async () => {
    const account = api.addAccount();
    const c = await createSmsConnection(t, a, api, { ...account, token: "00000000-0000-0000-0000-000000000000" }, "SMS token errado");
    const on = await t.api.post(`/connections/${c.id}/connect`, {}, a.admin);
    expect(on.status).toBe(400);
    expect(on.body.error).toBe("ERR_SMS_TOKEN_REFUSED");
    expect(on.body.title).toBe("Token de SMS inválido");
    expect(on.body.message).toMatch(/revenda/);
    const view = await t.api.get(`/connections/${c.id}`, a.admin);
    expect(view.body.status).toBe("disconnected");
    expect(view.body.statusDetail).toMatch(/ERR_SMS_TOKEN_REFUSED/);
    // In the admin's language (en).
    const en = await t.api.post(`/connections/${c.id}/connect`, {}, a.admin, { "accept-language": "en" });
    expect(en.body.message).toBe("The SMS provider did not accept this connection's token. Please contact your reseller.");

    // The form's "test" says the same without saving anything.
    const tried = await t.api.post("/connections/test", { type: "channel-sms", settings: accountSettings(api, { ...account, token: "11111111-2222-3333-4444-555555555555" }) }, a.admin);
    expect(tried.status).toBe(200);
    expect(tried.body).toMatchObject({ ok: false });
    expect(tried.body.detail).toMatch(/reseller/);
    const good = await t.api.post("/connections/test", { type: "channel-sms", settings: accountSettings(api, account) }, a.admin);
    expect(good.body).toMatchObject({ ok: true, detail: "The provider accepted the token: 100 credit(s)" });
  });

  it("the SMS account's rules: token required, password of at least 6, a known taxpayer type", async () => {
    const account = api.addAccount();
    const bad = async (settings: Record<string, unknown>) => (await t.api.post("/connections", { name: `SMS ${Math.random()}`, type: "channel-sms", settings }, a.admin)).body;
    expect(await bad(accountSettings(api, account, { token: undefined }))).toMatchObject({ error: "ERR_VALIDATION", data: { field: "settings.token" } });
    expect(await bad(accountSettings(api, account, { password: "12345" }))).toMatchObject({ error: "ERR_VALIDATION", data: { field: "settings.password" } });
    expect(await bad(accountSettings(api, account, { taxpayerType: "XX" }))).toMatchObject({ error: "ERR_VALIDATION", data: { field: "settings.taxpayerType" } });
    expect(await bad(accountSettings(api, account, { email: "ana" }))).toMatchObject({ error: "ERR_VALIDATION", data: { field: "settings.email" } });
  });

  it("another tenant's connection is not found on the plugin's routes, and its callbacks need their own secret", async () => {
    const account = api.addAccount({ credits: 5 });
    const mine = await connectSms(t, a, api, account, "SMS de A");
    for (const path of ["/sms/credits", "/sms/webhooks"]) {
      const r = await t.api.post(path, { token: mine.token }, b.admin);
      expect({ path, status: r.status, error: r.body.error }).toEqual({ path, status: 404, error: "ERR_CONNECTION_NOT_FOUND" });
      expect((await t.api.post(path, { token: "no-such-connection-token" }, a.admin)).status).toBe(404);
      // Agents do not read the account.
      expect((await t.api.post(path, { token: mine.token }, a.agent)).status).toBe(403);
    }
    // B's own connection with A's secret in the path: refused.
    const other = await connectSms(t, b, api, api.addAccount(), "SMS de B");
    const forged = await api.post(`${t.url}/api/sms/${other.token}/${"x".repeat(WEBHOOK_SECRET.length)}/inbound`, { Sender: "5511900001111", ReceivedContent: "oi" });
    expect(forged.status).toBe(401);
  });

  it("callbacks are rate-limited per connection (and per address): over the limit answers 429", async () => {
    const svc = t.core.broker.getLocalService({ name: "channel-sms", version: 1 }) as unknown as { settings: { webhookLimits: Record<string, number> } };
    const limits = svc.settings.webhookLimits;
    svc.settings.webhookLimits = { ...limits, perConnection: 3 };
    try {
      const account = api.addAccount();
      const c = await connectSms(t, a, api, account, "SMS limitado");
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await api.post(account.callbacks.status!, { RequestUniqueId: `none-${i}`, DlrStatus: "DELIVRD" })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      // Wrong secrets count too: guessing is limited.
      expect((await api.post(`${t.url}/api/sms/${c.token}/${"y".repeat(40)}/status`, {})).status).toBe(429);
    } finally {
      svc.settings.webhookLimits = limits;
    }
  });

  it("Comtele out of reach: the connection waits in timeout, the test says why, a send answers ERR_SMS_PROVIDER_UNAVAILABLE", async () => {
    const account = api.addAccount();
    const c = await createSmsConnection(t, a, api, account, "SMS fora do ar", { apiUrl: "http://127.0.0.1:9/api/v2" });
    const on = await t.api.post(`/connections/${c.id}/connect`, {}, a.admin);
    expect(on.status).toBe(200);
    expect(on.body.status).toBe("timeout");
    expect(on.body.statusDetail).toMatch(/could not be reached/);
    const tried = await t.api.post("/connections/test", { type: "channel-sms", settings: accountSettings(api, account, { apiUrl: "http://127.0.0.1:9/api/v2" }) }, a.admin);
    expect(tried.body.ok).toBe(false);
    await expect(
      t.core.broker.call("v1.channel-sms.send", { tenantId: a.tenantId, connectionId: c.id, to: { externalId: "5511977776666" }, message: { kind: "text", body: "oi" }, messageId: 600_000_001 }),
    ).rejects.toMatchObject({ type: "ERR_SMS_PROVIDER_UNAVAILABLE" });
    expect((await t.api.post("/sms/credits", { token: c.token }, a.admin)).body.error).toBe("ERR_SMS_PROVIDER_UNAVAILABLE");
  });

  it("a tenant below the plugin's tier (PREMIUM) cannot use it", async () => {
    const free = await createTenant(t, { tier: "PLUS" });
    const r = await t.api.post("/connections", { name: "SMS", type: "channel-sms", settings: accountSettings(api, api.addAccount()) }, free.admin);
    expect(r.status).toBe(403);
    expect(r.body.error).toBe("ERR_LICENSE_TIER_REQUIRED");
    expect((await t.api.post("/sms/credits", { token: "whatever-token-123" }, free.admin)).body.error).toBe("ERR_LICENSE_TIER_REQUIRED");
  });
});
