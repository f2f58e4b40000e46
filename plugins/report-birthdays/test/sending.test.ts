/**
 * The birthdays report on a real core (MariaDB, Redis, the core's scheduler on a test clock:
 * time moves, nothing sleeps for it), on Wednesday 2026-06-10 08:00 in São Paulo: the period's
 * birthdays with their ages; "send now" sends each selected contact once, `delaySeconds` apart,
 * and a job run again after a crash sends nothing twice; birthday messages go at 9:00 on the
 * birthday, once, across a restart of the core, never for a passed birthday or a cancelled
 * one; another tenant's contact, connection, send and schedule are not found.
 */
import { API, birthdaysCore, createSuper, expectError, ok, pluginSql, sentTexts, settle, shop, TestClock, waitFor, type Shop, type TestCore } from "./kit";

jest.setTimeout(240_000);

const T0 = Date.UTC(2026, 5, 10, 11, 0); // 2026-06-10 08:00 in São Paulo
const clock = new TestClock(T0);
let t: TestCore;
let a: Shop;
let b: Shop;
const c: Record<string, number> = {};

beforeAll(async () => {
  t = await birthdaysCore(clock);
  const sup = await createSuper(t);
  [a, b] = [await shop(t, sup), await shop(t, sup)];
  c.ana = await a.contact("Ana Lima", "1990-06-10");
  c.bruno = await a.contact("Bruno Reis", "1985-06-10");
  c.carla = await a.contact("Carla Dias", "2000-06-10");
  c.davi = await a.contact("Davi Souza", "1992-06-11");
  c.eva = await a.contact("Eva Castro", "1970-06-01");
  c.fabio = await a.contact("Fábio Nunes", "1988-07-04");
  c.other = await b.contact("Gil Prado", "1990-06-10");
});
afterAll(async () => {
  await t?.stop();
});

type Batch = { id: number; status: string; sent: number; failed: number; total: number; items: Array<{ contactId: number; status: string; sentAt: number | null }> };
const batch = (id: number) => ok<Batch>(t.api.get(`${API}/sends/one?id=${id}`, a.admin));
const sentTo = async (contactId: number) => (await sentTexts(t, a.tenantId)).filter((m) => m.contactId === contactId).map((m) => m.body);

