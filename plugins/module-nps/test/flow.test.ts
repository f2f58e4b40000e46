/**
 * The survey's flow against a real core (MariaDB, Redis) on a TestClock whose scheduler is
 * ticked by hand, through a web chat connection whose outbox shows what reached the channel,
 * in order (spec §4 NPS flow, §5 NPS reply):
 *
 * - an agent's close: the farewell, then the request (a job 5 s after the close, once); a valid
 *   reply gets the thanks, is kept on the closed ticket (not reopened) and opens nothing; the
 *   same message handed over again changes and sends nothing; the next message opens a ticket;
 * - an invalid reply gets the invalid message and the survey waits again; a valid one then
 *   answers it (past the core's just-closed window, on the contact's newest closed ticket); a second invalid reply opens a ticket as usual and ends the survey;
 * - no reply: the timeout message at the timeout, once, through a restart of the core, and
 *   the next message opens a ticket;
 * - mass closes ask, plugin and group closes do not, nor a tenant with the survey off; a
 *   scale of 5 takes 0–5 and groups 4 as passive; a newer close replaces a survey waiting.
 */
import { Customer, jobsOf, later, MIN, npsCore, ok, requestJob, settle, shop, surveyed, surveyOf, TestClock, TEXTS, tick, waitFor, type Shop, type TestCore } from "./kit";

jest.setTimeout(240_000);

const clock = new TestClock();
let t: TestCore;
let a: Shop;

beforeAll(async () => {
  t = await npsCore(clock);
  a = await shop(t, { enabled: true, timeoutMinutes: 60, ...TEXTS });
});
afterAll(async () => {
  await t?.stop();
});

const ticketOf = (tenantId: number, id: number) => t.core.broker.call("tickets.getInternal", { tenantId, id }) as Promise<{ status: string }>;
const hook = (params: Record<string, unknown>) => t.core.broker.call("v1.module-nps.claimedInbound", params);

