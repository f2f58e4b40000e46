/**
 * The NPS routes against a real core (MariaDB, Redis): the settings (admins only; defaults,
 * every rule with the manifest's codes, translated), the statistics by queue and by user
 * (supervisors and admins; a period), and another tenant: its surveys answer 404, its figures
 * and settings are its own, and a claimed message naming another tenant's survey is not taken.
 */
import { Customer, expectError, jobsOf, npsCore, ok, requestJob, servedAndClosed, settle, shop, surveyed, surveyOf, TestClock, TEXTS, tick, waitFor, type Shop, type TestCore } from "./kit";

jest.setTimeout(180_000);

const clock = new TestClock();
let t: TestCore;
let a: Shop;
let b: Shop;

beforeAll(async () => {
  t = await npsCore(clock);
  [a, b] = await Promise.all([shop(t, { enabled: true, ...TEXTS }), shop(t, null)]);
});
afterAll(async () => {
  await t?.stop();
});

describe("NPS settings (MariaDB)", () => {
  it("a tenant that never saved them has the defaults: off, scale 10, texts with {{name}} and {{max}}", async () => {
    const s = await ok(t.api.get("/nps/settings", b.admin));
    expect(s).toMatchObject({ enabled: false, scale: 10, timeoutMinutes: 60, limits: { scaleMin: 3, scaleMax: 10, timeoutMin: 1, timeoutMax: 10080 } });
    for (const k of ["requestMessage", "invalidMessage"]) expect(s[k]).toMatch(/\{\{name\}\}.*\{\{max\}\}|\{\{max\}\}.*\{\{name\}\}/);
  });

  it("saves the fields given and keeps the others; refuses what breaks a rule with its code, translated, and stores nothing", async () => {
    const saved = await ok(t.api.put("/nps/settings", { scale: 5, timeoutMinutes: 30, thanksMessage: "  Valeu, {{name}}!  " }, b.admin));
    expect(saved).toMatchObject({ enabled: false, scale: 5, timeoutMinutes: 30, thanksMessage: "Valeu, {{name}}!" });
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ scale: 2 }, 400, "ERR_NPS_SCALE_INVALID", "scale"],
      [{ scale: 11 }, 400, "ERR_NPS_SCALE_INVALID", "scale"],
      [{ timeoutMinutes: 0 }, 400, "ERR_NPS_TIMEOUT_INVALID", "timeoutMinutes"],
      [{ timeoutMinutes: 10_081 }, 400, "ERR_NPS_TIMEOUT_INVALID", "timeoutMinutes"],
      [{ requestMessage: "   " }, 400, "ERR_NPS_MESSAGE_REQUIRED", "requestMessage"],
      [{ timeoutMessage: "" }, 400, "ERR_NPS_MESSAGE_REQUIRED", "timeoutMessage"],
    ];
    for (const [body, status, code, field] of cases) {
      const r = await t.api.put("/nps/settings", body, b.admin);
      expectError(r, status, code);
      expect({ code, field: r.body.data?.field }).toEqual({ code, field });
    }
    expectError(await t.api.put("/nps/settings", { scale: 7.5 }, b.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.put("/nps/settings", { enabled: "talvez" }, b.admin), 400, "ERR_VALIDATION");
    const pt = await t.api.put("/nps/settings", { scale: 12 }, b.admin);
    expect({ title: pt.body.title, message: pt.body.message }).toEqual({ title: "Escala inválida", message: "A nota máxima da escala deve ser um número inteiro de 3 a 10." });
    const en = await t.api.call("PUT", "/nps/settings", { requestMessage: "" }, b.admin, { "accept-language": "en" });
    expect(en.body.title).toBe("Message required");
    expect(await ok(t.api.get("/nps/settings", b.admin))).toMatchObject({ scale: 5, timeoutMinutes: 30, thanksMessage: "Valeu, {{name}}!" });
  });

  it("are an admin's: a supervisor or an agent is refused; the figures are a supervisor's too, not an agent's", async () => {
    for (const who of [a.supervisor, a.agent]) {
      expect((await t.api.get("/nps/settings", who)).status).toBe(403);
      expect((await t.api.put("/nps/settings", { enabled: false }, who)).status).toBe(403);
    }
    expect((await t.api.get("/nps/stats", a.supervisor)).status).toBe(200);
    expect((await t.api.get("/nps/stats", a.agent)).status).toBe(403);
    expect((await t.api.get("/nps/surveys", a.agent)).status).toBe(403);
    expect((await ok(t.api.get("/nps/settings", a.admin))).enabled).toBe(true);
  });
});

