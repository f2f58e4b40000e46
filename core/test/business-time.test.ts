/**
 * Business time's routes on MariaDB (core/src/business-time): the global schedule, schedules by
 * queue, user and connection, and holidays — each route's answers, every validation code, admin
 * only, and another tenant's ids answering 404. The state answers, availability and the plugin
 * core API are in business-time-state.test.ts.
 */
import { startCore, createTenant, uid, type TestCore, type TenantFixture, type Res } from "./helpers";

function expectError(r: Res, status: number, code: string, data?: Record<string, unknown>) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
  if (data) expect(r.body.data).toMatchObject(data);
}

const open = () => ({ mode: "open" });
const closed = () => ({ mode: "closed" });
const specific = (m: [string, string] | null, a: [string, string] | null) => ({
  mode: "specific",
  morning: m ? { start: m[0], end: m[1] } : null,
  afternoon: a ? { start: a[0], end: a[1] } : null,
});
const week = (d: Record<string, unknown>) => Array.from({ length: 7 }, () => d);

async function connectionOf(t: TestCore, f: TenantFixture): Promise<number> {
  const c = await t.api.post("/connections", { name: `BT ${uid()}`, type: "channel-webchat" }, f.admin);
  if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
  return c.body.id;
}

describe("business time routes on mariadb", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  beforeAll(async () => {
    t = await startCore();
    [a, b] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
  });
  afterAll(async () => {
    await t?.stop();
  });

  describe("the global schedule", () => {
    it("answers the default until saved: Monday to Friday 08:00–12:00 and 13:00–18:00, weekend closed, inactive", async () => {
      const r = await t.api.get("/business-hours/global", b.admin);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: null, type: "global", name: "", active: false, targetIds: [], messages: { outOfHours: null, holiday: null, lunch: null } });
      expect(r.body.days).toHaveLength(7);
      expect(r.body.days[0]).toEqual({ mode: "closed", morning: null, afternoon: null });
      expect(r.body.days[6]).toEqual({ mode: "closed", morning: null, afternoon: null });
      for (const d of r.body.days.slice(1, 6)) expect(d).toEqual(specific(["08:00", "12:00"], ["13:00", "18:00"]));
    });

    it("is saved once per tenant (PUT upserts), messages trimmed and empty ones null", async () => {
      const days = [closed(), ...Array.from({ length: 5 }, () => specific(["09:00", "12:00"], ["13:30", "18:00"])), specific(["09:00", "13:00"], null)];
      const first = await t.api.put("/business-hours/global", { active: true, days, messages: { outOfHours: "  Fechado agora. ", holiday: "", lunch: null } }, a.admin);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ type: "global", active: true, days, messages: { outOfHours: "Fechado agora.", holiday: null, lunch: null } });
      expect(first.body.id).toEqual(expect.any(Number));
      const second = await t.api.put("/business-hours/global", { name: "Matriz", active: false, days, messages: { lunch: "Almoço" } }, a.admin);
      expect(second.body).toMatchObject({ id: first.body.id, name: "Matriz", active: false, messages: { outOfHours: null, lunch: "Almoço" } });
      const read = await t.api.get("/business-hours/global", a.admin);
      expect(read.body).toMatchObject({ id: first.body.id, name: "Matriz", active: false, days });
      // Another tenant still has its default.
      expect((await t.api.get("/business-hours/global", b.admin)).body.id).toBeNull();
      // The global row is not among the schedules by target, nor reachable by id.
      expect((await t.api.get("/business-hours", a.admin)).body.map((h: { id: number }) => h.id)).not.toContain(first.body.id);
      expectError(await t.api.put(`/business-hours/${first.body.id}`, { name: "x" }, a.admin), 404, "ERR_BUSINESS_HOURS_NOT_FOUND");
      expectError(await t.api.del(`/business-hours/${first.body.id}`, a.admin), 404, "ERR_BUSINESS_HOURS_NOT_FOUND");
    });

    it("refuses hours that make no sense, naming the day", async () => {
      const reversed = [closed(), specific(["12:00", "08:00"], null), closed(), closed(), closed(), closed(), closed()];
      expectError(await t.api.put("/business-hours/global", { active: true, days: reversed, messages: {} }, a.admin), 400, "ERR_BUSINESS_HOURS_INVALID_RANGE", { day: 1, problem: "order" });
      const overlap = [closed(), closed(), closed(), specific(["08:00", "13:00"], ["12:00", "18:00"]), closed(), closed(), closed()];
      expectError(await t.api.put("/business-hours/global", { active: true, days: overlap, messages: {} }, a.admin), 400, "ERR_BUSINESS_HOURS_INVALID_RANGE", { day: 3 });
      const empty = [closed(), closed(), specific(null, null), closed(), closed(), closed(), closed()];
      expectError(await t.api.put("/business-hours/global", { active: true, days: empty, messages: {} }, a.admin), 400, "ERR_BUSINESS_HOURS_INVALID_RANGE", { day: 2, problem: "empty" });
      expectError(await t.api.put("/business-hours/global", { active: true, days: week(open()).slice(0, 6), messages: {} }, a.admin), 400, "ERR_VALIDATION", { field: "days" });
      expectError(await t.api.put("/business-hours/global", { active: true, days: week(specific(["8:00", "12:00"], null)), messages: {} }, a.admin), 400, "ERR_VALIDATION");
      expectError(await t.api.put("/business-hours/global", { active: true, days: week({ mode: "sometimes" }), messages: {} }, a.admin), 400, "ERR_VALIDATION");
    });

    it("is the admins': agents and supervisors get ERR_NO_PERMISSION", async () => {
      for (const who of [a.agent, a.supervisor]) {
        expectError(await t.api.get("/business-hours/global", who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.put("/business-hours/global", { active: true, days: week(open()), messages: {} }, who), 403, "ERR_NO_PERMISSION");
      }
    });
  });

  describe("schedules by queue, user and connection", () => {
    it("are created, listed by type with their targets' names, changed and deleted", async () => {
      const created = await t.api.post(
        "/business-hours",
        { name: "Suporte", type: "queue", targetIds: [a.queueIds[0], a.queueIds[0]], days: week(specific(["08:00", "12:00"], ["13:00", "17:00"])), messages: { outOfHours: "Suporte fechado" } },
        a.admin,
      );
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: "Suporte", type: "queue", targetIds: [a.queueIds[0]], targets: [{ id: a.queueIds[0], name: "Suporte" }], active: true });
      const id = created.body.id as number;

      const byUser = await t.api.post("/business-hours", { name: "Agente", type: "user", targetIds: [a.agent.userId], days: week(open()) }, a.admin);
      expect(byUser.status).toBe(201);
      expect(byUser.body.targets).toEqual([{ id: a.agent.userId, name: "Agent" }]);
      const conn = await connectionOf(t, a);
      const byConn = await t.api.post("/business-hours", { name: "Canal", type: "whatsapp", targetIds: [conn], days: week(closed()) }, a.admin);
      expect(byConn.status).toBe(201);

      const queues = await t.api.get("/business-hours?type=queue", a.admin);
      expect(queues.body.map((h: { id: number }) => h.id)).toEqual([id]);
      const all = await t.api.get("/business-hours", a.admin);
      expect(all.body.map((h: { id: number }) => h.id).sort()).toEqual([id, byUser.body.id, byConn.body.id].sort());
      expect((await t.api.get("/business-hours", b.admin)).body).toEqual([]);

      const changed = await t.api.put(`/business-hours/${id}`, { name: "Suporte N1", targetIds: a.queueIds, active: false, messages: { lunch: "Almoço" } }, a.admin);
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ id, name: "Suporte N1", targetIds: [...a.queueIds].sort((x, y) => x - y), active: false, messages: { outOfHours: null, lunch: "Almoço" } });
      expect(changed.body.days).toEqual(created.body.days);

      const removed = await t.api.del(`/business-hours/${id}`, a.admin);
      expect(removed.body).toEqual({ id, deleted: true });
      expectError(await t.api.put(`/business-hours/${id}`, { name: "x" }, a.admin), 404, "ERR_BUSINESS_HOURS_NOT_FOUND");
      for (const x of [byUser.body.id, byConn.body.id]) expect((await t.api.del(`/business-hours/${x}`, a.admin)).status).toBe(200);
    });

    it("need a type (global only through /global) and, by type, targets of the tenant", async () => {
      const body = { name: "X", type: "queue", targetIds: [a.queueIds[0]], days: week(open()) };
      const { type: _omit, ...noType } = body;
      expectError(await t.api.post("/business-hours", noType, a.admin), 400, "ERR_VALIDATION", { field: "type" });
      expectError(await t.api.post("/business-hours", { ...body, type: "global" }, a.admin), 400, "ERR_VALIDATION", { field: "type" });
      expectError(await t.api.post("/business-hours", { ...body, name: "" }, a.admin), 400, "ERR_VALIDATION", { field: "name" });
      expectError(await t.api.post("/business-hours", { ...body, targetIds: [] }, a.admin), 400, "ERR_BUSINESS_HOURS_TARGET_REQUIRED", { field: "targetIds" });
      expectError(await t.api.post("/business-hours", { ...body, targetIds: [b.queueIds[0]] }, a.admin), 404, "ERR_QUEUE_NOT_FOUND", { ids: [b.queueIds[0]] });
      expectError(await t.api.post("/business-hours", { ...body, type: "user", targetIds: [a.agent.userId, b.agent.userId] }, a.admin), 404, "ERR_USER_NOT_FOUND", { ids: [b.agent.userId] });
      const bConn = await connectionOf(t, b);
      expectError(await t.api.post("/business-hours", { ...body, type: "whatsapp", targetIds: [bConn] }, a.admin), 404, "ERR_CONNECTION_NOT_FOUND", { ids: [bConn] });
      expectError(await t.api.post("/business-hours", { ...body, days: week(specific(["18:00", "09:00"], null)) }, a.admin), 400, "ERR_BUSINESS_HOURS_INVALID_RANGE", { day: 0 });
      expectError(await t.api.post("/business-hours", { ...body, days: [open()] }, a.admin), 400, "ERR_VALIDATION", { field: "days" });
      // Nothing was stored by the refused calls.
      expect((await t.api.get("/business-hours", a.admin)).body).toEqual([]);
    });

    it("a target is covered by one active schedule of its type: another is ERR_BUSINESS_HOURS_CONFLICT", async () => {
      const body = { name: "Vendas", type: "queue", targetIds: [a.queueIds[1]], days: week(open()) };
      const first = await t.api.post("/business-hours", body, a.admin);
      expect(first.status).toBe(201);
      expectError(await t.api.post("/business-hours", { ...body, name: "Vendas 2", targetIds: [a.queueIds[0], a.queueIds[1]] }, a.admin), 409, "ERR_BUSINESS_HOURS_CONFLICT", {
        ids: [a.queueIds[1]],
        scheduleId: first.body.id,
      });
      // An inactive one may cover it; switching it on conflicts, as does moving another onto it.
      const idle = await t.api.post("/business-hours", { ...body, name: "Vendas (reserva)", active: false }, a.admin);
      expect(idle.status).toBe(201);
      expectError(await t.api.put(`/business-hours/${idle.body.id}`, { active: true }, a.admin), 409, "ERR_BUSINESS_HOURS_CONFLICT");
      const other = await t.api.post("/business-hours", { ...body, name: "Suporte", targetIds: [a.queueIds[0]] }, a.admin);
      expect(other.status).toBe(201);
      expectError(await t.api.put(`/business-hours/${other.body.id}`, { targetIds: [a.queueIds[1]] }, a.admin), 409, "ERR_BUSINESS_HOURS_CONFLICT");
      // A schedule saved again over its own targets is no conflict.
      expect((await t.api.put(`/business-hours/${first.body.id}`, { name: "Vendas SP" }, a.admin)).status).toBe(200);
      // Once the first is off, the reserve takes over.
      expect((await t.api.put(`/business-hours/${first.body.id}`, { active: false }, a.admin)).status).toBe(200);
      expect((await t.api.put(`/business-hours/${idle.body.id}`, { active: true }, a.admin)).body.active).toBe(true);
      for (const x of [first.body.id, idle.body.id, other.body.id]) await t.api.del(`/business-hours/${x}`, a.admin);
    });

    it("another tenant's schedule is not found; non-admins are refused", async () => {
      const mine = await t.api.post("/business-hours", { name: "A", type: "queue", targetIds: [a.queueIds[0]], days: week(open()) }, a.admin);
      expectError(await t.api.put(`/business-hours/${mine.body.id}`, { name: "B's now" }, b.admin), 404, "ERR_BUSINESS_HOURS_NOT_FOUND");
      expectError(await t.api.del(`/business-hours/${mine.body.id}`, b.admin), 404, "ERR_BUSINESS_HOURS_NOT_FOUND");
      for (const who of [a.agent, a.supervisor]) {
        expectError(await t.api.get("/business-hours", who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.post("/business-hours", { name: "A", type: "queue", targetIds: [a.queueIds[1]], days: week(open()) }, who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.put(`/business-hours/${mine.body.id}`, { name: "x" }, who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.del(`/business-hours/${mine.body.id}`, who), 403, "ERR_NO_PERMISSION");
      }
      const still = await t.api.get("/business-hours", a.admin);
      expect(still.body).toEqual([expect.objectContaining({ id: mine.body.id, name: "A" })]);
      await t.api.del(`/business-hours/${mine.body.id}`, a.admin);
    });

    it("a deleted queue leaves the schedules' targets; a schedule left with none is switched off", async () => {
      const q = (await t.core.broker.call("queues.createInternal", { tenantId: a.tenantId, name: `Temp ${uid()}` })) as { id: number };
      const s = await t.api.post("/business-hours", { name: "Temp", type: "queue", targetIds: [q.id], days: week(open()) }, a.admin);
      const h = await t.api.post("/holidays", { date: "2026-03-01", description: "Temp", type: "queue", targetIds: [q.id, a.queueIds[0]] }, a.admin);
      expect((await t.api.del(`/queues/${q.id}`, a.admin)).status).toBe(200);
      const read = async () => (await t.api.get("/business-hours?type=queue", a.admin)).body.find((x: { id: number }) => x.id === s.body.id);
      for (let i = 0; i < 50 && (await read()).targetIds.length; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await read()).toMatchObject({ targetIds: [], active: false });
      const hol = (await t.api.get("/holidays?year=2026", a.admin)).body.find((x: { id: number }) => x.id === h.body.id);
      expect(hol.targetIds).toEqual([a.queueIds[0]]);
      await t.api.del(`/business-hours/${s.body.id}`, a.admin);
      await t.api.del(`/holidays/${h.body.id}`, a.admin);
    });

    it("a deleted user takes their availability and leaves the user schedules; a deleted connection leaves its schedules", async () => {
      const u = (await t.core.broker.call("users.createInternal", { tenantId: a.tenantId, name: "Temp", email: `temp-${uid()}@t.test`, password: "Secret123", profile: "user" })) as { id: number };
      expect((await t.api.put(`/availability/${u.id}`, { days: [[], [{ kind: "morning" }], [], [], [], [], []] }, a.admin)).status).toBe(200);
      const s = await t.api.post("/business-hours", { name: "Temp e agente", type: "user", targetIds: [u.id, a.agent.userId], days: week(open()) }, a.admin);
      const conn = await connectionOf(t, a);
      const c = await t.api.post("/business-hours", { name: "Canal", type: "whatsapp", targetIds: [conn], days: week(open()) }, a.admin);
      expect((await t.api.del(`/users/${u.id}?newUserId=${a.admin.userId}`, a.admin)).status).toBe(200);
      const conf = await t.api.get(`/connections/${conn}`, a.admin);
      expect((await t.api.call("DELETE", `/connections/${conn}`, { confirmation: conf.body.name }, a.admin)).status).toBe(200);
      const byId = async (id: number) => (await t.api.get("/business-hours", a.admin)).body.find((x: { id: number }) => x.id === id);
      for (let i = 0; i < 50 && ((await byId(s.body.id)).targetIds.length > 1 || (await byId(c.body.id)).targetIds.length); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await byId(s.body.id)).toMatchObject({ targetIds: [a.agent.userId], active: true });
      expect(await byId(c.body.id)).toMatchObject({ targetIds: [], active: false });
      expect(await t.core.broker.call("businessTime.availability", { tenantId: a.tenantId, userId: u.id })).toBeNull();
      for (const x of [s.body.id, c.body.id]) await t.api.del(`/business-hours/${x}`, a.admin);
    });
  });

  describe("holidays", () => {
    it("are created, listed by year (yearly ones in every year), changed and deleted", async () => {
      const natal = await t.api.post("/holidays", { date: "2025-12-25", description: "Natal", yearly: true, message: "Feliz Natal!" }, a.admin);
      expect(natal.status).toBe(201);
      expect(natal.body).toMatchObject({ date: "2025-12-25", description: "Natal", type: "global", targetIds: [], yearly: true, message: "Feliz Natal!" });
      const carnaval = await t.api.post("/holidays", { date: "2026-02-17", description: "Carnaval", type: "queue", targetIds: [a.queueIds[0]] }, a.admin);
      expect(carnaval.status).toBe(201);
      expect(carnaval.body).toMatchObject({ type: "queue", targetIds: [a.queueIds[0]], targets: [{ id: a.queueIds[0], name: "Suporte" }], yearly: false, message: null });
      const old = await t.api.post("/holidays", { date: "2024-11-15", description: "República", type: "user", targetIds: [a.agent.userId] }, a.admin);
      expect(old.status).toBe(201);

      const y2026 = await t.api.get("/holidays?year=2026", a.admin);
      expect(y2026.body.map((h: { description: string }) => h.description)).toEqual(["Carnaval", "Natal"]);
      const y2024 = await t.api.get("/holidays?year=2024", a.admin);
      expect(y2024.body.map((h: { description: string }) => h.description)).toEqual(["República", "Natal"]);
      expect((await t.api.get("/holidays", a.admin)).body).toHaveLength(3);
      expect((await t.api.get("/holidays", b.admin)).body).toEqual([]);

      const moved = await t.api.put(`/holidays/${carnaval.body.id}`, { date: "2026-02-16", description: "Carnaval (segunda)", type: "global", message: "  " }, a.admin);
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ id: carnaval.body.id, date: "2026-02-16", description: "Carnaval (segunda)", type: "global", targetIds: [], message: null });

      for (const h of [natal, carnaval, old]) expect((await t.api.del(`/holidays/${h.body.id}`, a.admin)).body).toEqual({ id: h.body.id, deleted: true });
      expect((await t.api.get("/holidays", a.admin)).body).toEqual([]);
      expectError(await t.api.del(`/holidays/${natal.body.id}`, a.admin), 404, "ERR_HOLIDAY_NOT_FOUND");
    });

    it("need a date and a description; targets by type", async () => {
      expectError(await t.api.post("/holidays", { description: "Sem data" }, a.admin), 400, "ERR_VALIDATION", { field: "date" });
      expectError(await t.api.post("/holidays", { date: "2026-04-21" }, a.admin), 400, "ERR_VALIDATION", { field: "description" });
      expectError(await t.api.post("/holidays", { date: "2026-04-21", description: "   " }, a.admin), 400, "ERR_VALIDATION", { field: "description" });
      expectError(await t.api.post("/holidays", { date: "2026-02-30", description: "Nunca" }, a.admin), 400, "ERR_VALIDATION", { field: "date" });
      expectError(await t.api.post("/holidays", { date: "21/04/2026", description: "Tiradentes" }, a.admin), 400, "ERR_VALIDATION", { field: "date" });
      expectError(await t.api.post("/holidays", { date: "2026-04-21", description: "Tiradentes", type: "queue" }, a.admin), 400, "ERR_BUSINESS_HOURS_TARGET_REQUIRED");
      expectError(await t.api.post("/holidays", { date: "2026-04-21", description: "Tiradentes", type: "queue", targetIds: [b.queueIds[0]] }, a.admin), 404, "ERR_QUEUE_NOT_FOUND");
      expectError(await t.api.post("/holidays", { date: "2026-04-21", description: "Tiradentes", type: "holiday" }, a.admin), 400, "ERR_VALIDATION", { field: "type" });
      expect((await t.api.get("/holidays", a.admin)).body).toEqual([]);
    });

    it("another tenant's holiday is not found; non-admins are refused", async () => {
      const h = await t.api.post("/holidays", { date: "2026-09-07", description: "Independência" }, a.admin);
      expectError(await t.api.put(`/holidays/${h.body.id}`, { description: "B" }, b.admin), 404, "ERR_HOLIDAY_NOT_FOUND");
      expectError(await t.api.del(`/holidays/${h.body.id}`, b.admin), 404, "ERR_HOLIDAY_NOT_FOUND");
      for (const who of [a.agent, a.supervisor]) {
        expectError(await t.api.get("/holidays?year=2026", who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.post("/holidays", { date: "2026-10-12", description: "x" }, who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.put(`/holidays/${h.body.id}`, { description: "x" }, who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.del(`/holidays/${h.body.id}`, who), 403, "ERR_NO_PERMISSION");
      }
      expect((await t.api.get("/holidays", a.admin)).body).toEqual([expect.objectContaining({ id: h.body.id, description: "Independência" })]);
      await t.api.del(`/holidays/${h.body.id}`, a.admin);
    });
  });
});