describe("the NPS survey's flow (MariaDB, test clock)", () => {
  it("after an agent's close: the farewell, then the request; a valid reply gets the thanks, stays on the closed ticket and opens nothing", async () => {
    const c = new Customer(t, a, "Ana Souza");
    const ticketId = await servedAndClosedWaitingFarewell(c);
    const job = await requestJob(t, a.tenantId, ticketId);
    // Not before its time.
    await tick(t);
    await settle();
    expect(await c.received()).toEqual(["Até logo, Ana!"]);
    clock.set(Math.max(clock.now(), job.runAt));
    await tick(t);
    await waitFor("the request", () => c.received(), (r) => r.length === 2);
    expect(await c.received()).toEqual(["Até logo, Ana!", "Ana, de 0 a 10, que nota você dá ao atendimento?"]);
    expect(await surveyOf(t, a.admin, ticketId)).toMatchObject({ state: "waiting", scale: 10, closedVia: "agent", queueId: a.queueIds[0], userId: a.agent.userId });
    expect((await jobsOf(t, a.tenantId, "timeout")).length).toBe(1);

    const reply = await c.say(" 9 ", "reply-9");
    expect(reply.ticketId).toBe(ticketId);
    await waitFor("the thanks", () => c.received(), (r) => r.length === 3);
    expect((await c.received())[2]).toBe("Obrigado, Ana!");
    expect(await surveyOf(t, a.admin, ticketId)).toMatchObject({ state: "answered", score: 9, npsGroup: "promoter" });
    expect((await ticketOf(a.tenantId, ticketId)).status).toBe("closed");
    expect(await c.active()).toBeNull();
    const kept = await ok(t.api.get(`/messages/${ticketId}?pageSize=100`, a.admin));
    expect(((kept.messages ?? kept.rows) as Array<{ body: string; fromMe: boolean }>).filter((m) => !m.fromMe).map((m) => m.body)).toContain(" 9 ");
    expect(await jobsOf(t, a.tenantId, "timeout")).toEqual([]);

    // The same message handed over again: the same answer, nothing sent or changed.
    const again = await hook({ id: `${a.conn}:reply-9`, tenantId: a.tenantId, ref: `nps-survey-${(await surveyOf(t, a.admin, ticketId))!.id}`, ticketId, connectionId: a.conn, contact: { id: c.contactId, name: "Ana", number: null }, message: { body: "3", mediaType: null, timestamp: Date.now() }, at: clock.now() });
    expect(again).toEqual({ consumed: true, release: true });
    // The request job delivered again (a retry, a restart) sends nothing either.
    expect(await t.core.broker.call("v1.module-nps.runJob", { jobId: "probe-request", name: "request", key: "probe", tenantId: a.tenantId, dueAt: job.runAt, attempt: 2, data: job.data })).toBe("answered");
    await later(t, clock, 2 * 60 * MIN);
    await settle();
    expect(await c.received()).toEqual(["Até logo, Ana!", "Ana, de 0 a 10, que nota você dá ao atendimento?", "Obrigado, Ana!"]);
    expect(await surveyOf(t, a.admin, ticketId)).toMatchObject({ state: "answered", score: 9 });

    // The survey is over: the next message opens a ticket as usual.
    const next = await c.say("Tenho outra dúvida");
    expect(next.ticketId).not.toBe(ticketId);
    expect(await c.active()).toMatchObject({ id: next.ticketId });
  });

  it("an invalid reply gets the invalid message and a retry; a valid one then answers", async () => {
    const c = new Customer(t, a, "Bruno Lima");
    const ticketId = await surveyed(t, clock, a, c);
    await c.say("ótimo atendimento");
    await waitFor("the invalid message", () => c.received(), (r) => r.length === 3);
    expect((await c.received())[2]).toBe("Responda só com um número de 0 a 10, Bruno.");
    expect(await surveyOf(t, a.admin, ticketId)).toMatchObject({ state: "retry" });
    expect(await c.active()).toBeNull();
    // An hour later (past the core's just-closed window): the thanks goes on the contact's newest closed ticket, this one, opening nothing.
    await t.core.sequelize.query("UPDATE tickets SET closedAt = DATE_SUB(closedAt, INTERVAL 1 HOUR) WHERE id = ?", { replacements: [ticketId] });
    await c.say("10");
    await waitFor("the thanks", () => c.received(), (r) => r.length === 4);
    expect((await c.received())[3]).toBe("Obrigado, Bruno!");
    expect(await c.sentOn(ticketId)).toEqual(["Até logo, Bruno!", "Bruno, de 0 a 10, que nota você dá ao atendimento?", "Responda só com um número de 0 a 10, Bruno.", "Obrigado, Bruno!"]);
    expect((await ticketOf(a.tenantId, ticketId)).status).toBe("closed");
    expect(await surveyOf(t, a.admin, ticketId)).toMatchObject({ state: "answered", score: 10, npsGroup: "promoter" });
    expect(await c.active()).toBeNull();
  });

  it("a second invalid reply opens a ticket as usual and ends the survey: no timeout message later", async () => {
    const c = new Customer(t, a, "Carla Dias");
    const ticketId = await surveyed(t, clock, a, c);
    for (const bad of ["11", "nota 8"]) await c.say(bad);
    await waitFor("the new ticket", () => c.active(), (x) => x !== null);
    expect(await surveyOf(t, a.admin, ticketId)).toMatchObject({ state: "invalid", score: null });
    expect((await c.received()).slice(2)).toEqual(["Responda só com um número de 0 a 10, Carla."]);
    await later(t, clock, 2 * 60 * MIN);
    await settle();
    expect((await c.received()).slice(2)).toEqual(["Responda só com um número de 0 a 10, Carla."]);
  });

  it("no reply: the timeout message at the timeout, once, through a restart of the core; then messages open tickets again", async () => {
    const c = new Customer(t, a, "Diego Rocha");
    const ticketId = await surveyed(t, clock, a, c);
    const surveyId = (await surveyOf(t, a.admin, ticketId))!.id;
    const [pending] = (await jobsOf(t, a.tenantId, "timeout")).filter((j) => j.key === `survey-${surveyId}`);
    expect(pending).toBeDefined();
    // Just before it: still waiting.
    clock.set(pending.runAt - 1000);
    await tick(t);
    await settle();
    expect(await surveyOf(t, a.admin, ticketId)).toMatchObject({ state: "waiting" });

    await t.stop({ keep: true });
    t = await npsCore(clock, t);
    c.t = t;
    await waitFor("the plugin's routes", () => t.api.get("/nps/settings", a.admin), (r) => r.status === 200);
    clock.set(pending.runAt + 1000);
    await tick(t);
    // The web chat's outbox is the new core's: only what went after the restart.
    await waitFor("the timeout message", () => c.received(), (r) => r.length === 1);
    expect(await c.received()).toEqual(["Pesquisa encerrada, Diego."]);
    expect(await surveyOf(t, a.admin, ticketId)).toMatchObject({ state: "timedOut", score: null });

    // The timeout's job run again (a retry after a lost answer): nothing sent again.
    expect(await t.core.broker.call("v1.module-nps.runJob", { jobId: "probe-timeout", name: "timeout", key: `survey-${surveyId}`, tenantId: a.tenantId, dueAt: pending.runAt, attempt: 2, data: { id: surveyId } })).toBe("timedOut");
    await later(t, clock, 60 * MIN);
    await settle();
    expect(await c.received()).toEqual(["Pesquisa encerrada, Diego."]);
    expect(await c.sentOn(ticketId)).toEqual(["Até logo, Diego!", "Diego, de 0 a 10, que nota você dá ao atendimento?", "Pesquisa encerrada, Diego."]);
    const next = await c.say("9");
    expect(next.ticketId).not.toBe(ticketId);
    expect(await surveyOf(t, a.admin, ticketId)).toMatchObject({ state: "timedOut", score: null });
  });

  it("a mass close asks; a plugin's close, a group's and a tenant with the survey off do not", async () => {
    const c = new Customer(t, a, "Eva Prado");
    const { ticketId } = await c.say("Olá");
    await ok(t.api.post("/tickets/mass-resolve", { ticketIds: [ticketId] }, a.admin));
    const job = await requestJob(t, a.tenantId, ticketId);
    clock.set(Math.max(clock.now(), job.runAt));
    await tick(t);
    await waitFor("the request", () => c.received(), (r) => r.includes("Eva, de 0 a 10, que nota você dá ao atendimento?"));
    expect(await surveyOf(t, a.admin, ticketId)).toMatchObject({ closedVia: "mass", state: "waiting" });

    const ticket = { id: 987_001, contactId: c.contactId, connectionId: a.conn, queueId: null, userId: null, isGroup: false, status: "closed", closedAt: new Date(clock.now()).toISOString() };
    const closed = (id: number, data: Record<string, unknown>) => t.core.broker.call("v1.module-nps.platformEvent", { id: `probe-${id}`, event: "ticket.closed", tenantId: a.tenantId, at: clock.now(), data });
    await closed(1, { ticket, via: "plugin" });
    await closed(2, { ticket: { ...ticket, id: 987_002, isGroup: true }, via: "agent" });
    expect((await jobsOf(t, a.tenantId, "request")).filter((j) => j.key.startsWith("ticket-98700"))).toEqual([]);

    const off = await shop(t, null);
    const d = new Customer(t, off, "Fábio Reis");
    await d.say("Oi");
    await ok(t.api.put(`/tickets/${d.ticketId}`, { status: "closed" }, off.admin));
    await waitFor("the farewell", () => d.received(), (r) => r.length === 1);
    await settle();
    expect(await jobsOf(t, off.tenantId)).toEqual([]);
  });

  it("on a scale of 5 replies go from 0 to 5 and a 4 is passive; a newer close replaces a survey still waiting", async () => {
    const five = await shop(t, { enabled: true, scale: 5, ...TEXTS });
    const c = new Customer(t, five, "Gil Souto");
    const first = await surveyed(t, clock, five, c);
    await waitFor("the request", () => c.received(), (r) => r[1] === "Gil, de 0 a 5, que nota você dá ao atendimento?");
    const second = await surveyed(t, clock, five, c);
    expect(await surveyOf(t, five.admin, first)).toMatchObject({ state: "replaced" });
    await c.say("6");
    await waitFor("the invalid message", () => c.received(), (r) => r.at(-1) === "Responda só com um número de 0 a 5, Gil.");
    await c.say("4");
    await waitFor("the answer", () => surveyOf(t, five.admin, second), (s) => s?.state === "answered");
    expect(await surveyOf(t, five.admin, second)).toMatchObject({ score: 4, npsGroup: "passive", scale: 5 });
  });
});

async function servedAndClosedWaitingFarewell(c: Customer): Promise<number> {
  const { ticketId } = await c.say("Oi, preciso de ajuda");
  await ok(t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.agent));
  await ok(t.api.put(`/tickets/${ticketId}`, { status: "closed" }, a.agent));
  await waitFor("the farewell", () => c.received(), (r) => r.length === 1);
  return ticketId;
}
