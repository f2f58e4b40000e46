/**
 * Auto-close (core/src/automation/auto-close.ts) on the scheduler, driven by a TestClock:
 * after N quiet minutes a ticket closes with its message and the "autoClose" log entry; a new
 * message moves it, a manual close cancels it, the setting off does nothing; and a core
 * restarted on the same database and Redis (and two cores at once) closes each ticket and
 * sends each message exactly once.
 */
import { TestClock } from "../src/lib/clock";
import { jobHandlers } from "../src/scheduler";
import { createTenant, type TestCore, type TenantFixture } from "./helpers";
import { Customer, autoCloseJob, automationCore, jobResult, local, logsOf, sentBodies, setGlobalHours, setSetting, settle, site, tick, ticketRow, waitFor, waitSent, type Site } from "./automation-kit";

const MIN = 60_000;

describe("auto-close (MariaDB)", () => {
  const clock = new TestClock(local("2026-11-30T09:00:00"));
  let t: TestCore;
  let f: TenantFixture;
  let s: Site;

  beforeAll(async () => {
    t = await automationCore(clock);
    f = await createTenant(t, { tier: "PLUS" });
    // A farewell too: it is for the agents' closes, never the automatic ones.
    s = await site(t, f, { farewell: "Até logo!" });
    await setSetting(t, f, "autoClose", { minutes: 10, message: "Encerramos por falta de resposta, {{name}}." });
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** Waits for the ticket's job to be due at `runAt` (the message's event has run). */
  const jobAt = (ticketId: number, runAt: number | null) => waitFor(() => autoCloseJob(t, f.tenantId, ticketId), (v) => v === runAt, `auto-close job of ticket ${ticketId} at ${runAt}`);

  it("closes a quiet ticket after the chosen minutes, with its message and the auto-closed log entry; a new message moves it", async () => {
    const c = new Customer(t, f, s, clock);
    await c.say("Oi");
    await jobAt(c.ticketId, clock.now() + 10 * MIN);

    clock.advance(9 * MIN);
    expect((await tick(t)).moved).toEqual([]);
    // The agent answers at minute 9: the ten minutes count from there.
    expect((await t.api.put(`/tickets/${c.ticketId}`, { status: "open" }, f.agent)).status).toBe(200);
    expect((await t.api.post(`/messages/${c.ticketId}`, { body: "Pode falar" }, f.agent)).status).toBe(201);
    await jobAt(c.ticketId, clock.now() + 10 * MIN);
    clock.advance(9 * MIN);
    expect((await tick(t)).moved).toEqual([]);
    expect((await ticketRow(t, f.tenantId, c.ticketId)).status).toBe("open");

    clock.advance(MIN);
    expect((await tick(t)).moved).toHaveLength(1);
    await waitFor(() => ticketRow(t, f.tenantId, c.ticketId), (r) => r.status === "closed", "the auto-close");
    expect(await waitSent(t, f.tenantId, c.ticketId, 1)).toEqual(["Encerramos por falta de resposta, Ana."]);
    await settle();
    expect(await c.received()).toEqual(["Pode falar", "Encerramos por falta de resposta, Ana."]);
    expect((await logsOf(t, f.tenantId, c.ticketId)).filter((l) => l.type === "autoClose" || l.type === "closed")).toEqual([{ type: "autoClose", userId: null, data: { reason: "inactivity" } }]);
    expect(await autoCloseJob(t, f.tenantId, c.ticketId)).toBeNull();

    // The shell shows the entry (GET /tickets/:id/logs) with its reason.
    const logs = await t.api.get(`/tickets/${c.ticketId}/logs`, f.admin);
    expect(logs.body.find((l: { type: string }) => l.type === "autoClose")).toMatchObject({ userId: null, data: { reason: "inactivity" } });
  });

  it("a ticket closed by hand drops its job and gets the farewell; nothing closes or goes later", async () => {
    const c = new Customer(t, f, s, clock, "Bia Lopes");
    await c.say("Olá");
    await jobAt(c.ticketId, clock.now() + 10 * MIN);
    expect((await t.api.put(`/tickets/${c.ticketId}`, { status: "closed" }, f.admin)).status).toBe(200);
    await jobAt(c.ticketId, null);
    clock.advance(30 * MIN);
    expect((await tick(t)).moved).toEqual([]);
    expect((await logsOf(t, f.tenantId, c.ticketId)).map((l) => l.type)).not.toContain("autoClose");
    expect(await waitSent(t, f.tenantId, c.ticketId, 1)).toEqual(["Até logo!"]);
  });

  it("switched off, a message schedules nothing and a job already due closes nothing; switched on again, the next message counts", async () => {
    const c = new Customer(t, f, s, clock, "Caio Nunes");
    await c.say("Olá");
    await jobAt(c.ticketId, clock.now() + 10 * MIN);
    await setSetting(t, f, "autoClose", { minutes: 0, message: null });
    clock.advance(10 * MIN);
    const { moved } = await tick(t);
    expect(moved).toHaveLength(1);
    // Its run finds the setting off: the job is done and the ticket stays.
    expect(await waitFor(() => jobResult(t, moved[0]), (v) => v !== undefined, "the job's run")).toEqual({ closed: false, skipped: "disabled" });
    expect((await ticketRow(t, f.tenantId, c.ticketId)).status).toBe("pending");
    const other = new Customer(t, f, s, clock, "Duda Reis");
    await other.say("Oi");
    await c.say("Ainda aqui");
    await jobAt(c.ticketId, null);
    expect(await autoCloseJob(t, f.tenantId, other.ticketId)).toBeNull();
    clock.advance(60 * MIN);
    expect((await tick(t)).moved).toEqual([]);
    expect((await ticketRow(t, f.tenantId, c.ticketId)).status).toBe("pending");

    await setSetting(t, f, "autoClose", { minutes: 1, message: null });
    await c.say("E agora?");
    await jobAt(c.ticketId, clock.now() + MIN);
    clock.advance(MIN);
    await tick(t);
    await waitFor(() => ticketRow(t, f.tenantId, c.ticketId), (r) => r.status === "closed", "the auto-close after one minute");
    expect(await sentBodies(t, f.tenantId, c.ticketId)).toEqual([]);
    await setSetting(t, f, "autoClose", { minutes: 10, message: "Encerramos por falta de resposta, {{name}}." });
  });
});

describe("automation through a restart (MariaDB)", () => {
  const clock = new TestClock(local("2026-11-30T20:00:00")); // Monday evening, closed
  let first: TestCore | undefined;
  const later: TestCore[] = [];

  afterAll(async () => {
    for (const c of later.slice(0, -1)) await c.stop({ keep: true });
    await later[later.length - 1]?.stop();
    if (!later.length) await first?.stop();
  });

  it("a core stopped after scheduling, then two cores on the same database and Redis: each ticket closes once, each message goes once", async () => {
    first = await automationCore(clock);
    const f = await createTenant(first, { tier: "PLUS" });
    const s = await site(first, f);
    await setGlobalHours(first, f, { outOfHours: "Fora do horário" });
    await setSetting(first, f, "autoClose", { minutes: 30, message: "Encerrado por inatividade" });
    const customers = [new Customer(first, f, s, clock), new Customer(first, f, s, clock, "Bruno Dias"), new Customer(first, f, s, clock, "Caio Rios")];
    for (const c of customers) await c.say("Boa noite");
    for (const c of customers) {
      expect(await waitSent(first, f.tenantId, c.ticketId, 1)).toEqual(["Fora do horário"]);
      await waitFor(() => autoCloseJob(first!, f.tenantId, c.ticketId), (v) => v === clock.now() + 30 * MIN, "the job");
    }
    const heardFirst = await Promise.all(customers.map((c) => c.received(first)));
    await first.stop({ keep: true });

    // The same installation again (its id and Redis prefix are the database's), twice at once: a restart and a second node.
    const a = await automationCore(clock, first.store);
    later.push(a);
    const b = await automationCore(clock, first.store);
    later.push(b);
    // The same closed period: no second notice, whichever node hears the message.
    clock.advance(5 * MIN);
    for (const [i, c] of customers.entries()) await c.say("Alô?", undefined, i % 2 ? b : a);
    for (const c of customers) await waitFor(() => autoCloseJob(a, f.tenantId, c.ticketId), (v) => v === clock.now() + 30 * MIN, "the job moved");

    // A run repeated on two nodes at once (Bull runs a job again after a crash mid-way): one closes.
    const [rerun] = customers;
    const delivery = { jobId: "rerun", owner: "automation", name: "autoClose", key: String(rerun.ticketId), tenantId: f.tenantId, dueAt: clock.now(), data: { mark: Number.MAX_SAFE_INTEGER }, attempt: 2, every: null };
    const runs = await Promise.all([a, b].map((core) => jobHandlers(core.core.broker).get("automation", "autoClose")!(delivery, core.core.broker)));
    expect(runs.filter((r) => (r as { closed: boolean }).closed)).toHaveLength(1);

    clock.advance(31 * MIN);
    await Promise.all([tick(a), tick(b), tick(a), tick(b)]);
    for (const c of customers) await waitFor(() => ticketRow(a, f.tenantId, c.ticketId), (r) => r.status === "closed", `ticket ${c.ticketId} closed`);
    for (const c of customers) {
      expect(await waitSent(a, f.tenantId, c.ticketId, 2)).toEqual(["Fora do horário", "Encerrado por inatividade"]);
      expect((await logsOf(a, f.tenantId, c.ticketId)).filter((l) => l.type === "autoClose")).toHaveLength(1);
    }
    // On the channel's side: what each core's web chat handed over, together, once each.
    for (const [i, c] of customers.entries()) {
      const heard = [...heardFirst[i], ...(await c.received(a)), ...(await c.received(b))];
      expect(heard).toEqual(["Fora do horário", "Encerrado por inatividade"]);
    }
    // A later tick on either node finds nothing left to do.
    clock.advance(60 * MIN);
    expect((await tick(a)).moved).toEqual([]);
    expect((await tick(b)).moved).toEqual([]);
  }, 150_000); // three cores start in it
});
