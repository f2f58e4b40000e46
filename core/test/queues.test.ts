import { startCore, createTenant, TestCore, TenantFixture, Res, PASSWORD, uid } from "./helpers";

/** Status and `error` code of the API's error body `{ error, message, title, data }`. */
function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
  expect(typeof r.body.title).toBe("string");
  expect(r.body.data).toEqual(expect.any(Object));
}

type QueueView = { id: number; name: string; active: boolean };

describe("queues on mariadb", () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await startCore();
  });
  afterAll(async () => {
    await t?.stop();
  });

  describe("CRUD on a PLUS tenant", () => {
    let f: TenantFixture;
    let other: TenantFixture;
    beforeAll(async () => {
      f = await createTenant(t, { tier: "PLUS" });
      other = await createTenant(t);
    });

    it("lists the tenant's queues sorted by name, for supervisors and admins", async () => {
      for (const who of [f.admin, f.supervisor]) {
        const r = await t.api.get("/queues", who);
        expect(r.status).toBe(200);
        expect(r.body.map((q: QueueView) => [q.id, q.name, q.active])).toEqual([
          [f.queueIds[0], "Suporte", true],
          [f.queueIds[1], "Vendas", true],
        ]);
      }
      const inactive = await t.api.get("/queues?active=false", f.admin);
      expect(inactive.body).toEqual([]);
    });

    it("an admin creates, gets, renames, deactivates and deletes a queue", async () => {
      const name = `Financeiro ${uid()}`;
      const c = await t.api.post("/queues", { name: `  ${name}  ` }, f.admin);
      expect(c.status).toBe(201);
      expect(c.body).toMatchObject({ name, active: true });
      const id = c.body.id as number;
      expect((await t.api.get(`/queues/${id}`, f.supervisor)).body).toMatchObject({ id, name });
      // An agent who is not in the queue does not see it.
      expect((await t.api.get(`/queues/${id}`, f.agent)).status).toBe(404);
      const u = await t.api.put(`/queues/${id}`, { name: `${name} 2`, active: false }, f.admin);
      expect(u.status).toBe(200);
      expect(u.body).toMatchObject({ id, name: `${name} 2`, active: false });
      expect((await t.api.get("/queues?active=false", f.admin)).body.map((q: QueueView) => q.id)).toEqual([id]);
      const d = await t.api.del(`/queues/${id}`, f.admin);
      expect(d.status).toBe(200);
      expect(d.body).toMatchObject({ id, deleted: true });
      expectError(await t.api.get(`/queues/${id}`, f.admin), 404, "ERR_QUEUE_NOT_FOUND");
      expect((await t.api.get("/queues", f.admin)).body.map((q: QueueView) => q.id)).not.toContain(id);
    });

    it("a PLUS tenant may have several active queues", async () => {
      const a = await t.api.post("/queues", { name: `Ativa A ${uid()}` }, f.admin);
      const b = await t.api.post("/queues", { name: `Ativa B ${uid()}`, active: true }, f.admin);
      expect([a.status, b.status]).toEqual([201, 201]);
      const off = await t.api.post("/queues", { name: `Off ${uid()}`, active: false }, f.admin);
      expect((await t.api.put(`/queues/${off.body.id}`, { active: true }, f.admin)).status).toBe(200);
      expect((await t.api.get("/queues?active=true", f.admin)).body.length).toBeGreaterThanOrEqual(5);
    });

    it("a duplicate name answers 409 on create and on rename", async () => {
      expectError(await t.api.post("/queues", { name: "Suporte" }, f.admin), 409, "ERR_CONFLICT");
      const c = await t.api.post("/queues", { name: `Dup ${uid()}` }, f.admin);
      const r = await t.api.put(`/queues/${c.body.id}`, { name: "Vendas" }, f.admin);
      expectError(r, 409, "ERR_CONFLICT");
      expect((await t.api.get(`/queues/${c.body.id}`, f.admin)).body.name).toBe(c.body.name);
      // The same name in another tenant is fine.
      const o = await t.api.post("/queues", { name: c.body.name, active: false }, other.admin);
      expect(o.status).toBe(201);
    });

    it("refuses an empty name with ERR_VALIDATION", async () => {
      const r = await t.api.post("/queues", { name: "" }, f.admin);
      expectError(r, 400, "ERR_VALIDATION");
      expect(r.body.data.field).toBe("name");
    });

    it("agents and supervisors get 403 ERR_NO_PERMISSION on writes", async () => {
      for (const who of [f.agent, f.supervisor]) {
        expectError(await t.api.post("/queues", { name: `Nope ${uid()}` }, who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.put(`/queues/${f.queueIds[0]}`, { name: "Hacked" }, who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.del(`/queues/${f.queueIds[0]}`, who), 403, "ERR_NO_PERMISSION");
      }
      expect((await t.api.get(`/queues/${f.queueIds[0]}`, f.admin)).body).toMatchObject({ name: "Suporte", active: true });
    });

    it("another tenant's queue id answers 404 ERR_QUEUE_NOT_FOUND on get, update and delete", async () => {
      const id = other.queueIds[0];
      expectError(await t.api.get(`/queues/${id}`, f.admin), 404, "ERR_QUEUE_NOT_FOUND");
      expectError(await t.api.put(`/queues/${id}`, { name: "Stolen" }, f.admin), 404, "ERR_QUEUE_NOT_FOUND");
      expectError(await t.api.del(`/queues/${id}`, f.admin), 404, "ERR_QUEUE_NOT_FOUND");
      expect((await t.api.get(`/queues/${id}`, other.admin)).body).toMatchObject({ id, name: "Suporte" });
    });

    it("deleting a queue removes it from its users' queues", async () => {
      const q = await t.api.post("/queues", { name: `Temp ${uid()}` }, f.admin);
      const u = await t.api.post("/users", { name: "Member", email: `member-${uid()}@t.test`, password: PASSWORD, queues: [f.queueIds[0], q.body.id] }, f.admin);
      expect(u.status).toBe(201);
      expect((await t.api.del(`/queues/${q.body.id}`, f.admin)).status).toBe(200);
      expect((await t.api.get(`/users/${u.body.id}`, f.admin)).body.queues).toEqual([f.queueIds[0]]);
      const login = await t.api.post("/auth/login", { email: u.body.email, password: PASSWORD });
      expect(login.body.queues).toEqual([f.queueIds[0]]);
      // …and the user can be saved again with their remaining queues.
      expect((await t.api.put(`/users/${u.body.id}`, { queues: login.body.queues }, f.admin)).status).toBe(200);
    });
  });

  describe("free plan: one active queue", () => {
    let f: TenantFixture;
    beforeEach(async () => {
      f = await createTenant(t);
    });

    it("the fixture has Suporte active and Vendas inactive", async () => {
      const r = await t.api.get("/queues", f.admin);
      expect(r.body.map((q: QueueView) => [q.name, q.active])).toEqual([
        ["Suporte", true],
        ["Vendas", false],
      ]);
    });

    it("creating an active queue answers 403 ERR_FREE_PLAN_QUEUE_LIMIT and writes nothing", async () => {
      for (const body of [{ name: "Extra" }, { name: "Extra", active: true }]) {
        const r = await t.api.post("/queues", body, f.admin);
        expectError(r, 403, "ERR_FREE_PLAN_QUEUE_LIMIT");
        expect(r.body.data).toMatchObject({ current: 1, max: 1 });
      }
      expect((await t.api.get("/queues", f.admin)).body.length).toBe(2);
    });

    it("creating an inactive queue works; activating it answers 403 ERR_FREE_PLAN_QUEUE_LIMIT", async () => {
      const c = await t.api.post("/queues", { name: "Inativa", active: false }, f.admin);
      expect(c.status).toBe(201);
      expect(c.body.active).toBe(false);
      const r = await t.api.put(`/queues/${c.body.id}`, { active: true }, f.admin);
      expectError(r, 403, "ERR_FREE_PLAN_QUEUE_LIMIT");
      expect((await t.api.get(`/queues/${c.body.id}`, f.admin)).body.active).toBe(false);
      const v = await t.api.put(`/queues/${f.queueIds[1]}`, { active: true, name: "Vendas 2" }, f.admin);
      expectError(v, 403, "ERR_FREE_PLAN_QUEUE_LIMIT");
      expect((await t.api.get(`/queues/${f.queueIds[1]}`, f.admin)).body).toMatchObject({ name: "Vendas", active: false });
    });

    it("renaming the active queue is not an activation", async () => {
      const r = await t.api.put(`/queues/${f.queueIds[0]}`, { name: "Atendimento", active: true }, f.admin);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ name: "Atendimento", active: true });
    });

    it("deactivating the active queue frees the slot for another", async () => {
      expect((await t.api.put(`/queues/${f.queueIds[0]}`, { active: false }, f.admin)).status).toBe(200);
      const r = await t.api.put(`/queues/${f.queueIds[1]}`, { active: true }, f.admin);
      expect(r.status).toBe(200);
      expect(r.body.active).toBe(true);
      expectError(await t.api.put(`/queues/${f.queueIds[0]}`, { active: true }, f.admin), 403, "ERR_FREE_PLAN_QUEUE_LIMIT");
    });

    it("two concurrent activations or creations for the one slot: exactly one wins", async () => {
      for (let round = 0; round < 3; round++) {
        const g = round === 0 ? f : await createTenant(t);
        expect((await t.api.put(`/queues/${g.queueIds[0]}`, { active: false }, g.admin)).status).toBe(200);
        const rs = await Promise.all([
          t.api.put(`/queues/${g.queueIds[0]}`, { active: true }, g.admin),
          t.api.put(`/queues/${g.queueIds[1]}`, { active: true }, g.admin),
          t.api.post("/queues", { name: `Racer ${uid()}` }, g.admin),
        ]);
        const won = rs.filter((r) => r.status === 200 || r.status === 201);
        expect(won.length).toBe(1);
        for (const r of rs.filter((x) => !won.includes(x))) expectError(r, 403, "ERR_FREE_PLAN_QUEUE_LIMIT");
        expect((await t.api.get("/queues?active=true", g.admin)).body.length).toBe(1);
      }
    });
  });
});

