/**
 * "Is it open now" through the business-time service on MariaDB, driven by the core's TestClock:
 * the global schedule (open, lunch, closed with its message and next opening), holidays, the
 * precedence user > queue > connection > global with the messages' fall-back, the cache
 * forgetting every write and a new time zone at once; and users' availability.
 */
import { TestClock } from "../src/lib/clock";
import { startCore, createTenant, createSuper, uid, type TestCore, type TenantFixture, type Res, type Auth } from "./helpers";

function expectError(r: Res, status: number, code: string, data?: Record<string, unknown>) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  if (data) expect(r.body.data).toMatchObject(data);
}

const specific = (m: [string, string] | null, a: [string, string] | null) => ({
  mode: "specific",
  morning: m ? { start: m[0], end: m[1] } : null,
  afternoon: a ? { start: a[0], end: a[1] } : null,
});
const week = (d: Record<string, unknown>) => Array.from({ length: 7 }, () => d);
const officeWeek = () => [{ mode: "closed" }, ...Array.from({ length: 5 }, () => specific(["08:00", "12:00"], ["13:00", "18:00"])), { mode: "closed" }];

/** Local times in São Paulo (UTC-3 all year since 2019): 2026-01-05 is a Monday. */
const sp = (date: string, time: string) => Date.parse(`${date}T${time}:00-03:00`);

