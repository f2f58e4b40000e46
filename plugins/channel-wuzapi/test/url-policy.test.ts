/**
 * The outbound URL policy on a URL a tenant stores: the wuzapi server's address (the manifest
 * marks `apiUrl` outbound). An internal address is refused with ERR_URL_NOT_ALLOWED where it is
 * stored, updated or tested; what the platform's allow-list names (here 127.0.0.1, where the
 * fake wuzapi listens) is accepted and reached; and the plugin refuses an internal address at
 * connect time too, for a URL stored before the rule (or behind the core's back).
 */
import { startCore, createTenant, TestCore, TenantFixture, Res } from "@openatende/core/testkit";
import { FakeWuzapi } from "./fake-wuzapi";
import { connectionOf, createWuzapiConnection, HMAC_KEY, statusBecomes } from "./helpers";

const refused = (r: Res, field = "settings.apiUrl") => {
  expect(r.status).toBe(400);
  expect(r.body).toMatchObject({ error: "ERR_URL_NOT_ALLOWED", data: { field } });
};

describe("wuzapi's server URL under the outbound URL policy", () => {
  let api: FakeWuzapi;
  let t: TestCore;
  let f: TenantFixture;

  beforeAll(async () => {
    api = await FakeWuzapi.start();
    t = await startCore({ env: { OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
    f = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
    await api?.close();
  });

  const settings = (apiUrl: string) => ({ apiUrl, sessionToken: "session-token-1", hmacKey: HMAC_KEY, webhookFormat: "json" });
  const create = (apiUrl: string, name = `WhatsApp ${apiUrl}`) => t.api.post("/connections", { name, type: "channel-wuzapi", queueId: f.queueIds[0], settings: settings(apiUrl) }, f.admin);

  it.each([
    "http://127.0.0.2:8080",
    "http://10.1.2.3:8080",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]:8080",
    "http://[::ffff:10.0.0.1]",
    "http://0x0a000001",
    "http://localhost:8080",
    "http://user:pass@93.184.216.34",
  ])("refuses %s when a connection is created", async (url) => {
    refused(await create(url));
  });

  it("refuses it on update and on test too, and keeps the stored URL", async () => {
    const made = await createWuzapiConnection(t, f, api, { name: "WhatsApp permitido" });
    refused(await t.api.put(`/connections/${made.id}`, { settings: { apiUrl: "http://192.168.0.10:8080" } }, f.admin));
    expect((await connectionOf(t, f.admin, made.id)).settings.apiUrl).toBe(api.url);
    refused(await t.api.post("/connections/test", { type: "channel-wuzapi", settings: settings("http://172.16.0.1") }, f.admin));
  });

  it("accepts and reaches what the platform allows (the fake on 127.0.0.1)", async () => {
    const user = api.addUser({ linked: true });
    const made = await createWuzapiConnection(t, f, api, { name: "WhatsApp local", user });
    expect((await t.api.post(`/connections/${made.id}/connect`, {}, f.admin)).status).toBe(200);
    await statusBecomes(t, f.admin, made.id, "connected");
    expect(api.requests.some((r) => r.token === user.token)).toBe(true);
  });

  it("the plugin refuses an internal address at connect time too (its status says why)", async () => {
    const made = await createWuzapiConnection(t, f, api, { name: "WhatsApp antigo" });
    // A URL stored before the policy existed: written to the database directly.
    const row = await t.core.deps.sequelize.models.Connection.findByPk(made.id);
    await row!.update({ settings: { ...(row!.get("settings") as object), apiUrl: "http://127.0.0.3:8080" } });
    expect((await t.api.post(`/connections/${made.id}/connect`, {}, f.admin)).status).toBe(200);
    const c = await statusBecomes(t, f.admin, made.id, "disconnected");
    expect(c.statusDetail).toMatch(/not allowed/);
  });
});