describe("queue visibility (spec §6: users see only queues they belong to)", () => {
  let t: TestCore;
  let f: TenantFixture;
  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("an agent lists only their own queues; supervisors and admins list all", async () => {
    const agent = await t.api.get("/queues", f.agent);
    expect(agent.status).toBe(200);
    expect(agent.body.map((q: { id: number }) => q.id)).toEqual([f.queueIds[0]]);
    const sup = await t.api.get("/queues", f.supervisor);
    expect(sup.body.map((q: { id: number }) => q.id).sort()).toEqual([...f.queueIds].sort());
    const admin = await t.api.get("/queues", f.admin);
    expect(admin.body).toHaveLength(2);
  });

  it("transfer targets: an agent gets every active queue of the tenant by id and name (not other tenants', not inactive ones)", async () => {
    const other = await createTenant(t, { tier: "PLUS" });
    const off = await t.api.post("/queues", { name: `Arquivo ${uid()}`, active: false }, f.admin);
    expect(off.status).toBe(201);
    const r = await t.api.get("/queues?transfer=true", f.agent);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { id: f.queueIds[0], name: "Suporte", active: true },
      { id: f.queueIds[1], name: "Vendas", active: true },
    ]);
    expect(r.body.map((q: { id: number }) => q.id)).not.toContain(other.queueIds[0]);
    // Without the flag the agent still lists only their own queues.
    expect((await t.api.get("/queues", f.agent)).body.map((q: { id: number }) => q.id)).toEqual([f.queueIds[0]]);
  });
});