describe("business time state and availability on mariadb", () => {
  const clock = new TestClock(sp("2026-01-05", "10:00"));
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let sup: Auth;
  let connA: number;
  let connB: number;
  let globalId: number;

  const state = async (query: string, who: Auth = a.agent) => {
    const r = await t.api.get(`/business-hours/state${query ? `?${query}` : ""}`, who);
    if (r.status !== 200) throw new Error(`state: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const connection = async (f: TenantFixture) => {
    const c = await t.api.post("/connections", { name: `BT ${uid()}`, type: "channel-webchat" }, f.admin);
    if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
    return c.body.id as number;
  };

  beforeAll(async () => {
    t = await startCore({ clock });
    [a, b] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
    sup = await createSuper(t);
    [connA, connB] = await Promise.all([connection(a), connection(b)]);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("with no schedule it is always open (unscheduled)", async () => {
    expect(await state("")).toMatchObject({ open: true, reason: "unscheduled", scheduleId: null, message: null, period: null, nextOpenAt: null, openWithin24h: true });
    // An inactive global schedule decides nothing either.
    expect((await t.api.put("/business-hours/global", { active: false, days: officeWeek(), messages: { outOfHours: "Fora" } }, a.admin)).status).toBe(200);
    clock.set(sp("2026-01-05", "20:00"));
    expect(await state("")).toMatchObject({ open: true, reason: "unscheduled" });
  });

  it("the global schedule: open, lunch and closed with its messages and next opening, as the clock moves", async () => {
    const g = await t.api.put(
      "/business-hours/global",
      { active: true, days: officeWeek(), messages: { outOfHours: "Estamos fora do horário.", lunch: "Saímos para o almoço.", holiday: "Hoje é feriado." } },
      a.admin,
    );
    globalId = g.body.id;
    // The write is seen at once (the cache forgot the tenant): Monday 20:00 is closed now.
    const night = await state("");
    expect(night).toMatchObject({ open: false, reason: "closed", message: "Estamos fora do horário.", scheduleId: globalId, holidayId: null, nextDayHasHours: true, openWithin24h: true });
    expect(night.nextOpenAt).toBe(sp("2026-01-06", "08:00"));
    expect(night.period).toBe(night.nextOpenAt);

    clock.set(sp("2026-01-06", "10:00"));
    expect(await state("")).toMatchObject({ open: true, reason: "open", message: null, scheduleId: globalId, period: null, nextOpenAt: null });

    clock.set(sp("2026-01-06", "12:30"));
    const lunch = await state("");
    expect(lunch).toMatchObject({ open: false, reason: "lunch", message: "Saímos para o almoço.", nextOpenAt: sp("2026-01-06", "13:00") });

    // Friday night: nothing until Monday 08:00 (smart close's answers).
    clock.set(sp("2026-01-09", "20:00"));
    expect(await state("")).toMatchObject({ open: false, reason: "closed", nextOpenAt: sp("2026-01-12", "08:00"), openWithin24h: false, nextDayHasHours: false });
  });

  it("a holiday closes its day with its own message, else the schedule's holiday message", async () => {
    clock.set(sp("2026-01-13", "10:00")); // a Tuesday
    const reis = await t.api.post("/holidays", { date: "2026-01-13", description: "Dia de Reis (local)", message: "Fechados pelo feriado local." }, a.admin);
    expect(reis.status).toBe(201);
    expect(await state("")).toMatchObject({ open: false, reason: "holiday", message: "Fechados pelo feriado local.", holidayId: reis.body.id, nextOpenAt: sp("2026-01-14", "08:00") });
    expect((await t.api.put(`/holidays/${reis.body.id}`, { message: null }, a.admin)).status).toBe(200);
    expect(await state("")).toMatchObject({ reason: "holiday", message: "Hoje é feriado." });
    // A holiday of one queue closes that queue only.
    expect((await t.api.put(`/holidays/${reis.body.id}`, { type: "queue", targetIds: [a.queueIds[0]] }, a.admin)).status).toBe(200);
    expect(await state(`queueId=${a.queueIds[0]}`)).toMatchObject({ reason: "holiday" });
    expect(await state(`queueId=${a.queueIds[1]}`)).toMatchObject({ open: true, reason: "open" });
    // Deleted, the day is open again.
    expect((await t.api.del(`/holidays/${reis.body.id}`, a.admin)).status).toBe(200);
    expect(await state(`queueId=${a.queueIds[0]}`)).toMatchObject({ open: true });
  });

  it("precedence: the user's schedule, then the queue's, then the connection's, then the global one; messages fall back to the global ones", async () => {
    clock.set(sp("2026-01-14", "20:00")); // Wednesday night: the global schedule is closed
    const queue = await t.api.post("/business-hours", { name: "Plantão", type: "queue", targetIds: [a.queueIds[0]], days: week({ mode: "open" }) }, a.admin);
    const conn = await t.api.post(
      "/business-hours",
      { name: "Site", type: "whatsapp", targetIds: [connA], days: week(specific(["08:00", "12:00"], null)), messages: { outOfHours: "O chat do site abre às 8h." } },
      a.admin,
    );
    const user = await t.api.post("/business-hours", { name: "Agente", type: "user", targetIds: [a.agent.userId], days: week({ mode: "closed" }), messages: { outOfHours: "O agente está ausente." } }, a.admin);
    for (const r of [queue, conn, user]) expect(r.status).toBe(201);

    expect(await state(`queueId=${a.queueIds[0]}`)).toMatchObject({ open: true, reason: "open", scheduleId: queue.body.id });
    expect(await state(`queueId=${a.queueIds[1]}`)).toMatchObject({ open: false, scheduleId: globalId, message: "Estamos fora do horário." });
    expect(await state(`queueId=${a.queueIds[0]}&connectionId=${connA}`)).toMatchObject({ open: true, scheduleId: queue.body.id });
    expect(await state(`queueId=${a.queueIds[1]}&connectionId=${connA}`)).toMatchObject({ open: false, scheduleId: conn.body.id, message: "O chat do site abre às 8h." });
    expect(await state(`queueId=${a.queueIds[0]}&userId=${a.agent.userId}&connectionId=${connA}`)).toMatchObject({
      open: false,
      reason: "closed",
      scheduleId: user.body.id,
      message: "O agente está ausente.",
      nextOpenAt: null,
      period: -1,
    });
    // Another user has no schedule of their own: their queue's decides.
    expect(await state(`queueId=${a.queueIds[0]}&userId=${a.supervisor.userId}`)).toMatchObject({ open: true, scheduleId: queue.body.id });

    // A queue schedule with a lunch of its own and no messages: the global lunch message.
    expect((await t.api.put(`/business-hours/${queue.body.id}`, { days: week(specific(["08:00", "12:00"], ["14:00", "18:00"])) }, a.admin)).status).toBe(200);
    clock.set(sp("2026-01-15", "13:00"));
    expect(await state(`queueId=${a.queueIds[0]}`)).toMatchObject({ open: false, reason: "lunch", message: "Saímos para o almoço.", nextOpenAt: sp("2026-01-15", "14:00") });
    // Switched off, it decides nothing: the global schedule (open at 13:00) does.
    expect((await t.api.put(`/business-hours/${queue.body.id}`, { active: false }, a.admin)).status).toBe(200);
    expect(await state(`queueId=${a.queueIds[0]}`)).toMatchObject({ open: true, scheduleId: globalId });
    for (const r of [queue, conn, user]) await t.api.del(`/business-hours/${r.body.id}`, a.admin);
  });

  it("the internal action answers for any instant; a new time zone is seen at once", async () => {
    const at = sp("2026-01-16", "07:30"); // Friday, before opening in São Paulo
    const before = (await t.core.broker.call("businessTime.state", { tenantId: a.tenantId, target: {}, at })) as { open: boolean; nextOpenAt: number };
    expect(before).toMatchObject({ open: false, reason: "closed", nextOpenAt: sp("2026-01-16", "08:00") });
    // Lisbon is 3 hours ahead in January: 07:30 in São Paulo is 10:30 there, open.
    expect((await t.api.put(`/tenants/${a.tenantId}`, { timezone: "Europe/Lisbon" }, sup)).status).toBe(200);
    let after: { open: boolean } = before;
    for (let i = 0; i < 50 && !after.open; i++) {
      after = (await t.core.broker.call("businessTime.state", { tenantId: a.tenantId, target: {}, at })) as { open: boolean };
      if (!after.open) await new Promise((r) => setTimeout(r, 50));
    }
    expect(after).toMatchObject({ open: true, reason: "open" });
    expect((await t.api.put(`/tenants/${a.tenantId}`, { timezone: "America/Sao_Paulo" }, sup)).status).toBe(200);
  });

  it("any user of the tenant may ask; another tenant's ids are not found", async () => {
    clock.set(sp("2026-01-19", "10:00"));
    expect(await state("", a.supervisor)).toMatchObject({ open: true, scheduleId: globalId });
    // Tenant B has no schedule: its answers are its own.
    expect(await state("", b.agent)).toMatchObject({ open: true, reason: "unscheduled" });
    expectError(await t.api.get(`/business-hours/state?queueId=${b.queueIds[0]}`, a.agent), 404, "ERR_QUEUE_NOT_FOUND", { field: "queueId" });
    expectError(await t.api.get(`/business-hours/state?userId=${b.agent.userId}`, a.agent), 404, "ERR_USER_NOT_FOUND", { field: "userId" });
    expectError(await t.api.get(`/business-hours/state?connectionId=${connB}`, a.agent), 404, "ERR_CONNECTION_NOT_FOUND", { field: "connectionId" });
    expectError(await t.api.get("/business-hours/state?queueId=abc", a.agent), 400, "ERR_VALIDATION", { field: "queueId" });
  });

  describe("availability", () => {
    const morning = { kind: "morning", start: "08:00", end: "12:00" };

    it("lists every active user of the tenant, those never set with seven empty days", async () => {
      const r = await t.api.get("/availability", a.admin);
      expect(r.status).toBe(200);
      expect(r.body.map((u: { userId: number }) => u.userId).sort()).toEqual([a.admin.userId, a.supervisor.userId, a.agent.userId].sort());
      for (const u of r.body) expect(u).toMatchObject({ days: [[], [], [], [], [], [], []], updatedAt: null });
      expect((await t.api.get("/availability", b.admin)).body.map((u: { userId: number }) => u.userId)).not.toContain(a.agent.userId);
    });

    it("is saved whole, slots filled with their kind's hours and in order, and read back by anyone of the tenant", async () => {
      const days = [[], [{ kind: "afternoon", start: "13:00", end: "17:00" }, { kind: "morning" }], [{ kind: "fullDay" }], [], [{ kind: "evening", start: "19:00", end: "22:00" }], [], []];
      const put = await t.api.put(`/availability/${a.agent.userId}`, { days }, a.admin);
      expect(put.status).toBe(200);
      const saved = [[], [morning, { kind: "afternoon", start: "13:00", end: "17:00" }], [{ kind: "fullDay", start: "08:00", end: "18:00" }], [], [{ kind: "evening", start: "19:00", end: "22:00" }], [], []];
      expect(put.body).toMatchObject({ userId: a.agent.userId, name: "Agent", days: saved });
      expect(put.body.updatedAt).toEqual(expect.any(String));
      const own = await t.api.get(`/availability/${a.agent.userId}`, a.agent);
      expect(own.body).toMatchObject({ userId: a.agent.userId, days: saved });
      expect((await t.api.get(`/availability/${a.supervisor.userId}`, a.agent)).body).toMatchObject({ days: [[], [], [], [], [], [], []], updatedAt: null });
      const listed = (await t.api.get("/availability", a.admin)).body.find((u: { userId: number }) => u.userId === a.agent.userId);
      expect(listed.days).toEqual(saved);
      // The internal action (appointments, chatbots): the days, or null when never set.
      expect(await t.core.broker.call("businessTime.availability", { tenantId: a.tenantId, userId: a.agent.userId })).toEqual(saved);
      expect(await t.core.broker.call("businessTime.availability", { tenantId: a.tenantId, userId: a.supervisor.userId })).toBeNull();
      // Saved again: replaced.
      expect((await t.api.put(`/availability/${a.agent.userId}`, { days: [[], [morning], [], [], [], [], []] }, a.admin)).body.days[2]).toEqual([]);
    });

    it("refuses malformed slots with ERR_VALIDATION naming the field", async () => {
      const day1 = (slots: unknown[]) => ({ days: [[], slots, [], [], [], [], []] });
      const put = (body: unknown) => t.api.put(`/availability/${a.agent.userId}`, body, a.admin);
      expectError(await put({ days: [[], [], [], [], [], []] }), 400, "ERR_VALIDATION", { field: "days" });
      expectError(await put(day1([{ kind: "night" }])), 400, "ERR_VALIDATION");
      expectError(await put(day1([{ kind: "morning", start: "8h", end: "12:00" }])), 400, "ERR_VALIDATION");
      expectError(await put(day1([{ kind: "morning", start: "12:00", end: "08:00" }])), 400, "ERR_VALIDATION", { field: "days[1]", rule: "order" });
      expectError(await put(day1([morning, { kind: "fullDay" }])), 400, "ERR_VALIDATION", { field: "days[1]", rule: "overlap" });
      const five = ["06", "08", "10", "12", "14"].map((h) => ({ kind: "fullDay", start: `${h}:00`, end: `${h}:30` }));
      expectError(await put(day1(five)), 400, "ERR_VALIDATION");
      expectError(await put({}), 400, "ERR_VALIDATION", { field: "days" });
      // Nothing changed.
      expect((await t.api.get(`/availability/${a.agent.userId}`, a.admin)).body.days[1]).toEqual([morning]);
    });

    it("another tenant's user is not found; only admins save", async () => {
      expectError(await t.api.get(`/availability/${b.agent.userId}`, a.admin), 404, "ERR_USER_NOT_FOUND");
      expectError(await t.api.put(`/availability/${b.agent.userId}`, { days: week({}).map(() => []) }, a.admin), 404, "ERR_USER_NOT_FOUND");
      expectError(await t.api.put(`/availability/${a.agent.userId}`, { days: week({}).map(() => []) }, a.agent), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put(`/availability/${a.agent.userId}`, { days: week({}).map(() => []) }, a.supervisor), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.get("/availability", a.agent), 403, "ERR_NO_PERMISSION");
      expect(await t.core.broker.call("businessTime.availability", { tenantId: b.tenantId, userId: a.agent.userId })).toBeNull();
    });
  });
});
