import { startCore, createTenant, createSuper, TestCore, Auth, Res, PASSWORD, uid } from "./helpers";

/** Status and `error` code of the API's error body `{ error, message, title, data }`. */
function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
  expect(typeof r.body.title).toBe("string");
  expect(r.body.data).toEqual(expect.any(Object));
}

const VALID_CNPJ = "11.222.333/0001-81";
const VALID_CPF = "529.982.247-25";

describe("tenants on mariadb", () => {
  let t: TestCore;
  let sup: Auth & { email: string };
  beforeAll(async () => {
    t = await startCore();
    sup = await createSuper(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  describe("super level CRUD", () => {
    it("creates a tenant (document normalised), gets it, finds it in the list", async () => {
      const name = `Acme ${uid()}`;
      const r = await t.api.post("/tenants", { name, document: VALID_CNPJ, maxUsers: 10, maxConnections: 2, timezone: "America/Manaus" }, sup);
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ name, document: "11222333000181", status: "active", maxUsers: 10, maxConnections: 2, timezone: "America/Manaus", termsAccepted: false, hasLicense: false });
      expect(r.body.licenseToken).toBeUndefined();
      const got = await t.api.get(`/tenants/${r.body.id}`, sup);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ id: r.body.id, name });
      const list = await t.api.get(`/tenants?searchParam=${encodeURIComponent(name)}`, sup);
      expect(list.status).toBe(200);
      expect(list.body.tenants.map((x: { id: number }) => x.id)).toEqual([r.body.id]);
      expect(list.body.count).toBe(1);
    });

    it("accepts a CPF and no document at all", async () => {
      const a = await t.api.post("/tenants", { name: `Person ${uid()}`, document: VALID_CPF }, sup);
      expect(a.status).toBe(201);
      expect(a.body.document).toBe("52998224725");
      const b = await t.api.post("/tenants", { name: `NoDoc ${uid()}` }, sup);
      expect(b.status).toBe(201);
      expect(b.body.document).toBeNull();
    });

    it.each([["bad CNPJ check digit", "11.222.333/0001-82"], ["bad CPF check digit", "529.982.247-26"], ["all same digits", "111.111.111-11"], ["wrong length", "12345"]])(
      "refuses a %s with ERR_VALIDATION on document",
      async (_why, document) => {
        const before = (await t.api.get("/tenants?pageSize=200", sup)).body.count;
        const r = await t.api.post("/tenants", { name: `Bad ${uid()}`, document }, sup);
        expectError(r, 400, "ERR_VALIDATION");
        expect(r.body.data.field).toBe("document");
        expect((await t.api.get("/tenants?pageSize=200", sup)).body.count).toBe(before);
      },
    );

    it("refuses an unknown time zone and a too-short name", async () => {
      const tz = await t.api.post("/tenants", { name: `Tz ${uid()}`, timezone: "Mars/Olympus" }, sup);
      expectError(tz, 400, "ERR_VALIDATION");
      expect(tz.body.data.field).toBe("timezone");
      const n = await t.api.post("/tenants", { name: "A" }, sup);
      expectError(n, 400, "ERR_VALIDATION");
      expect(n.body.data.field).toBe("name");
    });

    it("updates a tenant; an invalid document on update answers ERR_VALIDATION", async () => {
      const c = (await t.api.post("/tenants", { name: `Upd ${uid()}` }, sup)).body;
      const r = await t.api.put(`/tenants/${c.id}`, { name: "Renamed Co", document: VALID_CPF, maxUsers: 7 }, sup);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: c.id, name: "Renamed Co", document: "52998224725", maxUsers: 7 });
      const bad = await t.api.put(`/tenants/${c.id}`, { document: "123.456.789-00" }, sup);
      expectError(bad, 400, "ERR_VALIDATION");
      expect(bad.body.data.field).toBe("document");
      expect((await t.api.get(`/tenants/${c.id}`, sup)).body.document).toBe("52998224725");
      expectError(await t.api.put("/tenants/99999999", { name: "Ghost" }, sup), 404, "ERR_TENANT_NOT_FOUND");
    });

    it("lists with paging", async () => {
      const tag = uid();
      for (const n of ["A", "B", "C"]) expect((await t.api.post("/tenants", { name: `Page ${tag} ${n}` }, sup)).status).toBe(201);
      const p1 = await t.api.get(`/tenants?searchParam=${tag}&pageSize=2&pageNumber=1`, sup);
      const p2 = await t.api.get(`/tenants?searchParam=${tag}&pageSize=2&pageNumber=2`, sup);
      expect(p1.body).toMatchObject({ count: 3, hasMore: true });
      expect(p2.body).toMatchObject({ count: 3, hasMore: false });
      expect([...p1.body.tenants, ...p2.body.tenants].map((x: { name: string }) => x.name)).toEqual(["A", "B", "C"].map((n) => `Page ${tag} ${n}`));
      const meta = await t.api.get(`/tenants?searchParam=${encodeURIComponent("%_'\\")}`, sup);
      expect(meta.status).toBe(200);
      expect(meta.body.count).toBe(0);
    });

    it("deletes a tenant: it leaves the list and answers 404", async () => {
      const c = (await t.api.post("/tenants", { name: `Del ${uid()}` }, sup)).body;
      const r = await t.api.del(`/tenants/${c.id}`, sup);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: c.id, deleted: true });
      expectError(await t.api.get(`/tenants/${c.id}`, sup), 404, "ERR_TENANT_NOT_FOUND");
      expectError(await t.api.del(`/tenants/${c.id}`, sup), 404, "ERR_TENANT_NOT_FOUND");
      expectError(await t.api.put(`/tenants/${c.id}`, { name: "Back" }, sup), 404, "ERR_TENANT_NOT_FOUND");
      const list = await t.api.get("/tenants?pageSize=200", sup);
      expect(list.body.tenants.map((x: { id: number }) => x.id)).not.toContain(c.id);
    });

    it("the super level cannot deactivate or delete its own tenant", async () => {
      expectError(await t.api.put(`/tenants/${sup.tenantId}`, { status: "inactive" }, sup), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.del(`/tenants/${sup.tenantId}`, sup), 403, "ERR_NO_PERMISSION");
      expect((await t.api.get("/tenants", sup)).status).toBe(200);
    });
  });

  describe("tenant admins and agents", () => {
    it("an admin or agent gets their own tenant; another tenant's id answers 404 ERR_TENANT_NOT_FOUND", async () => {
      const f = await createTenant(t);
      const g = await createTenant(t);
      const own = await t.api.get(`/tenants/${f.tenantId}`, f.admin);
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ id: f.tenantId, status: "active" });
      expect(own.body.licenseToken).toBeUndefined();
      expect((await t.api.get(`/tenants/${f.tenantId}`, f.agent)).status).toBe(200);
      expectError(await t.api.get(`/tenants/${g.tenantId}`, f.admin), 404, "ERR_TENANT_NOT_FOUND");
      expectError(await t.api.get("/tenants/99999999", f.admin), 404, "ERR_TENANT_NOT_FOUND");
    });

    it("non-super callers get 403 ERR_NO_PERMISSION on list, POST, PUT and DELETE /tenants", async () => {
      const f = await createTenant(t);
      for (const who of [f.admin, f.supervisor, f.agent]) {
        expectError(await t.api.get("/tenants", who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.post("/tenants", { name: `Mine ${uid()}` }, who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.put(`/tenants/${f.tenantId}`, { maxUsers: 100 }, who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.del(`/tenants/${f.tenantId}`, who), 403, "ERR_NO_PERMISSION");
      }
      const own = await t.api.get(`/tenants/${f.tenantId}`, f.admin);
      expect(own.body).toMatchObject({ status: "active", maxUsers: null });
    });
  });

  describe("inactive and deleted tenants", () => {
    // A session ended by the tenant's state answers 401, so the client goes to the login page.
    const inactiveStatus = 401;

    it("deactivating a tenant ends its users' sessions and blocks login; reactivating allows it again", async () => {
      const f = await createTenant(t);
      const bystander = await createTenant(t);
      const r = await t.api.put(`/tenants/${f.tenantId}`, { status: "inactive" }, sup);
      expect(r.status).toBe(200);
      expect(r.body.status).toBe("inactive");
      for (const who of [f.admin, f.supervisor, f.agent]) expectError(await t.api.get("/users", who), inactiveStatus, "ERR_TENANT_INACTIVE");
      expectError(await t.api.post("/auth/login", { email: f.emails.admin, password: PASSWORD }), 401, "ERR_TENANT_INACTIVE");
      // Other tenants are untouched.
      expect((await t.api.get("/users", bystander.admin)).status).toBe(200);
      expect((await t.api.put(`/tenants/${f.tenantId}`, { status: "active" }, sup)).status).toBe(200);
      const again = await t.api.login(f.emails.agent);
      expect((await t.api.get("/users", again)).status).toBe(200);
    });

    it("deleting a tenant ends its users' sessions and login answers 404 ERR_TENANT_NOT_FOUND", async () => {
      const f = await createTenant(t);
      expect((await t.api.del(`/tenants/${f.tenantId}`, sup)).status).toBe(200);
      for (const who of [f.admin, f.agent]) expectError(await t.api.get("/users", who), inactiveStatus, "ERR_TENANT_INACTIVE");
      expectError(await t.api.post("/auth/login", { email: f.emails.admin, password: PASSWORD }), 404, "ERR_TENANT_NOT_FOUND");
    });
  });

  describe("terms acceptance", () => {
    it("the tenant admin accepts: termsAccepted and termsAcceptedAt are set and shown at login", async () => {
      const f = await createTenant(t);
      const r = await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin);
      expect(r.status).toBe(200);
      expect(r.body.termsAccepted).toBe(true);
      expect(Date.now() - new Date(r.body.termsAcceptedAt).getTime()).toBeLessThan(60_000);
      expect((await t.api.get(`/tenants/${f.tenantId}`, f.admin)).body).toMatchObject({ termsAccepted: true, termsAcceptedAt: r.body.termsAcceptedAt });
      const login = await t.api.post("/auth/login", { email: f.emails.agent, password: PASSWORD });
      expect(login.status).toBe(200);
      expect(login.body.tenant).toMatchObject({ id: f.tenantId, termsAccepted: true });
      expect(new Date(login.body.tenant.termsAcceptedAt).toISOString()).toBe(new Date(r.body.termsAcceptedAt).toISOString());
      // The admin's session goes on.
      expect((await t.api.get("/users", f.admin)).status).toBe(200);
    });

    it("another tenant's id answers 404 ERR_TENANT_NOT_FOUND and changes nothing", async () => {
      const f = await createTenant(t);
      const g = await createTenant(t);
      expectError(await t.api.put(`/tenants/${g.tenantId}/terms-acceptance`, { accepted: true }, f.admin), 404, "ERR_TENANT_NOT_FOUND");
      expectError(await t.api.put(`/tenants/${g.tenantId}/terms-acceptance`, { accepted: true }, sup), 404, "ERR_TENANT_NOT_FOUND");
      expect((await t.api.get(`/tenants/${g.tenantId}`, g.admin)).body).toMatchObject({ termsAccepted: false, termsAcceptedAt: null });
    });

    it("accepted:false clears the acceptance and deactivates the caller's account (spec §4)", async () => {
      const f = await createTenant(t);
      expect((await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin)).status).toBe(200);
      const r = await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: false }, f.admin);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ termsAccepted: false, termsAcceptedAt: null });
      expectError(await t.api.get("/users", f.admin), 401, "ERR_USER_INACTIVE");
      expectError(await t.api.post("/auth/login", { email: f.emails.admin, password: PASSWORD }), 401, "ERR_USER_INACTIVE");
      // Only the caller's account: the tenant's other users go on.
      expect((await t.api.get("/users", f.agent)).status).toBe(200);
      const users = (await t.api.get("/users?pageSize=200", f.supervisor)).body.users as Array<{ id: number; active: boolean }>;
      expect(users.find((u) => u.id === f.admin.userId)?.active).toBe(false);
    });

    it("agents and supervisors get 403 ERR_NO_PERMISSION", async () => {
      const f = await createTenant(t);
      expectError(await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.agent), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.supervisor), 403, "ERR_NO_PERMISSION");
      expect((await t.api.get(`/tenants/${f.tenantId}`, f.agent)).body.termsAccepted).toBe(false);
    });

    it("refuses a missing accepted flag with ERR_VALIDATION", async () => {
      const f = await createTenant(t);
      const r = await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, {}, f.admin);
      expectError(r, 400, "ERR_VALIDATION");
      expect(r.body.data.field).toBe("accepted");
    });
  });
});
