/**
 * Licences over HTTP (spec §1 tiers, §6 licence gating, §7 settings/licence calls, §8 codes):
 * the tier a tenant answers, applying and refusing tokens, the blocklist, the public detail,
 * and the `tier` action option enforced by the licence middleware.
 */
import type { ServiceSchema } from "moleculer";
import { startCore, createTenant, createSuper, signTestLicence, uid, TestCore, TenantFixture, Auth, Res } from "./helpers";
import { VERSION } from "../src/version";

/** A valid CPF that is not any fixture tenant's document (they use CNPJ 11222333000181). */
const OTHER_CPF = "52998224725";
const PT = { "accept-language": "pt-BR" };

function expectError(r: Res, status: number, code: string) {
  // One assertion so a failure shows the whole body.
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
  expect(typeof r.body.title).toBe("string");
  expect(r.body.data).toEqual(expect.any(Object));
}

async function storedToken(t: TestCore, tenantId: number): Promise<string | null> {
  const row = (await t.core.broker.call("tenants.getInternal", { id: tenantId })) as { licenseToken: string | null };
  return row.licenseToken;
}

async function tierOf(t: TestCore, who: Auth): Promise<string> {
  const r = await t.api.get("/auth/license-info", who);
  expect(r.status).toBe(200);
  return r.body.licenseType;
}

