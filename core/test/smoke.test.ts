import { startCore, createTenant, TestCore, DIALECTS } from "./helpers";

describe.each(DIALECTS)("core boots and answers on %s", (dialect) => {
  let t: TestCore;
  beforeAll(async () => {
    t = await startCore({ dialect });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("logs a tenant admin in and lists the tenant's users", async () => {
    const f = await createTenant(t);
    const r = await t.api.get("/users", f.admin);
    expect(r.status).toBe(200);
    expect(r.body.users.map((u: { email: string }) => u.email).sort()).toEqual([f.emails.admin, f.emails.agent, f.emails.supervisor].sort());
  });
});