describe("NPS statistics (MariaDB)", () => {
  let answeredTicket = 0;

  beforeAll(async () => {
    // Two promoters of the agent in Suporte; a detractor of the admin in Vendas.
    answeredTicket = await surveyed(t, clock, a, new Customer(t, a, "Ana"), "10");
    await surveyed(t, clock, a, new Customer(t, a, "Bia"), "9");
    const c = new Customer(t, a, "Caio");
    const { ticketId } = await c.say("Oi");
    await ok(t.api.put(`/tickets/${ticketId}`, { status: "open", queueId: a.queueIds[1] }, a.admin));
    await ok(t.api.put(`/tickets/${ticketId}`, { status: "closed" }, a.admin));
    const job = await requestJob(t, a.tenantId, ticketId);
    clock.set(Math.max(clock.now(), job.runAt));
    await tick(t);
    await waitFor("the request", () => surveyOf(t, a.admin, ticketId), (s) => s?.state === "waiting");
    await c.say("3");
    await waitFor("the answer", () => surveyOf(t, a.admin, ticketId), (s) => s?.state === "answered");
    // Asked, not answered yet.
    await surveyed(t, clock, a, new Customer(t, a, "Davi"));
  });

  it("scores % promoters − % detractors in total, by queue and by user, with names", async () => {
    const s = await ok(t.api.get("/nps/stats", a.supervisor));
    expect(s).toMatchObject({ enabled: true, scale: 10, total: { answered: 3, promoters: 2, passives: 0, detractors: 1, score: 33, asked: 4, waiting: 1, timedOut: 0 } });
    expect(s.byQueue).toEqual([
      { queueId: a.queueIds[0], name: "Suporte", answered: 2, promoters: 2, passives: 0, detractors: 0, score: 100 },
      { queueId: a.queueIds[1], name: "Vendas", answered: 1, promoters: 0, passives: 0, detractors: 1, score: -100 },
    ]);
    expect(s.byUser).toEqual([
      { userId: a.agent.userId, name: "Agent", answered: 2, promoters: 2, passives: 0, detractors: 0, score: 100 },
      { userId: a.admin.userId, name: "Admin", answered: 1, promoters: 0, passives: 0, detractors: 1, score: -100 },
    ]);
  });

  it("counts the answers of a period; a period that ends before it starts or a date that is none is refused", async () => {
    const future = new Date(Math.max(clock.now(), Date.now()) + 86_400_000).toISOString();
    expect((await ok(t.api.get(`/nps/stats?from=${encodeURIComponent(future)}`, a.admin))).total).toMatchObject({ answered: 0, score: null, asked: 0 });
    const past = new Date(Date.now() - 86_400_000).toISOString();
    expect((await ok(t.api.get(`/nps/stats?from=${encodeURIComponent(past)}&to=${encodeURIComponent(future)}`, a.admin))).total.answered).toBe(3);
    expectError(await t.api.get(`/nps/stats?from=${encodeURIComponent(future)}&to=${encodeURIComponent(past)}`, a.admin), 400, "ERR_NPS_RANGE_INVALID");
    expectError(await t.api.get("/nps/stats?from=ontem", a.admin), 400, "ERR_VALIDATION");
  });

  it("lists the surveys by state, queue and user", async () => {
    const ids = async (q: string) => (await ok(t.api.get(`/nps/surveys?${q}`, a.supervisor))).rows.map((r: { score: number | null }) => r.score);
    expect((await ids("state=answered")).sort()).toEqual([10, 3, 9].sort());
    expect(await ids(`state=answered&queueId=${a.queueIds[1]}`)).toEqual([3]);
    expect((await ids(`userId=${a.agent.userId}`)).length).toBe(3);
    expectError(await t.api.get("/nps/surveys?state=lost", a.admin), 400, "ERR_VALIDATION");
  });

  it("never reaches another tenant: its survey answers 404, its figures and lists are its own, a claimed message naming it is not taken", async () => {
    const mine = (await surveyOf(t, a.admin, answeredTicket))!;
    expect(await ok(t.api.get(`/nps/surveys/one?id=${mine.id}`, a.admin))).toMatchObject({ id: mine.id, score: 10 });
    expectError(await t.api.get(`/nps/surveys/one?id=${mine.id}`, b.admin), 404, "ERR_NPS_SURVEY_NOT_FOUND");
    expectError(await t.api.get("/nps/surveys/one?id=987654321", a.admin), 404, "ERR_NPS_SURVEY_NOT_FOUND");
    expect((await ok(t.api.get("/nps/surveys", b.admin))).rows).toEqual([]);
    expect((await ok(t.api.get("/nps/stats", b.admin))).total).toMatchObject({ answered: 0, asked: 0, score: null });
    const taken = await t.core.broker.call("v1.module-nps.claimedInbound", {
      id: "probe:cross-tenant",
      tenantId: b.tenantId,
      ref: `nps-survey-${mine.id}`,
      ticketId: mine.ticketId,
      connectionId: b.conn,
      contact: { id: 1, name: "X", number: null },
      message: { body: "0", mediaType: null, timestamp: Date.now() },
      at: clock.now(),
    });
    expect(taken).toEqual({ consumed: false, release: true });
    expect(await ok(t.api.get(`/nps/surveys/one?id=${mine.id}`, a.admin))).toMatchObject({ score: 10, state: "answered" });
    // And b's closes ask nobody: its survey is off.
    const c = new Customer(t, b, "Eli");
    await servedAndClosed(t, b, c, b.admin);
    // Its close has run its course (the farewell reached the channel, the event the plugin) before saying nothing followed.
    await waitFor("the farewell", () => c.received(), (r) => r.length === 1);
    await settle();
    expect(await jobsOf(t, b.tenantId)).toEqual([]);
    expect(await surveyOf(t, b.admin, c.ticketId)).toBeUndefined();
  });
});