describe("licences (mariadb)", () => {
  let t: TestCore;
  let sup: Auth & { email: string };
  let free: TenantFixture;
  let plus: TenantFixture;

  beforeAll(async () => {
    t = await startCore({ dialect: "mariadb" });
    sup = await createSuper(t);
    free = await createTenant(t);
    plus = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  describe("GET /auth/license-info and GET /settings/check-paid-system", () => {
    it("answers FREE without a licence", async () => {
      for (const who of [free.admin, free.agent]) {
        const r = await t.api.get("/auth/license-info", who);
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ licenseType: "FREE", tierRank: 0, status: "none", expiryDate: null });
      }
      const p = await t.api.get("/settings/check-paid-system", free.agent);
      expect(p.status).toBe(200);
      expect(p.body).toMatchObject({ isPaidSystem: false });
      expect(typeof p.body.message).toBe("string");
    });

    it("answers the tier of a valid licence", async () => {
      const r = await t.api.get("/auth/license-info", plus.agent);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ licenseType: "PLUS", tierRank: 2, status: "valid" });
      expect(new Date(r.body.expiryDate).getTime()).toBeGreaterThan(Date.now());
      const p = await t.api.get("/settings/check-paid-system", plus.admin);
      expect(p.status).toBe(200);
      expect(p.body).toMatchObject({ isPaidSystem: true });
    });

    it("needs a session", async () => {
      expectError(await t.api.get("/auth/license-info"), 401, "ERR_SESSION_REQUIRED");
      expectError(await t.api.get("/settings/check-paid-system"), 401, "ERR_SESSION_REQUIRED");
    });

    it("a stored licence that has expired counts as FREE and says why", async () => {
      const f = await createTenant(t);
      await t.core.broker.call("tenants.setLicenseToken", { id: f.tenantId, token: signTestLicence({ tier: "PREMIUM", tenantId: f.tenantId, days: -1 }) });
      await t.core.broker.broadcast("licence.changed", { tenantId: f.tenantId });
      const r = await t.api.get("/auth/license-info", f.admin);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ licenseType: "FREE", status: "ERR_LICENSE_EXPIRED", code: "ERR_LICENSE_EXPIRED" });
      const p = await t.api.get("/settings/check-paid-system", f.admin);
      expect(p.body.isPaidSystem).toBe(false);
    });
  });

  describe("PUT /tenants/:id/license", () => {
    it("a valid token applied by the super level changes the tier at once", async () => {
      const f = await createTenant(t);
      // Warm the tenant's cached answer first: the change must not wait for the 5-minute cache.
      expect(await tierOf(t, f.admin)).toBe("FREE");
      const token = signTestLicence({ tier: "PREMIUM", tenantId: f.tenantId });
      const r = await t.api.put(`/tenants/${f.tenantId}/license`, { token }, sup);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ tenantId: f.tenantId, licenseType: "PREMIUM", status: "valid" });
      expect(await storedToken(t, f.tenantId)).toBe(token);
      expect(await tierOf(t, f.admin)).toBe("PREMIUM");
      expect((await t.api.get("/settings/check-paid-system", f.agent)).body.isPaidSystem).toBe(true);
      const tenant = await t.api.get(`/tenants/${f.tenantId}`, sup);
      expect(tenant.status).toBe(200);
      expect(tenant.body.hasLicense).toBe(true);
      expect(JSON.stringify(tenant.body)).not.toContain(token); // the token stays inside
    });

    it("accepts a token issued without a tenant id (document and domain still checked)", async () => {
      const f = await createTenant(t);
      const r = await t.api.put(`/tenants/${f.tenantId}/license`, { token: signTestLicence({ tier: "BASIC" }) }, sup);
      expect(r.status).toBe(200);
      expect(await tierOf(t, f.admin)).toBe("BASIC");
    });

    it("removing the licence brings the tenant back to FREE at once", async () => {
      const f = await createTenant(t, { tier: "PLUS" });
      expect(await tierOf(t, f.admin)).toBe("PLUS");
      const r = await t.api.del(`/tenants/${f.tenantId}/license`, sup);
      expect(r.status).toBe(200);
      expect(await storedToken(t, f.tenantId)).toBeNull();
      expect(await tierOf(t, f.admin)).toBe("FREE");
    });

    describe("refuses invalid tokens with their own code and stores nothing", () => {
      const cases: Array<[string, (f: TenantFixture) => string, number, string]> = [
        ["garbage", () => "this-is-not-a-licence-token", 400, "ERR_LICENSE_INVALID"],
        ["short garbage", () => "x", 400, "ERR_LICENSE_INVALID"],
        ["blank", () => "   ", 400, "ERR_LICENSE_INVALID"],
        ["a token whose payload was swapped (signature no longer matches)", (f) => {
          const [prefix, , basicSignature] = signTestLicence({ tier: "BASIC", tenantId: f.tenantId }).split(".");
          const premiumPayload = signTestLicence({ tier: "PREMIUM", tenantId: f.tenantId }).split(".")[1];
          return `${prefix}.${premiumPayload}.${basicSignature}`;
        }, 400, "ERR_LICENSE_INVALID"],
        ["expired", (f) => signTestLicence({ tier: "PREMIUM", tenantId: f.tenantId, days: -1 }), 402, "ERR_LICENSE_EXPIRED"],
        ["for another domain", (f) => signTestLicence({ tier: "PREMIUM", tenantId: f.tenantId, domain: "other.example" }), 400, "ERR_LICENSE_WRONG_DOMAIN"],
        ["for another document (a valid CPF)", (f) => signTestLicence({ tier: "PREMIUM", tenantId: f.tenantId, document: OTHER_CPF }), 400, "ERR_LICENSE_WRONG_CODE"],
        ["issued for another tenant", (f) => signTestLicence({ tier: "PREMIUM", tenantId: f.tenantId + 1000 }), 400, "ERR_LICENSE_WRONG_CODE"],
      ];

      it.each(cases)("%s", async (_name, make, status, code) => {
        // A PLUS tenant, so "unchanged" is distinguishable from "reset to FREE".
        const f = await createTenant(t, { tier: "PLUS" });
        const before = await storedToken(t, f.tenantId);
        expect(before).toBeTruthy();
        expect(await tierOf(t, f.admin)).toBe("PLUS");
        const r = await t.api.put(`/tenants/${f.tenantId}/license`, { token: make(f) }, sup);
        expectError(r, status, code);
        expect(await storedToken(t, f.tenantId)).toBe(before);
        expect(await tierOf(t, f.admin)).toBe("PLUS");
        // Also after the cache is dropped: the stored licence is still the PLUS one.
        await t.core.broker.broadcast("licence.changed", { tenantId: f.tenantId });
        expect(await tierOf(t, f.admin)).toBe("PLUS");
      });

      it("a blocked licence id (blocked by the master super)", async () => {
        const f = await createTenant(t, { tier: "PLUS" });
        const before = await storedToken(t, f.tenantId);
        const lid = `blocked-${uid()}`;
        const b = await t.api.post("/licence/blocklist", { lid }, sup);
        expect(b.status).toBe(200);
        expect(b.body.blocked).toContain(lid);
        const r = await t.api.put(`/tenants/${f.tenantId}/license`, { token: signTestLicence({ tier: "PREMIUM", tenantId: f.tenantId, lid }) }, sup);
        expectError(r, 403, "ERR_LICENSE_BLOCKED");
        expect(await storedToken(t, f.tenantId)).toBe(before);
        expect(await tierOf(t, f.admin)).toBe("PLUS");
      });
    });

    it("only the super level may apply a licence", async () => {
      const f = await createTenant(t);
      const token = signTestLicence({ tier: "PREMIUM", tenantId: f.tenantId });
      expectError(await t.api.put(`/tenants/${f.tenantId}/license`, { token }, f.admin), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put(`/tenants/${f.tenantId}/license`, { token }), 401, "ERR_SESSION_REQUIRED");
      expect(await storedToken(t, f.tenantId)).toBeNull();
      expect(await tierOf(t, f.admin)).toBe("FREE");
    });

    it("an unknown tenant answers 404", async () => {
      const r = await t.api.put(`/tenants/987654/license`, { token: signTestLicence({ tier: "PLUS" }) }, sup);
      expectError(r, 404, "ERR_TENANT_NOT_FOUND");
    });

    it("a missing token is a validation error naming the field", async () => {
      const r = await t.api.put(`/tenants/${free.tenantId}/license`, {}, sup);
      expectError(r, 400, "ERR_VALIDATION");
      expect(r.body.data.field).toBe("token");
    });
  });

  describe("POST /licence/blocklist", () => {
    it("blocking the lid of an applied licence makes the tenant FREE", async () => {
      const f = await createTenant(t);
      const other = await createTenant(t, { tier: "PLUS" });
      const lid = `applied-${uid()}`;
      const put = await t.api.put(`/tenants/${f.tenantId}/license`, { token: signTestLicence({ tier: "PREMIUM", tenantId: f.tenantId, lid }) }, sup);
      expect(put.status).toBe(200);
      expect(await tierOf(t, f.admin)).toBe("PREMIUM");
      expect(await tierOf(t, other.admin)).toBe("PLUS");

      const b = await t.api.post("/licence/blocklist", { lid }, sup);
      expect(b.status).toBe(200);

      const info = await t.api.get("/auth/license-info", f.admin);
      expect(info.status).toBe(200);
      expect(info.body).toMatchObject({ licenseType: "FREE", status: "ERR_LICENSE_BLOCKED" });
      expect((await t.api.get("/settings/check-paid-system", f.admin)).body.isPaidSystem).toBe(false);
      // Other licences are untouched.
      expect(await tierOf(t, other.admin)).toBe("PLUS");
    });

    it("is for the master super only", async () => {
      const lid = `nope-${uid()}`;
      expectError(await t.api.post("/licence/blocklist", { lid }, free.admin), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.post("/licence/blocklist", { lid }), 401, "ERR_SESSION_REQUIRED");
      const list = (await t.core.broker.call("settings.getGlobal", { key: "licenceBlocklist" })) as string[] | null;
      expect(list ?? []).not.toContain(lid);
    });
  });

  describe("GET /version/ and GET /license-detail-public/", () => {
    it("/version/ needs a token and returns the version", async () => {
      expectError(await t.api.get("/version/"), 401, "ERR_SESSION_REQUIRED");
      expectError(await t.api.get("/version/", null, { authorization: "Bearer not-a-token", "x-session-id": "x" }), 401, "ERR_TOKEN_INVALID");
      const r = await t.api.get("/version/", free.agent);
      expect(r.status).toBe(200);
      expect(r.body.version).toBe(VERSION);
      expect(r.body.cacheMs).toBe(43_200_000);
    });

    it("/license-detail-public/ works without a token", async () => {
      const r = await t.api.get("/license-detail-public/");
      expect(r.status).toBe(200);
      expect(r.body.licenseDetail).toEqual(expect.objectContaining({ license_type: "FREE", license_expiry: null }));
    });

    it("the installation licence (PUT /settings/global/licence) is verified before it is stored", async () => {
      const refused: Array<[string, number, string]> = [
        ["not-a-licence", 400, "ERR_LICENSE_INVALID"],
        [signTestLicence({ tier: "PREMIUM", days: -1 }), 402, "ERR_LICENSE_EXPIRED"],
        [signTestLicence({ tier: "PREMIUM", domain: "other.example" }), 400, "ERR_LICENSE_WRONG_DOMAIN"],
        [signTestLicence({ tier: "PREMIUM", tenantId: free.tenantId }), 400, "ERR_LICENSE_WRONG_CODE"],
      ];
      for (const [token, status, code] of refused) {
        expectError(await t.api.put("/settings/global/licence", { value: { token } }, sup), status, code);
        expect(await t.core.broker.call("settings.getGlobal", { key: "licence" })).toBeNull();
      }
      expect((await t.api.get("/license-detail-public/")).body.licenseDetail.license_type).toBe("FREE");

      const token = signTestLicence({ tier: "PREMIUM", days: 10 });
      try {
        const put = await t.api.put("/settings/global/licence", { value: { token } }, sup);
        expect(put.status).toBe(200);
        expect(put.body.value.token).toBe("********");
        const r = await t.api.get("/license-detail-public/");
        expect(r.status).toBe(200);
        expect(r.body.licenseDetail).toMatchObject({ license_type: "PREMIUM", status: "valid" });
        expect(new Date(r.body.licenseDetail.license_expiry).getTime()).toBeGreaterThan(Date.now() + 9 * 86400_000);
        // Sending the masked value back keeps the stored licence.
        expect((await t.api.put("/settings/global/licence", { value: { token: "********" } }, sup)).status).toBe(200);
        expect(await t.core.broker.call("settings.getGlobal", { key: "licence" })).toEqual({ token });
        // An empty token clears it.
        expect((await t.api.put("/settings/global/licence", { value: { token: "" } }, sup)).status).toBe(200);
        expect((await t.api.get("/license-detail-public/")).body.licenseDetail.license_type).toBe("FREE");
      } finally {
        await t.core.broker.call("settings.setGlobal", { key: "licence", value: {} });
      }
    });
  });
});

