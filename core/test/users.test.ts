import { startCore, createTenant, createSuper, TestCore, TenantFixture, Auth, Res, PASSWORD, uid } from "./helpers";

/** Status and `error` code of the API's error body `{ error, message, title, data }`. */
function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
  expect(typeof r.body.title).toBe("string");
  expect(r.body.data).toEqual(expect.any(Object));
}

const email = (p = "u") => `${p}-${uid()}@t.test`;

async function createUser(t: TestCore, admin: Auth, body: Record<string, unknown> = {}) {
  const r = await t.api.post("/users", { name: `User ${uid()}`, email: email(), password: PASSWORD, ...body }, admin);
  if (r.status !== 201) throw new Error(`create user failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: number; email: string; name: string; profile: string; queues: number[]; phoneNumber: string | null };
}

async function countUsers(t: TestCore, tenantId: number): Promise<number> {
  const [rows] = await t.core.sequelize.query("SELECT COUNT(*) AS n FROM users WHERE tenantId = ?", { replacements: [tenantId] });
  return Number((rows as Array<{ n: number | string }>)[0]!.n);
}

describe("users on mariadb", () => {
  let t: TestCore;
  let f: TenantFixture; // PLUS: no user cap
  let other: TenantFixture; // another tenant (FREE)
  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t, { tier: "PLUS" });
    other = await createTenant(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  describe("create", () => {
    it.each(["user", "supervisor", "admin"])("an admin creates a %s with queues, who can log in", async (profile) => {
      const e = email(profile);
      const r = await t.api.post("/users", { name: `New ${profile}`, email: e.toUpperCase(), password: PASSWORD, profile, queues: [f.queueIds[1], f.queueIds[0]] }, f.admin);
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ name: `New ${profile}`, email: e, profile, active: true, tenantId: f.tenantId, queues: [...f.queueIds].sort((a, b) => a - b) });
      expect(r.body.passwordHash).toBeUndefined();
      const login = await t.api.post("/auth/login", { email: e, password: PASSWORD });
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ profile, tenantId: f.tenantId, queues: [...f.queueIds].sort((a, b) => a - b) });
    });

    it("the profile defaults to user", async () => {
      const u = await createUser(t, f.admin);
      expect(u.profile).toBe("user");
      expect(u.queues).toEqual([]);
    });

    it("refuses a queue of another tenant with 404 ERR_QUEUE_NOT_FOUND and writes nothing", async () => {
      const before = await countUsers(t, f.tenantId);
      const e = email();
      const r = await t.api.post("/users", { name: "Cross", email: e, password: PASSWORD, queues: [f.queueIds[0], other.queueIds[0]] }, f.admin);
      expectError(r, 404, "ERR_QUEUE_NOT_FOUND");
      expect(r.body.data.ids).toEqual([other.queueIds[0]]);
      expect(await countUsers(t, f.tenantId)).toBe(before);
    });

    it("refuses a non-existent queue id with 404 ERR_QUEUE_NOT_FOUND", async () => {
      const r = await t.api.post("/users", { name: "Ghost", email: email(), password: PASSWORD, queues: [99999999] }, f.admin);
      expectError(r, 404, "ERR_QUEUE_NOT_FOUND");
    });

    it.each([
      ["no upper-case letter", "secret123"],
      ["no digit", "SecretSecret"],
      ["a symbol", "Secret123!"],
      ["too short", "Ab1"],
    ])("refuses a password with %s: 400 ERR_PASSWORD_WEAK", async (_why, password) => {
      const r = await t.api.post("/users", { name: "Weak", email: email(), password }, f.admin);
      expectError(r, 400, "ERR_PASSWORD_WEAK");
      expect(r.body.data.field).toBe("password");
    });

    it("refuses an invalid e-mail with ERR_VALIDATION", async () => {
      const r = await t.api.post("/users", { name: "Bad", email: "not-an-email", password: PASSWORD }, f.admin);
      expectError(r, 400, "ERR_VALIDATION");
      expect(r.body.data.field).toBe("email");
    });

    it("only admins create users: supervisor and agent get 403 ERR_NO_PERMISSION", async () => {
      for (const who of [f.supervisor, f.agent]) {
        const r = await t.api.post("/users", { name: "Nope", email: email(), password: PASSWORD }, who);
        expectError(r, 403, "ERR_NO_PERMISSION");
      }
    });

    it("an admin cannot create a super user: 403 ERR_ADMIN_CREATION_DISABLED", async () => {
      const r = await t.api.post("/users", { name: "Sneaky", email: email(), password: PASSWORD, profile: "super" }, f.admin);
      expectError(r, 403, "ERR_ADMIN_CREATION_DISABLED");
    });

    it("a duplicate e-mail (any case, any tenant) answers 409 ERR_EMAIL_ALREADY_REGISTERED", async () => {
      const before = await countUsers(t, f.tenantId);
      const r = await t.api.post("/users", { name: "Dup", email: f.emails.agent.toUpperCase(), password: PASSWORD }, f.admin);
      expectError(r, 409, "ERR_EMAIL_ALREADY_REGISTERED");
      const r2 = await t.api.post("/users", { name: "Dup", email: other.emails.admin, password: PASSWORD }, f.admin);
      expectError(r2, 409, "ERR_EMAIL_ALREADY_REGISTERED");
      expect(await countUsers(t, f.tenantId)).toBe(before);
    });

    it("a phone number is unique across the platform after normalisation: 409 ERR_PHONE_ALREADY_REGISTERED", async () => {
      const digits = `55119${Math.floor(10000000 + Math.random() * 89999999)}`; // 13 digits
      const formatted = `+${digits.slice(0, 2)} (${digits.slice(2, 4)}) ${digits.slice(4, 9)}-${digits.slice(9)}`;
      const a = await createUser(t, f.admin, { phoneNumber: formatted });
      expect(a.phoneNumber).toBe(digits);
      // Another tenant, same number written differently (PLUS tenant so the cap does not interfere).
      const g = await createTenant(t, { tier: "PLUS" });
      const r = await t.api.post("/users", { name: "Same Phone", email: email(), password: PASSWORD, phoneNumber: digits }, g.admin);
      expectError(r, 409, "ERR_PHONE_ALREADY_REGISTERED");
      expect(r.body.data.field).toBe("phoneNumber");
      // …and on update.
      const b = await createUser(t, g.admin);
      const u = await t.api.put(`/users/${b.id}`, { phoneNumber: formatted }, g.admin);
      expectError(u, 409, "ERR_PHONE_ALREADY_REGISTERED");
      // The number logs in however it is written.
      const login = await t.api.post("/auth/login", { phoneNumber: ` ${formatted} `, password: PASSWORD });
      expect(login.status).toBe(200);
      expect(login.body.userId).toBe(a.id);
    });

    it("refuses a malformed phone number with ERR_VALIDATION", async () => {
      const r = await t.api.post("/users", { name: "Short Phone", email: email(), password: PASSWORD, phoneNumber: "12-34" }, f.admin);
      expectError(r, 400, "ERR_VALIDATION");
      expect(r.body.data.field).toBe("phoneNumber");
    });
  });

  describe("list and get", () => {
    let g: TenantFixture;
    const names = ["Ana 100% Silva", "Bruno_Costa", "Carla O'Neil", "Dan \\ Back", "Eva Plain"];
    const ids: Record<string, number> = {};
    beforeAll(async () => {
      g = await createTenant(t, { tier: "PLUS" });
      for (const n of names) ids[n] = (await createUser(t, g.admin, { name: n, email: email("list") })).id;
    });

    it("lists only the caller's tenant, sorted by name", async () => {
      const r = await t.api.get("/users", g.admin);
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(8);
      expect(r.body.hasMore).toBe(false);
      const got = r.body.users.map((u: { name: string }) => u.name);
      expect(got).toEqual([...names, "Admin", "Agent", "Supervisor"].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
      expect(r.body.users.every((u: { tenantId: number }) => u.tenantId === g.tenantId)).toBe(true);
    });

    it.each([
      ["%", ["Ana 100% Silva"]],
      ["100%", ["Ana 100% Silva"]],
      ["_", ["Bruno_Costa"]],
      ["o_c", ["Bruno_Costa"]],
      ["'", ["Carla O'Neil"]],
      ["o'n", ["Carla O'Neil"]],
      ["\\", ["Dan \\ Back"]],
      ["%%", []],
      ["a%", []],
      ["_a_", []],
      ["' OR '1'='1", []],
      ["\\%", []],
      ["EVA", ["Eva Plain"]],
    ])("searchParam %j matches literally", async (q, expected) => {
      const r = await t.api.get(`/users?searchParam=${encodeURIComponent(q)}`, g.admin);
      expect(r.status).toBe(200);
      expect(r.body.users.map((u: { name: string }) => u.name)).toEqual(expected);
      expect(r.body.count).toBe(expected.length);
    });

    it("searchParam also matches the e-mail", async () => {
      const r = await t.api.get(`/users?searchParam=${encodeURIComponent(g.emails.supervisor.toUpperCase())}`, g.admin);
      expect(r.status).toBe(200);
      expect(r.body.users.map((u: { email: string }) => u.email)).toEqual([g.emails.supervisor]);
    });

    it("pages through the list without gaps or repeats", async () => {
      const all = (await t.api.get("/users", g.admin)).body.users.map((u: { id: number }) => u.id);
      const seen: number[] = [];
      for (let page = 1; page <= 3; page++) {
        const r = await t.api.get(`/users?pageSize=3&pageNumber=${page}`, g.admin);
        expect(r.status).toBe(200);
        expect(r.body.count).toBe(8);
        expect(r.body.hasMore).toBe(page < 3);
        expect(r.body.users.length).toBe(page < 3 ? 3 : 2);
        seen.push(...r.body.users.map((u: { id: number }) => u.id));
      }
      expect(seen).toEqual(all);
      const beyond = await t.api.get("/users?pageSize=3&pageNumber=4", g.admin);
      expect(beyond.status).toBe(200);
      expect(beyond.body.users).toEqual([]);
    });

    it("refuses a bad pageNumber with ERR_VALIDATION", async () => {
      const r = await t.api.get("/users?pageNumber=0", g.admin);
      expectError(r, 400, "ERR_VALIDATION");
    });

    it("an agent can list; phone numbers are visible to admins only", async () => {
      const r = await t.api.get("/users", g.agent);
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(8);
      expect(r.body.users[0].phoneNumber).toBeUndefined();
    });

    it("get returns the full user to an admin", async () => {
      const r = await t.api.get(`/users/${ids["Eva Plain"]}`, g.admin);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: ids["Eva Plain"], name: "Eva Plain", tenantId: g.tenantId, profile: "user", queues: [] });
      expect(r.body.passwordHash).toBeUndefined();
    });

    it("an agent gets themselves but not another user (403)", async () => {
      const me = await t.api.get(`/users/${g.agent.userId}`, g.agent);
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(g.agent.userId);
      const r = await t.api.get(`/users/${g.admin.userId}`, g.agent);
      expectError(r, 403, "ERR_NO_PERMISSION");
    });

    it("another tenant's user answers 404 ERR_USER_NOT_FOUND", async () => {
      const r = await t.api.get(`/users/${other.admin.userId}`, g.admin);
      expectError(r, 404, "ERR_USER_NOT_FOUND");
    });

    it("without a token answers 401", async () => {
      const r = await t.api.get("/users");
      expectError(r, 401, "ERR_SESSION_REQUIRED");
    });

    it("GET /users/tenants is for the super level only", async () => {
      const sup = await createSuper(t);
      const r = await t.api.get("/users/tenants", sup);
      expect(r.status).toBe(200);
      const mine = r.body.tenants.find((x: { tenantId: number }) => x.tenantId === g.tenantId);
      expect(mine.users.map((u: { id: number }) => u.id).sort()).toEqual((await t.api.get("/users", g.admin)).body.users.map((u: { id: number }) => u.id).sort());
      expect(r.body.tenants.some((x: { tenantId: number }) => x.tenantId === other.tenantId)).toBe(true);
      const filtered = await t.api.get(`/users/tenants?tenantId=${other.tenantId}`, sup);
      expect(filtered.status).toBe(200);
      expect(filtered.body.tenants.map((x: { tenantId: number }) => x.tenantId)).toEqual([other.tenantId]);
      expectError(await t.api.get("/users/tenants", g.admin), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.get("/users/tenants", g.agent), 403, "ERR_NO_PERMISSION");
    });
  });

  describe("update", () => {
    let g: TenantFixture;
    beforeEach(async () => {
      g = await createTenant(t, { tier: "PLUS" });
    });

    it("an admin changes name, e-mail, phone and queues", async () => {
      const u = await createUser(t, g.admin, { queues: [g.queueIds[0]] });
      const e = email("renamed");
      const r = await t.api.put(`/users/${u.id}`, { name: "Renamed", email: e, phoneNumber: "+55 (21) 97777-1234", queues: [g.queueIds[1]] }, g.admin);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: u.id, name: "Renamed", email: e, phoneNumber: "5521977771234", queues: [g.queueIds[1]] });
      const got = await t.api.get(`/users/${u.id}`, g.admin);
      expect(got.body).toMatchObject({ name: "Renamed", email: e, phoneNumber: "5521977771234", queues: [g.queueIds[1]] });
      const cleared = await t.api.put(`/users/${u.id}`, { queues: [], phoneNumber: null }, g.admin);
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ queues: [], phoneNumber: null });
    });

    it("refuses queues of another tenant with 404 ERR_QUEUE_NOT_FOUND and keeps the old ones", async () => {
      const u = await createUser(t, g.admin, { queues: [g.queueIds[0]] });
      const r = await t.api.put(`/users/${u.id}`, { queues: [other.queueIds[0]] }, g.admin);
      expectError(r, 404, "ERR_QUEUE_NOT_FOUND");
      expect((await t.api.get(`/users/${u.id}`, g.admin)).body.queues).toEqual([g.queueIds[0]]);
    });

    it("an admin sets a new password; weak ones answer ERR_PASSWORD_WEAK", async () => {
      const u = await createUser(t, g.admin);
      for (const weak of ["lowercase1", "NoDigitsHere", "Short1", "With Space1"]) {
        expectError(await t.api.put(`/users/${u.id}`, { password: weak }, g.admin), 400, "ERR_PASSWORD_WEAK");
      }
      const before = await t.api.login(u.email);
      const r = await t.api.put(`/users/${u.id}`, { password: "NewSecret99" }, g.admin);
      expect(r.status).toBe(200);
      expectError(await t.api.post("/auth/login", { email: u.email, password: PASSWORD }), 401, "ERR_INVALID_CREDENTIALS");
      // A password set by someone else ends the user's sessions.
      expect((await t.api.get("/users", before)).status).toBe(401);
      expect((await t.api.post("/auth/login", { email: u.email, password: "NewSecret99" })).status).toBe(200);
    });

    it("a duplicate e-mail on update answers 409 ERR_EMAIL_ALREADY_REGISTERED", async () => {
      const r = await t.api.put(`/users/${g.agent.userId}`, { email: g.emails.supervisor }, g.admin);
      expectError(r, 409, "ERR_EMAIL_ALREADY_REGISTERED");
      expect((await t.api.get(`/users/${g.agent.userId}`, g.admin)).body.email).toBe(g.emails.agent);
    });

    it("an agent updates their own name, e-mail and password", async () => {
      const e = email("self");
      const r = await t.api.put(`/users/${g.agent.userId}`, { name: "Myself", email: e }, g.agent);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ name: "Myself", email: e });
      const p = await t.api.put(`/users/${g.agent.userId}`, { password: "Changed123" }, g.agent);
      expect(p.status).toBe(200);
      // Their own current session survives their own password change.
      expect((await t.api.get("/users", g.agent)).status).toBe(200);
      expect((await t.api.post("/auth/login", { email: e, password: "Changed123" })).status).toBe(200);
      expectError(await t.api.put(`/users/${g.supervisor.userId}`, { password: "weak" }, g.supervisor), 400, "ERR_PASSWORD_WEAK");
    });

    it.each([
      ["profile", { profile: "admin" }],
      ["profile (same value)", { profile: "user" }],
      ["queues", { queues: [] }],
      ["active", { active: false }],
      ["isHidden", { isHidden: true }],
    ])("an agent changing their own %s gets 403 ERR_NO_PERMISSION", async (_k, body) => {
      const r = await t.api.put(`/users/${g.agent.userId}`, body, g.agent);
      expectError(r, 403, "ERR_NO_PERMISSION");
      const me = await t.api.get(`/users/${g.agent.userId}`, g.admin);
      expect(me.body).toMatchObject({ profile: "user", active: true, queues: [g.queueIds[0]], isHidden: false });
    });

    it("an agent or supervisor cannot update another user: 403", async () => {
      expectError(await t.api.put(`/users/${g.admin.userId}`, { name: "Hacked" }, g.agent), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put(`/users/${g.agent.userId}`, { name: "Hacked" }, g.supervisor), 403, "ERR_NO_PERMISSION");
      expect((await t.api.get(`/users/${g.admin.userId}`, g.admin)).body.name).toBe("Admin");
    });

    it("an admin cannot update another tenant's user: 404", async () => {
      expectError(await t.api.put(`/users/${other.agent.userId}`, { name: "Hacked" }, g.admin), 404, "ERR_USER_NOT_FOUND");
    });

    it("admins cannot be deactivated: 400 ERR_CANNOT_DEACTIVATE_ADMIN", async () => {
      const a2 = await createUser(t, g.admin, { profile: "admin" });
      expectError(await t.api.put(`/users/${a2.id}`, { active: false }, g.admin), 400, "ERR_CANNOT_DEACTIVATE_ADMIN");
      expectError(await t.api.put(`/users/${g.admin.userId}`, { active: false }, g.admin), 400, "ERR_CANNOT_DEACTIVATE_ADMIN");
      expect((await t.api.get(`/users/${a2.id}`, g.admin)).body.active).toBe(true);
    });

    it("deactivating a user ends their session and blocks login; reactivating allows login again", async () => {
      const r = await t.api.put(`/users/${g.agent.userId}`, { active: false }, g.admin);
      expect(r.status).toBe(200);
      expect(r.body.active).toBe(false);
      expectError(await t.api.get("/users", g.agent), 401, "ERR_USER_INACTIVE");
      expectError(await t.api.post("/auth/login", { email: g.emails.agent, password: PASSWORD }), 401, "ERR_USER_INACTIVE");
      expect((await t.api.put(`/users/${g.agent.userId}`, { active: true }, g.admin)).status).toBe(200);
      const again = await t.api.login(g.emails.agent);
      expect((await t.api.get("/users", again)).status).toBe(200);
    });

    it("changing a user's profile ends their sessions", async () => {
      const r = await t.api.put(`/users/${g.agent.userId}`, { profile: "supervisor" }, g.admin);
      expect(r.status).toBe(200);
      expect(r.body.profile).toBe("supervisor");
      expect((await t.api.get("/users", g.agent)).status).toBe(401);
    });

    it("an admin cannot change their own profile", async () => {
      expectError(await t.api.put(`/users/${g.admin.userId}`, { profile: "user" }, g.admin), 403, "ERR_NO_PERMISSION");
    });
  });

  describe("delete", () => {
    let g: TenantFixture;
    beforeAll(async () => {
      g = await createTenant(t, { tier: "PLUS" });
    });

    it("an admin cannot delete themselves: 400 ERR_CANNOT_DELETE_SELF", async () => {
      expectError(await t.api.del(`/users/${g.admin.userId}?newUserId=${g.agent.userId}`, g.admin), 400, "ERR_CANNOT_DELETE_SELF");
    });

    it("needs newUserId: 400 ERR_NEW_USER_REQUIRED", async () => {
      const u = await createUser(t, g.admin);
      expectError(await t.api.del(`/users/${u.id}`, g.admin), 400, "ERR_NEW_USER_REQUIRED");
      expect((await t.api.get(`/users/${u.id}`, g.admin)).status).toBe(200);
    });

    it("a newUserId of another tenant answers 404 and deletes nothing", async () => {
      const u = await createUser(t, g.admin);
      expectError(await t.api.del(`/users/${u.id}?newUserId=${other.agent.userId}`, g.admin), 404, "ERR_USER_NOT_FOUND");
      expect((await t.api.get(`/users/${u.id}`, g.admin)).status).toBe(200);
    });

    it("a user of another tenant cannot be deleted: 404", async () => {
      expectError(await t.api.del(`/users/${other.agent.userId}?newUserId=${g.agent.userId}`, g.admin), 404, "ERR_USER_NOT_FOUND");
      expect((await t.api.get(`/users/${other.agent.userId}`, other.admin)).status).toBe(200);
    });

    it("agents and supervisors cannot delete: 403", async () => {
      const u = await createUser(t, g.admin);
      expectError(await t.api.del(`/users/${u.id}?newUserId=${g.agent.userId}`, g.supervisor), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.del(`/users/${u.id}?newUserId=${g.supervisor.userId}`, g.agent), 403, "ERR_NO_PERMISSION");
    });

    it("deletes: the user leaves the list, their session ends and login answers ERR_USER_DELETED", async () => {
      const u = await createUser(t, g.admin, { queues: [g.queueIds[0]] });
      const session = await t.api.login(u.email);
      const r = await t.api.del(`/users/${u.id}?newUserId=${g.agent.userId}`, g.admin);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: u.id, deleted: true, newUserId: g.agent.userId });
      const list = await t.api.get("/users", g.admin);
      expect(list.body.users.map((x: { id: number }) => x.id)).not.toContain(u.id);
      expectError(await t.api.get(`/users/${u.id}`, g.admin), 404, "ERR_USER_NOT_FOUND");
      expectError(await t.api.get("/users", session), 401, "ERR_USER_DELETED");
      expectError(await t.api.post("/auth/login", { email: u.email, password: PASSWORD }), 401, "ERR_USER_DELETED");
      // Deleting again answers 404.
      expectError(await t.api.del(`/users/${u.id}?newUserId=${g.agent.userId}`, g.admin), 404, "ERR_USER_NOT_FOUND");
    });

    it("an inactive heir is refused with 400 ERR_VALIDATION on newUserId, and the admin's session goes on", async () => {
      const a = await createUser(t, g.admin);
      const heir = await createUser(t, g.admin);
      expect((await t.api.put(`/users/${heir.id}`, { active: false }, g.admin)).status).toBe(200);
      const r = await t.api.del(`/users/${a.id}?newUserId=${heir.id}`, g.admin);
      expectError(r, 400, "ERR_VALIDATION");
      expect(r.body.data.field).toBe("newUserId");
      expect((await t.api.get(`/users/${a.id}`, g.admin)).status).toBe(200);
    });

    it("a deleted user cannot receive another user's tickets", async () => {
      const a = await createUser(t, g.admin);
      const b = await createUser(t, g.admin);
      expect((await t.api.del(`/users/${b.id}?newUserId=${g.agent.userId}`, g.admin)).status).toBe(200);
      expectError(await t.api.del(`/users/${a.id}?newUserId=${b.id}`, g.admin), 404, "ERR_USER_NOT_FOUND");
    });
  });

  describe("configs and LGPD consent", () => {
    let g: TenantFixture;
    beforeEach(async () => {
      g = await createTenant(t, { tier: "PLUS" });
    });

    it("PUT /users/:id/configs stores filtrosAtendimento and isDark; login returns them", async () => {
      const filtros = { searchParam: "", pageNumber: 1, status: ["open", "pending"], showAll: false, queuesIds: [g.queueIds[0]], includeNotQueueDefined: true };
      const r = await t.api.put(`/users/${g.agent.userId}/configs`, { filtrosAtendimento: filtros, isDark: true }, g.agent);
      expect(r.status).toBe(200);
      expect(r.body.configs).toEqual({ filtrosAtendimento: filtros, isDark: true });
      // A partial update keeps the rest.
      const r2 = await t.api.put(`/users/${g.agent.userId}/configs`, { isDark: false }, g.agent);
      expect(r2.body.configs).toEqual({ filtrosAtendimento: filtros, isDark: false });
      const login = await t.api.post("/auth/login", { email: g.emails.agent, password: PASSWORD });
      expect(login.status).toBe(200);
      expect(login.body.configs).toEqual({ filtrosAtendimento: filtros, isDark: false });
      expect(login.body.user.configs).toEqual({ filtrosAtendimento: filtros, isDark: false });
    });

    it("configs of someone else: 403 for an agent, 404 across tenants", async () => {
      expectError(await t.api.put(`/users/${g.admin.userId}/configs`, { isDark: true }, g.agent), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put(`/users/${other.agent.userId}/configs`, { isDark: true }, g.admin), 404, "ERR_USER_NOT_FOUND");
    });

    it("PUT /users/:id/lgpd-consent {accepted:true} records the consent", async () => {
      const before = await t.api.get(`/users/${g.agent.userId}`, g.agent);
      expect(before.body.lgpdAccepted).toBeNull();
      expect(before.body.lgpdAcceptedAt).toBeNull();
      const r = await t.api.put(`/users/${g.agent.userId}/lgpd-consent`, { accepted: true }, g.agent);
      expect(r.status).toBe(200);
      expect(r.body.lgpdAccepted).toBe(true);
      const got = await t.api.get(`/users/${g.agent.userId}`, g.agent);
      expect(got.body.lgpdAccepted).toBe(true);
      expect(Date.now() - new Date(got.body.lgpdAcceptedAt).getTime()).toBeLessThan(60_000);
      expect(got.body.lgpdAcceptedAt).toBe(r.body.lgpdAcceptedAt);
      // The session goes on.
      expect((await t.api.get("/users", g.agent)).status).toBe(200);
      const login = await t.api.post("/auth/login", { email: g.emails.agent, password: PASSWORD });
      expect(login.body.user.lgpdAccepted).toBe(true);
    });

    it("consent for someone else: 403 in the tenant, 404 across tenants", async () => {
      expectError(await t.api.put(`/users/${g.agent.userId}/lgpd-consent`, { accepted: true }, g.admin), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put(`/users/${other.agent.userId}/lgpd-consent`, { accepted: true }, g.admin), 404, "ERR_USER_NOT_FOUND");
      expect((await t.api.get(`/users/${g.agent.userId}`, g.admin)).body.lgpdAccepted).toBeNull();
    });

    it("refusing the consent records it and deactivates the account (spec §4)", async () => {
      const r = await t.api.put(`/users/${g.agent.userId}/lgpd-consent`, { accepted: false }, g.agent);
      expect(r.status).toBe(200);
      expect(r.body.lgpdAccepted).toBe(false);
      expectError(await t.api.get("/users", g.agent), 401, "ERR_USER_INACTIVE");
      expect((await t.api.get(`/users/${g.agent.userId}`, g.admin)).body).toMatchObject({ lgpdAccepted: false, active: false });
      expectError(await t.api.post("/auth/login", { email: g.emails.agent, password: PASSWORD }), 401, "ERR_USER_INACTIVE");
      // An admin can activate the account again.
      expect((await t.api.put(`/users/${g.agent.userId}`, { active: true }, g.admin)).status).toBe(200);
      expect((await t.api.post("/auth/login", { email: g.emails.agent, password: PASSWORD })).status).toBe(200);
    });
  });
});

describe("user limits on mariadb", () => {
  let t: TestCore;
  let sup: Auth;
  beforeAll(async () => {
    t = await startCore();
    sup = await createSuper(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("a FREE tenant with 3 users cannot create a 4th: 403 ERR_FREE_PLAN_USER_LIMIT, nothing written", async () => {
    const f = await createTenant(t);
    const before = await countUsers(t, f.tenantId);
    expect(before).toBe(3);
    const e = email("fourth");
    const r = await t.api.post("/users", { name: "Fourth", email: e, password: PASSWORD }, f.admin);
    expectError(r, 403, "ERR_FREE_PLAN_USER_LIMIT");
    expect(r.body.data).toMatchObject({ current: 3, max: 3 });
    expect(await countUsers(t, f.tenantId)).toBe(3);
    expect((await t.api.get("/users", f.admin)).body.count).toBe(3);
    expectError(await t.api.post("/auth/login", { email: e, password: PASSWORD }), 404, "ERR_USER_NOT_FOUND");
  });

  it("a deleted user frees a seat on the FREE plan", async () => {
    const f = await createTenant(t);
    expect((await t.api.del(`/users/${f.agent.userId}?newUserId=${f.supervisor.userId}`, f.admin)).status).toBe(200);
    expect((await t.api.post("/users", { name: "Replacement", email: email(), password: PASSWORD }, f.admin)).status).toBe(201);
    expectError(await t.api.post("/users", { name: "One more", email: email(), password: PASSWORD }, f.admin), 403, "ERR_FREE_PLAN_USER_LIMIT");
  });

  it("a PLUS tenant can create more users", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    for (let i = 0; i < 3; i++) {
      expect((await t.api.post("/users", { name: `Extra ${i}`, email: email(), password: PASSWORD }, f.admin)).status).toBe(201);
    }
    expect((await t.api.get("/users", f.admin)).body.count).toBe(6);
  });

  it("a cap set by the super level (PUT /tenants/:id {maxUsers}) answers 403 ERR_USER_LIMIT_EXCEEDED", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    const set = await t.api.put(`/tenants/${f.tenantId}`, { maxUsers: 4 }, sup);
    expect(set.status).toBe(200);
    expect(set.body.maxUsers).toBe(4);
    expect((await t.api.post("/users", { name: "Fourth", email: email(), password: PASSWORD }, f.admin)).status).toBe(201);
    const r = await t.api.post("/users", { name: "Fifth", email: email(), password: PASSWORD }, f.admin);
    expectError(r, 403, "ERR_USER_LIMIT_EXCEEDED");
    expect(r.body.data).toMatchObject({ current: 4, max: 4 });
    expect(await countUsers(t, f.tenantId)).toBe(4);
    // Lifting the cap lets the tenant grow again.
    expect((await t.api.put(`/tenants/${f.tenantId}`, { maxUsers: null }, sup)).status).toBe(200);
    expect((await t.api.post("/users", { name: "Fifth", email: email(), password: PASSWORD }, f.admin)).status).toBe(201);
  });

  it("a cap tighter than the free plan applies to a FREE tenant: ERR_USER_LIMIT_EXCEEDED", async () => {
    const f = await createTenant(t);
    expect((await t.api.put(`/tenants/${f.tenantId}`, { maxUsers: 2 }, sup)).status).toBe(200);
    const r = await t.api.post("/users", { name: "Nope", email: email(), password: PASSWORD }, f.admin);
    expectError(r, 403, "ERR_USER_LIMIT_EXCEEDED");
    expect(r.body.data).toMatchObject({ current: 3, max: 2 });
  });

  it("two concurrent creates for the last seat produce exactly one user (FREE plan)", async () => {
    for (let round = 0; round < 3; round++) {
      const f = await createTenant(t);
      expect((await t.api.del(`/users/${f.agent.userId}?newUserId=${f.supervisor.userId}`, f.admin)).status).toBe(200);
      const rs = await Promise.all([
        t.api.post("/users", { name: "Racer A", email: email("race"), password: PASSWORD }, f.admin),
        t.api.post("/users", { name: "Racer B", email: email("race"), password: PASSWORD }, f.admin),
      ]);
      expect(rs.map((r) => r.status).sort()).toEqual([201, 403]);
      expectError(rs.find((r) => r.status === 403)!, 403, "ERR_FREE_PLAN_USER_LIMIT");
      expect((await t.api.get("/users", f.admin)).body.count).toBe(3);
    }
  });

  it("two concurrent creates for the last seat produce exactly one user (tenant cap)", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    expect((await t.api.put(`/tenants/${f.tenantId}`, { maxUsers: 4 }, sup)).status).toBe(200);
    const rs = await Promise.all([
      t.api.post("/users", { name: "Racer A", email: email("race"), password: PASSWORD }, f.admin),
      t.api.post("/users", { name: "Racer B", email: email("race"), password: PASSWORD }, f.admin),
    ]);
    expect(rs.map((r) => r.status).sort()).toEqual([201, 403]);
    expectError(rs.find((r) => r.status === 403)!, 403, "ERR_USER_LIMIT_EXCEEDED");
    expect(await countUsers(t, f.tenantId)).toBe(4);
  });
});

describe("users on sqlite: create, list, delete", () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await startCore({ dialect: "sqlite" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("creates, lists (literal search), deletes", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    const other = await createTenant(t);
    const a = await createUser(t, f.admin, { name: "Zé 50% Off_x", queues: [f.queueIds[0]], phoneNumber: "+55 (11) 96666-5555" });
    expect(a.queues).toEqual([f.queueIds[0]]);
    expectError(await t.api.post("/users", { name: "Cross", email: email(), password: PASSWORD, queues: [other.queueIds[0]] }, f.admin), 404, "ERR_QUEUE_NOT_FOUND");
    expectError(await t.api.post("/users", { name: "Dup", email: a.email, password: PASSWORD }, f.admin), 409, "ERR_EMAIL_ALREADY_REGISTERED");
    expectError(await t.api.post("/users", { name: "Dup phone", email: email(), password: PASSWORD, phoneNumber: "5511966665555" }, f.admin), 409, "ERR_PHONE_ALREADY_REGISTERED");
    for (const [q, n] of [["%", 1], ["_", 1], ["'", 0], ["\\", 0], ["50% off_X", 1], ["%_", 0]] as const) {
      const r = await t.api.get(`/users?searchParam=${encodeURIComponent(q)}`, f.admin);
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(n);
    }
    const page = await t.api.get("/users?pageSize=2&pageNumber=2", f.admin);
    expect(page.body).toMatchObject({ count: 4, hasMore: false });
    expect(page.body.users.length).toBe(2);
    expectError(await t.api.del(`/users/${a.id}`, f.admin), 400, "ERR_NEW_USER_REQUIRED");
    expectError(await t.api.del(`/users/${f.admin.userId}?newUserId=${a.id}`, f.admin), 400, "ERR_CANNOT_DELETE_SELF");
    expectError(await t.api.del(`/users/${a.id}?newUserId=${other.agent.userId}`, f.admin), 404, "ERR_USER_NOT_FOUND");
    expect((await t.api.del(`/users/${a.id}?newUserId=${f.agent.userId}`, f.admin)).status).toBe(200);
    expect((await t.api.get("/users", f.admin)).body.users.map((u: { id: number }) => u.id)).not.toContain(a.id);
    expectError(await t.api.post("/auth/login", { email: a.email, password: PASSWORD }), 401, "ERR_USER_DELETED");

    const free = await createTenant(t);
    const r = await t.api.post("/users", { name: "Fourth", email: email(), password: PASSWORD }, free.admin);
    expectError(r, 403, "ERR_FREE_PLAN_USER_LIMIT");
    expect(r.body.data).toMatchObject({ current: 3, max: 3 });
    expect(await countUsers(t, free.tenantId)).toBe(3);
  });
});

describe("embedded SQLite under concurrent writes", () => {
  let t: TestCore;
  let f: TenantFixture;
  beforeAll(async () => {
    t = await startCore({ dialect: "sqlite" });
    f = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("twelve parallel user creations and queue creations all succeed (writes queue instead of failing busy)", async () => {
    const tag = uid();
    const results = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) =>
        t.api.post("/users", { name: `Burst ${i}`, email: `burst-${tag}-${i}@t.test`, password: PASSWORD, profile: "user" }, f.admin),
      ),
      ...Array.from({ length: 6 }, (_, i) => t.api.post("/queues", { name: `Fila ${tag} ${i}` }, f.admin)),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(18).fill(201));
    const list = await t.api.get(`/users?searchParam=burst-${tag}`, f.admin);
    expect(list.body.count).toBe(12);
  });
});

describe("support accounts (admin status without the admin profile)", () => {
  let t: TestCore;
  let sup: Auth & { email: string };
  let f: TenantFixture;
  beforeAll(async () => {
    t = await startCore();
    sup = await createSuper(t);
    f = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("only the platform level marks a support account, which then passes admin routes", async () => {
    const email = `support-${uid()}@t.test`;
    const refused = await t.api.post("/users", { name: "Suporte", email, password: PASSWORD, isSupport: true }, f.admin);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("ERR_NO_PERMISSION");

    const created = await t.api.post("/users", { name: "Suporte", email, password: PASSWORD, isSupport: true }, sup);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ profile: "user", isSupport: true });
    const support = await t.api.login(email);
    expect((await t.api.post("/queues", { name: `Fila ${uid()}` }, support)).status).toBe(201);

    // Taking the flag away ends the session and closes the admin routes.
    expect((await t.api.put(`/users/${created.body.id}`, { isSupport: false }, sup)).status).toBe(200);
    expect((await t.api.get("/users", support)).status).toBe(401);
    const again = await t.api.login(email);
    const denied = await t.api.post("/queues", { name: `Fila ${uid()}` }, again);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe("ERR_NO_PERMISSION");
  });
});