describe("birthdays report (MariaDB, test clock)", () => {
  it("lists the period's birthdays with the age they turn, in the tenant's time zone", async () => {
    const today = await ok(t.api.get(`${API}/contacts?period=today`, a.admin));
    expect(today).toMatchObject({ timeZone: "America/Sao_Paulo", from: "2026-06-10", to: "2026-06-10" });
    expect(today.rows.map((r: { id: number; age: number }) => [r.id, r.age])).toEqual([
      [c.ana, 36],
      [c.bruno, 41],
      [c.carla, 26],
    ]);
    const june = await ok(t.api.get(`${API}/contacts?period=month&month=6`, a.admin));
    expect(june.rows.map((r: { id: number }) => r.id)).toEqual([c.eva, c.ana, c.bruno, c.carla, c.davi]);
    expect(june.rows[0]).toMatchObject({ date: "2026-06-01", age: 56, passed: true, number: expect.any(String) });
    expect(june.rows[4]).toMatchObject({ date: "2026-06-11", age: 34, passed: false });
    const week = await ok(t.api.get(`${API}/contacts?period=week`, a.admin));
    expect(week).toMatchObject({ from: "2026-06-07", to: "2026-06-13" });
    expect(week.rows.map((r: { id: number }) => r.id)).toEqual([c.ana, c.bruno, c.carla, c.davi]);
    expectError(await t.api.get(`${API}/contacts?period=year`, a.admin), 400, "ERR_VALIDATION");
  });

  it("sends now to each selected contact once, the delay apart, with the placeholders filled", async () => {
    const body = "Parabéns, {{name}}! {{age}} anos!";
    const started = await ok(t.api.post(`${API}/send`, { period: "today", contactIds: [c.ana, c.bruno, c.carla], connectionId: a.conn, body, delaySeconds: 30 }, a.admin), 201);
    expect(started).toMatchObject({ status: "running", total: 3, sent: 0, delaySeconds: 30 });
    await waitFor("the first send", () => batch(started.id), (x) => x.sent === 1);
    await settle();
    expect((await batch(started.id)).sent).toBe(1); // the clock has not moved: the next waits its 30 s
    clock.set(T0 + 29_000);
    await settle();
    expect((await batch(started.id)).sent).toBe(1);
    clock.set(T0 + 30_000);
    await waitFor("the second send", () => batch(started.id), (x) => x.sent === 2);
    clock.set(T0 + 60_000);
    const done = await waitFor("the last send", () => batch(started.id), (x) => x.status === "finished");
    expect(done).toMatchObject({ sent: 3, failed: 0, total: 3 });
    expect(done.items.map((i) => [i.contactId, i.status, i.sentAt])).toEqual([
      [c.ana, "sent", T0],
      [c.bruno, "sent", T0 + 30_000],
      [c.carla, "sent", T0 + 60_000],
    ]);
    expect(await sentTo(c.ana)).toEqual(["Parabéns, Ana Lima! 36 anos!"]);
    expect(await sentTo(c.bruno)).toEqual(["Parabéns, Bruno Reis! 41 anos!"]);
    expect(await sentTo(c.carla)).toEqual(["Parabéns, Carla Dias! 26 anos!"]);

    // A run that died after the core stored the send, before recording it: the retry sends nothing twice.
    await pluginSql(t, "UPDATE batch_items SET status = 'pending', messageId = NULL, sentAt = NULL WHERE batchId = ? AND seq = 3", [started.id]);
    await pluginSql(t, "UPDATE batches SET status = 'running' WHERE id = ?", [started.id]);
    const rerun = await t.core.broker.call("v1.report-birthdays.runJob", { jobId: `probe-${started.id}`, name: "send", key: `batch-${started.id}`, tenantId: a.tenantId, dueAt: T0 + 60_000, attempt: 2, data: { id: started.id } });
    expect(rerun).toBe("finished");
    expect(await sentTo(c.carla)).toEqual(["Parabéns, Carla Dias! 26 anos!"]);
    expect(await t.core.broker.call("v1.report-birthdays.runJob", { jobId: `probe2-${started.id}`, name: "send", key: `batch-${started.id}`, tenantId: a.tenantId, dueAt: T0 + 60_000, attempt: 1, data: { id: started.id } })).toBe("stale");
    expect((await ok(t.api.get(`${API}/sends`, a.admin)))[0]).toMatchObject({ id: started.id, status: "finished", sent: 3 });
  });

  it("refuses what is not a send with its codes", async () => {
    const base = { period: "today", contactIds: [c.ana], connectionId: a.conn, body: "Oi {{name}}" };
    expectError(await t.api.post(`${API}/send`, { ...base, contactIds: [] }, a.admin), 400, "ERR_REPORT_BIRTHDAYS_NO_CONTACTS");
    expectError(await t.api.post(`${API}/send`, { ...base, body: "   " }, a.admin), 400, "ERR_REPORT_BIRTHDAYS_MESSAGE_REQUIRED");
    expectError(await t.api.post(`${API}/send`, { ...base, delaySeconds: 3601 }, a.admin), 400, "ERR_REPORT_BIRTHDAYS_DELAY_INVALID");
    expectError(await t.api.post(`${API}/send`, { ...base, contactIds: [c.fabio] }, a.admin), 400, "ERR_REPORT_BIRTHDAYS_NOT_IN_PERIOD");
  });

  it("answers another tenant's contact, connection, send and schedule with their not-found codes", async () => {
    const base = { period: "today", contactIds: [c.ana], connectionId: a.conn, body: "Oi" };
    expectError(await t.api.post(`${API}/send`, { ...base, contactIds: [c.other] }, a.admin), 404, "ERR_CONTACT_NOT_FOUND");
    expectError(await t.api.post(`${API}/send`, { ...base, connectionId: b.conn }, a.admin), 404, "ERR_CONNECTION_NOT_FOUND");
    expectError(await t.api.post(`${API}/schedule`, { ...base, contactIds: [c.other] }, a.admin), 404, "ERR_CONTACT_NOT_FOUND");
    const mine = (await ok(t.api.get(`${API}/sends`, a.admin)))[0];
    expectError(await t.api.get(`${API}/sends/one?id=${mine.id}`, b.admin), 404, "ERR_REPORT_BIRTHDAYS_SEND_NOT_FOUND");
    expect(await ok(t.api.get(`${API}/sends`, b.admin))).toEqual([]);
    expect((await ok(t.api.get(`${API}/contacts?period=today`, b.admin))).rows.map((r: { id: number }) => r.id)).toEqual([c.other]);
  });

  it("schedules 9:00 on each birthday not yet passed this year; it fires once, across a restart; a cancelled one never", async () => {
    const body = "Feliz {{age}} anos, {{name}}!";
    const r = await ok(t.api.post(`${API}/schedule`, { period: "month", month: 6, contactIds: [c.davi, c.eva, c.ana], connectionId: a.conn, body }, a.admin), 201);
    const davi = r.scheduled.find((s: { contactId: number }) => s.contactId === c.davi);
    const ana = r.scheduled.find((s: { contactId: number }) => s.contactId === c.ana);
    expect(davi).toMatchObject({ occursOn: "2026-06-11", age: 34, runAt: Date.UTC(2026, 5, 11, 12), status: "pending" });
    expect(ana).toMatchObject({ occursOn: "2026-06-10", age: 36, runAt: Date.UTC(2026, 5, 10, 12) });
    expect(r.skipped).toEqual([{ contactId: c.eva, reason: "passed" }]);
    // Already scheduled, or passed: nothing to schedule.
    expectError(await t.api.post(`${API}/schedule`, { period: "month", month: 6, contactIds: [c.davi, c.eva], connectionId: a.conn, body }, a.admin), 409, "ERR_REPORT_BIRTHDAYS_NOTHING_TO_SCHEDULE");
    const june = await ok(t.api.get(`${API}/contacts?period=month&month=6`, a.admin));
    expect(june.rows.find((x: { id: number }) => x.id === c.davi).scheduledId).toBe(davi.id);

    // Ana's is cancelled; another tenant cannot cancel Davi's.
    expect(await ok(t.api.post(`${API}/scheduled/cancel`, { id: ana.id }, a.admin))).toMatchObject({ status: "cancelled" });
    expectError(await t.api.post(`${API}/scheduled/cancel`, { id: ana.id }, a.admin), 409, "ERR_REPORT_BIRTHDAYS_SCHEDULE_NOT_PENDING");
    expectError(await t.api.post(`${API}/scheduled/cancel`, { id: davi.id }, b.admin), 404, "ERR_REPORT_BIRTHDAYS_SCHEDULE_NOT_FOUND");
    expect((await ok(t.api.get(`${API}/scheduled`, a.admin))).map((s: { id: number }) => s.id)).toEqual([davi.id]);

    clock.set(Date.UTC(2026, 5, 10, 12, 0, 1)); // Ana's 9:00 came: cancelled, nothing goes
    await settle();
    expect(await sentTo(c.ana)).toEqual(["Parabéns, Ana Lima! 36 anos!"]);

    await t.stop({ keep: true });
    t = await birthdaysCore(clock, t);
    await waitFor("the plugin's routes", () => t.api.get(`${API}/scheduled`, a.admin), (x) => x.status === 200);
    clock.set(Date.UTC(2026, 5, 11, 11, 59)); // June 11, 08:59 in São Paulo
    await settle();
    expect(await sentTo(c.davi)).toEqual([]);
    clock.set(Date.UTC(2026, 5, 11, 12, 0, 1));
    await waitFor("the birthday message", () => ok(t.api.get(`${API}/scheduled?status=sent`, a.admin)), (x) => x.length === 1);
    await settle();
    expect(await sentTo(c.davi)).toEqual(["Feliz 34 anos, Davi Souza!"]);
    // Delivered again (a retry, a stuck run): nothing more.
    expect(await t.core.broker.call("v1.report-birthdays.runJob", { jobId: "probe-davi", name: "birthday", key: `scheduled-${davi.id}`, tenantId: a.tenantId, dueAt: davi.runAt, attempt: 2, data: { id: davi.id } })).toBe("stale");
    clock.set(Date.UTC(2026, 5, 12, 12));
    await settle();
    expect(await sentTo(c.davi)).toEqual(["Feliz 34 anos, Davi Souza!"]);
    expect(await sentTo(c.ana)).toEqual(["Parabéns, Ana Lima! 36 anos!"]);
    expect(await ok(t.api.get(`${API}/scheduled?status=pending,sent,cancelled`, a.admin))).toEqual([
      expect.objectContaining({ id: ana.id, status: "cancelled" }),
      expect.objectContaining({ id: davi.id, status: "sent" }),
    ]);
  });
});
