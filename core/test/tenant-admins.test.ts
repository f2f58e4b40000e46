/**
 * The platform level creates a tenant together with its first admin, and adds admins to a
 * tenant later (issue 12: a new tenant had no user, so nobody could use it). The admin's
 * rules are POST /users's: strong password, unique e-mail, the tenant's plan limit.
 */
import { startCore, createTenant, createSuper, TestCore, Auth, Res, PASSWORD, uid } from "./helpers";

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

describe("tenants with their admins", () => {
  let t: TestCore;
  let sup: Auth;

  beforeAll(async () => {
    t = await startCore();
    sup = await createSuper(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("POST /tenants with admin creates both; the admin logs in to the new tenant", async () => {
    const email = `first-${uid()}@t.test`;
    const r = await t.api.post("/tenants", { name: `Nova ${uid()}`, admin: { name: "Primeira Admin", email: email.toUpperCase(), password: PASSWORD } }, sup);
    expect(r.status).toBe(201);
    expect(r.body.admin).toEqual({ id: expect.any(Number), tenantId: r.body.id, name: "Primeira Admin", email, profile: "admin" });
    const login = await t.api.login(email);
    expect(login.tenantId).toBe(r.body.id);
    const users = await t.api.get("/users", login);
    expect(users.status).toBe(200);
    expect(users.body.users.map((u: { email: string; profile: string }) => [u.email, u.profile])).toEqual([[email, "admin"]]);
  });

  it("a refused admin leaves no tenant behind", async () => {
    const name = `Sem admin ${uid()}`;
    expectError(await t.api.post("/tenants", { name, admin: { name: "Fraca", email: `weak-${uid()}@t.test`, password: "123" } }, sup), 400, "ERR_PASSWORD_WEAK");
    const f = await createTenant(t);
    expectError(await t.api.post("/tenants", { name, admin: { name: "Repetida", email: f.emails.admin, password: PASSWORD } }, sup), 409, "ERR_EMAIL_ALREADY_REGISTERED");
    const found = await t.api.get(`/tenants?searchParam=${encodeURIComponent(name)}`, sup);
    expect(found.body.count).toBe(0);
    expectError(await t.api.post("/tenants", { name, admin: { name: "X", email: "not-an-email", password: PASSWORD } }, sup), 400, "ERR_VALIDATION");
  });

  it("POST /tenants/:id/admins adds an admin later; only the platform level may", async () => {
    const bare = await t.api.post("/tenants", { name: `Sem ninguém ${uid()}` }, sup);
    expect(bare.status).toBe(201);
    expect(bare.body.admin).toBeUndefined();
    const email = `later-${uid()}@t.test`;
    const r = await t.api.post(`/tenants/${bare.body.id}/admins`, { name: "Depois", email, password: PASSWORD }, sup);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ tenantId: bare.body.id, email, profile: "admin" });
    expect((await t.api.login(email)).tenantId).toBe(bare.body.id);

    const f = await createTenant(t);
    expectError(await t.api.post(`/tenants/${bare.body.id}/admins`, { name: "Intrusa", email: `x-${uid()}@t.test`, password: PASSWORD }, f.admin), 403, "ERR_NO_PERMISSION");
    expectError(await t.api.post(`/tenants/999999/admins`, { name: "Ninguém", email: `y-${uid()}@t.test`, password: PASSWORD }, sup), 404, "ERR_TENANT_NOT_FOUND");
  });

  it("the tenant's plan limit counts the admins the platform adds", async () => {
    const f = await createTenant(t); // FREE, with 3 users: the free plan's maximum here
    expectError(await t.api.post(`/tenants/${f.tenantId}/admins`, { name: "Quarta", email: `fourth-${uid()}@t.test`, password: PASSWORD }, sup), 403, "ERR_FREE_PLAN_USER_LIMIT");
  });
});
