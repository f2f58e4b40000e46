/**
 * The platform's global settings are the master admin's (spec §6 "Global settings … are for
 * the top-level admin"): read (secrets masked) and written by the master super only; a super
 * without the master flag and a tenant admin are refused both ways. The tenant's signature
 * rule reads back through GET /settings. Real MariaDB.
 */
import { startCore, createTenant, createSuper, PASSWORD, TestCore, TenantFixture, Res, uid } from "./helpers";

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

describe("global settings: master only (MariaDB)", () => {
  let t: TestCore;
  let f: TenantFixture;

  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("the master super reads the GIPHY key masked; a plain super and a tenant admin may neither read nor write it", async () => {
    const master = await createSuper(t);
    const email = `plain-super-${uid()}@t.test`;
    await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: "Plain Super", email, password: PASSWORD, profile: "super", isMaster: false });
    const plain = await t.api.login(email);

    const put = await t.api.put("/settings/global/giphy", { value: { apiKey: "secret-key", rating: "pg" } }, master);
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ key: "giphy", value: { apiKey: "********", rating: "pg" } });
    expect((await t.api.get("/settings/global", master)).body.giphy).toEqual({ apiKey: "********", rating: "pg" });
    // The masked key sent back keeps the stored one.
    expect((await t.api.put("/settings/global/giphy", { value: { apiKey: "********", rating: "g" } }, master)).status).toBe(200);
    expect(await t.core.broker.call("settings.getGlobal", { key: "giphy" })).toEqual({ apiKey: "secret-key", rating: "g" });

    for (const who of [plain, f.admin]) {
      expectError(await t.api.get("/settings/global", who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put("/settings/global/giphy", { value: { apiKey: "mine" } }, who), 403, "ERR_NO_PERMISSION");
    }
    expect(await t.core.broker.call("settings.getGlobal", { key: "giphy" })).toEqual({ apiKey: "secret-key", rating: "g" });
  });

  it("the platform's Typebot: http(s) addresses only, the API token masked and kept when sent back masked", async () => {
    const master = await createSuper(t);
    for (const [field, url] of [["builderUrl", "typebot local"], ["viewerUrl", "ftp://bot.example.com"], ["viewerUrl", "javascript:alert(1)"]]) {
      const r = await t.api.put("/settings/global/typebot", { value: { [field]: url } }, master);
      expectError(r, 400, "ERR_VALIDATION");
      expect({ field: r.body.data?.field, rule: r.body.data?.rule }).toEqual({ field, rule: "url" });
    }
    expect(await t.core.broker.call("settings.getGlobal", { key: "typebot" })).toBeNull();
    const value = { builderUrl: "https://builder.example.com", viewerUrl: "http://127.0.0.1:8080", apiToken: "tb-secret" };
    const put = await t.api.put("/settings/global/typebot", { value }, master);
    expect(put.body).toEqual({ key: "typebot", value: { ...value, apiToken: "********" } });
    expect((await t.api.get("/settings/global", master)).body.typebot).toEqual({ ...value, apiToken: "********" });
    expect((await t.api.put("/settings/global/typebot", { value: { ...value, viewerUrl: "https://viewer.example.com", apiToken: "********" } }, master)).status).toBe(200);
    expect(await t.core.broker.call("settings.getGlobal", { key: "typebot" })).toEqual({ ...value, viewerUrl: "https://viewer.example.com" });
    expectError(await t.api.put("/settings/global/typebot", { value: { viewerUrl: "https://mine.example.com" } }, f.admin), 403, "ERR_NO_PERMISSION");
  });

  it("the tenant's signature rule reads back through GET /settings", async () => {
    expect((await t.api.get("/settings", f.admin)).body.signature).toBeUndefined();
    expect((await t.api.put("/settings/signature", { value: "on" }, f.admin)).status).toBe(200);
    expect((await t.api.get("/settings", f.agent)).body.signature).toBe("on");
  });
});
