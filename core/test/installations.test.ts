/**
 * Two installations with different databases sharing one Redis (and the default NAMESPACE and,
 * here, one JWT secret): what each keeps in Redis is its own (issue 12). Before, a session of
 * one was honoured by the other (its "active" mirror under the same key), and login failures
 * on one counted against the other.
 */
import { startCore, createTenant, TestCore, TenantFixture, PASSWORD, uid } from "./helpers";
import { readInstallationId } from "../src/system/installation";

describe("two installations on one Redis", () => {
  let a: TestCore;
  let b: TestCore;
  let fa: TenantFixture;
  let fb: TenantFixture;
  const env = { LOGIN_RATE_LIMIT: "3", LOGIN_RATE_WINDOW: "60" };

  beforeAll(async () => {
    [a, b] = await Promise.all([startCore({ env }), startCore({ env })]);
    expect(a.config.namespace).toBe(b.config.namespace);
    expect(a.config.redisUrl).toBe(b.config.redisUrl);
    fa = await createTenant(a, { tier: "PLUS" });
    fb = await createTenant(b, { tier: "PLUS" });
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("each installation has an id of its own, stored in its database", async () => {
    const [ia, ib] = await Promise.all([readInstallationId(a.core.sequelize), readInstallationId(b.core.sequelize)]);
    expect(ia).toMatch(/^[0-9a-f-]{36}$/);
    expect(ib).toMatch(/^[0-9a-f-]{36}$/);
    expect(ia).not.toBe(ib);
    expect(a.core.deps.redisPrefix()).toContain(ia);
  });

  it("a session of one installation is not a session of the other", async () => {
    expect((await a.api.get("/users", fa.admin)).status).toBe(200);
    const r = await b.api.get("/users", fa.admin);
    expect(r.status).toBe(401);
    // And each goes on with its own.
    expect((await b.api.get("/users", fb.admin)).status).toBe(200);
    expect((await a.api.get("/users", fa.admin)).status).toBe(200);
  });

  it("logging out on one does not end the other's session", async () => {
    expect((await b.api.post("/auth/logout", {}, fb.admin)).status).toBeLessThan(300);
    expect((await a.api.get("/users", fa.admin)).status).toBe(200);
  });

  it("login rate-limit counters are the installation's own", async () => {
    // The limit counts attempts per address and identifier, before the user is looked up.
    const email = `nobody-${uid()}@t.test`;
    for (let i = 0; i < 3; i++) expect((await a.api.post("/auth/login", { email, password: PASSWORD })).status).toBe(404);
    expect((await a.api.post("/auth/login", { email, password: PASSWORD })).body.error).toBe("ERR_RATE_LIMITED");
    // The other installation never saw those attempts.
    const other = await b.api.post("/auth/login", { email, password: PASSWORD });
    expect({ status: other.status, error: other.body.error }).toEqual({ status: 404, error: expect.not.stringMatching(/RATE/) });
  });
});