/** An extra service whose actions carry the `tier` option, the way feature plugins declare it. */
const probe: ServiceSchema = {
  name: "kanbanprobe",
  settings: { rest: "/" },
  actions: {
    plus: { rest: "GET /kanban-probe", tier: "PLUS", handler: () => ({ ok: true }) },
    premium: { rest: "GET /kanban-probe/premium", tier: "PREMIUM", handler: () => ({ ok: true, premium: true }) },
    basic: { rest: "GET /kanban-probe/basic", tier: "BASIC", handler: () => ({ ok: true, basic: true }) },
    plusAdmin: { rest: "POST /kanban-probe/admin", tier: "PLUS", access: "admin", handler: () => ({ ok: true, admin: true }) },
    free: { rest: "GET /kanban-probe/free", handler: () => ({ ok: true, free: true }) },
  },
};

describe("the `tier` action option (mariadb)", () => {
  let t: TestCore;
  let sup: Auth;
  let free: TenantFixture;
  let plus: TenantFixture;

  beforeAll(async () => {
    t = await startCore({ dialect: "mariadb", services: [probe] });
    sup = await createSuper(t);
    free = await createTenant(t);
    plus = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("refuses a FREE tenant with ERR_LICENSE_TIER_REQUIRED naming the tier (pt-BR)", async () => {
    const r = await t.api.get("/kanban-probe", free.admin, PT);
    expectError(r, 403, "ERR_LICENSE_TIER_REQUIRED");
    expect(r.body.data).toMatchObject({ requiredTier: "PLUS", currentTier: "FREE" });
    expect(r.body.message).toContain("PLUS");
    expect(r.body.message).toMatch(/licença/);
    expect(r.body.title).toBe("Recurso não incluído no plano");
    // The same for BASIC, and an ungated action of the same service still answers.
    const basic = await t.api.get("/kanban-probe/basic", free.agent);
    expectError(basic, 403, "ERR_LICENSE_TIER_REQUIRED");
    expect(basic.body.data.requiredTier).toBe("BASIC");
    const ungated = await t.api.get("/kanban-probe/free", free.agent);
    expect(ungated.status).toBe(200);
    expect(ungated.body).toEqual({ ok: true, free: true });
  });

  it("the message follows the caller's language", async () => {
    const r = await t.api.get("/kanban-probe", free.admin, { "accept-language": "en" });
    expectError(r, 403, "ERR_LICENSE_TIER_REQUIRED");
    expect(r.body.message).toContain("PLUS");
    expect(r.body.message).not.toMatch(/licença/);
  });

  it("lets a PLUS tenant use PLUS (and lower) actions and refuses PREMIUM ones", async () => {
    const r = await t.api.get("/kanban-probe", plus.agent);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true });
    const basic = await t.api.get("/kanban-probe/basic", plus.agent);
    expect(basic.status).toBe(200);
    const p = await t.api.get("/kanban-probe/premium", plus.admin, PT);
    expectError(p, 403, "ERR_LICENSE_TIER_REQUIRED");
    expect(p.body.data).toMatchObject({ requiredTier: "PREMIUM", currentTier: "PLUS" });
    expect(p.body.message).toContain("PREMIUM");
  });

  it("an anonymous call is refused for the session, not the tier", async () => {
    expectError(await t.api.get("/kanban-probe"), 401, "ERR_SESSION_REQUIRED");
  });

  it("the tier gate does not replace the access check", async () => {
    // A PLUS tenant's agent passes the tier gate but is not an admin.
    const r = await t.api.post("/kanban-probe/admin", {}, plus.agent);
    expectError(r, 403, "ERR_NO_PERMISSION");
    const ok = await t.api.post("/kanban-probe/admin", {}, plus.admin);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, admin: true });
    // And a FREE tenant's admin is still refused for the tier.
    expectError(await t.api.post("/kanban-probe/admin", {}, free.admin), 403, "ERR_LICENSE_TIER_REQUIRED");
  });

  it("the tier gate does not switch off the access middleware for the action the gateway calls", async () => {
    // The gateway marks its call with meta.$api; the access middleware checks the action's
    // `access` for that call. Looking the tier up must not consume the mark.
    const agent = { id: plus.agent.userId, tenantId: plus.tenantId, profile: "user", isMaster: false, isSupport: false, sessionId: plus.agent.sessionId };
    await expect(t.core.broker.call("kanbanprobe.plusAdmin", {}, { meta: { $api: true, user: agent } })).rejects.toMatchObject({
      type: "ERR_NO_PERMISSION",
      code: 403,
    });
    const admin = { ...agent, id: plus.admin.userId, profile: "admin" };
    await expect(t.core.broker.call("kanbanprobe.plusAdmin", {}, { meta: { $api: true, user: admin } })).resolves.toEqual({ ok: true, admin: true });
  });

  it("a licence lookup that fails counts as FREE (spec §6), not as another error", async () => {
    // tenantId 0 makes licence.tier itself refuse its params.
    const user = { id: 1, tenantId: 0, profile: "admin", isMaster: false, isSupport: false, sessionId: "s" };
    await expect(t.core.broker.call("kanbanprobe.plus", {}, { meta: { user } })).rejects.toMatchObject({
      type: "ERR_LICENSE_TIER_REQUIRED",
      data: { requiredTier: "PLUS", currentTier: "FREE" },
    });
  });

  it("an upgrade opens the action at once", async () => {
    const f = await createTenant(t);
    expectError(await t.api.get("/kanban-probe/premium", f.admin), 403, "ERR_LICENSE_TIER_REQUIRED");
    const put = await t.api.put(`/tenants/${f.tenantId}/license`, { token: signTestLicence({ tier: "PREMIUM", tenantId: f.tenantId }) }, sup);
    expect(put.status).toBe(200);
    const r = await t.api.get("/kanban-probe/premium", f.admin);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, premium: true });
    expect((await t.api.get("/kanban-probe", f.agent)).status).toBe(200);
  });

  it("a direct broker call without a user (system job) is not gated", async () => {
    await expect(t.core.broker.call("kanbanprobe.premium")).resolves.toEqual({ ok: true, premium: true });
    await expect(t.core.broker.call("kanbanprobe.plus")).resolves.toEqual({ ok: true });
  });

  it("a broker call made for a FREE tenant's user is gated", async () => {
    const user = { id: free.admin.userId, tenantId: free.tenantId, profile: "admin", isMaster: false, isSupport: false, sessionId: free.admin.sessionId };
    await expect(t.core.broker.call("kanbanprobe.plus", {}, { meta: { user } })).rejects.toMatchObject({
      type: "ERR_LICENSE_TIER_REQUIRED",
      code: 403,
      data: { requiredTier: "PLUS" },
    });
  });
});
