/**
 * The one scheduler against the machine's Redis (Bull 4): brokers with the scheduler service
 * and a TestClock, ticked by hand after moving the clock. Each test has an installation
 * prefix of its own; nothing waits but for a condition.
 *
 *   npx jest core/test/scheduler.test.ts
 */
import { ServiceBroker, type ServiceSchema } from "moleculer";
import Redis from "ioredis";
import { jobActions, pluginJobs, type JobDelivery } from "@openatende/plugin-sdk";
import { TestClock } from "../src/lib/clock";
import { createSchedulerService, schedulerOf } from "../src/scheduler/scheduler.service";
import { jobHandlers, type CoreJobHandler } from "../src/scheduler";
import { STUCK_AFTER_MS } from "../src/scheduler/owner-queues";
import { call } from "../src/bus/call";
import { startCore, uid } from "./helpers";

const REDIS_URL = "redis://127.0.0.1:6379";
const MINUTE = 60_000;
const redis = new Redis(REDIS_URL);
const brokers: ServiceBroker[] = [];
const prefixes: string[] = [];

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, ms = 15_000) {
  const until = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A node: a broker with the scheduler (and the given services and core handlers) on the installation `prefix`. */
async function node(prefix: string, clock: TestClock, opts: { handlers?: Record<string, CoreJobHandler>; services?: ServiceSchema[]; groups?: string[]; tickMs?: number } = {}) {
  const broker = new ServiceBroker({ logger: false, nodeID: `n-${uid()}` });
  for (const [name, h] of Object.entries(opts.handlers ?? {})) jobHandlers(broker).register("tickets", name, h);
  broker.createService(createSchedulerService({ redisPrefix: () => prefix, config: { redisUrl: REDIS_URL, services: opts.groups } }, { clock, tickMs: opts.tickMs ?? 0 }));
  for (const s of opts.services ?? []) broker.createService(s);
  await broker.start();
  brokers.push(broker);
  return { broker, scheduler: schedulerOf(broker) };
}

function installation() {
  const prefix = `oa-t:${uid()}:`;
  prefixes.push(prefix);
  return { prefix, clock: new TestClock(Date.now()) };
}

/** The Bull state of a job (null when Bull does not have it). */
async function stateOf(broker: ServiceBroker, owner: string, jobId: string) {
  const job = await schedulerOf(broker).queues.queue(owner).getJob(jobId);
  return job ? job.getState() : null;
}

afterEach(async () => {
  await Promise.all(brokers.splice(0).map((b) => b.stop()));
});

afterAll(async () => {
  for (const p of prefixes) {
    const keys = await redis.keys(`${p}*`);
    if (keys.length) await redis.del(...keys);
  }
  redis.disconnect();
});

describe("scheduler", () => {
  it("runs a job when the clock reaches its due time, once", async () => {
    const { prefix, clock } = installation();
    const runs: JobDelivery[] = [];
    const { broker, scheduler } = await node(prefix, clock, { handlers: { autoClose: (job) => void runs.push(job) } });
    const t0 = clock.now();
    const r = await call(broker, "scheduler.schedule", { owner: "tickets", name: "autoClose", key: "ticket-7", tenantId: 1, delayMs: 10 * MINUTE, data: { ticketId: 7 } });
    expect(r).toEqual({ jobId: `tickets:1:autoClose:ticket-7:${t0 + 10 * MINUTE}`, runAt: t0 + 10 * MINUTE, status: "created" });

    clock.advance(10 * MINUTE - 1);
    expect((await scheduler.tick()).moved).toEqual([]);
    clock.advance(1);
    expect((await scheduler.tick()).moved).toEqual([r.jobId]);
    await waitFor("the job to complete", async () => (await stateOf(broker, "tickets", r.jobId)) === "completed");
    expect(runs).toEqual([{ jobId: r.jobId, owner: "tickets", name: "autoClose", key: "ticket-7", tenantId: 1, dueAt: r.runAt, data: { ticketId: 7 }, attempt: 1, every: null }]);

    clock.advance(MINUTE);
    expect((await scheduler.tick()).moved).toEqual([]);
    expect(await call(broker, "scheduler.list", { owner: "tickets", tenantId: 1 })).toEqual([]);
    expect(runs).toHaveLength(1);
  });

  it("scheduling the same key twice runs it once; a new due time moves it", async () => {
    const { prefix, clock } = installation();
    const runs: string[] = [];
    const { broker, scheduler } = await node(prefix, clock, { handlers: { remind: (job) => void runs.push(job.jobId) } });
    const runAt = clock.now() + 5 * MINUTE;
    const job = { owner: "tickets", name: "remind", key: "r-1", tenantId: 3, runAt };
    const a = await call(broker, "scheduler.schedule", job);
    const b = await call(broker, "scheduler.schedule", job);
    expect([a.status, b.status, b.jobId]).toEqual(["created", "unchanged", a.jobId]);
    expect(await call(broker, "scheduler.list", { owner: "tickets", tenantId: 3 })).toHaveLength(1);

    // The same occurrence scheduled again once it ran (by a retry of the caller) still runs once.
    clock.advance(5 * MINUTE);
    expect((await scheduler.tick()).moved).toEqual([a.jobId]);
    await waitFor("the job to complete", async () => (await stateOf(broker, "tickets", a.jobId)) === "completed");
    expect((await call(broker, "scheduler.schedule", job)).status).toBe("created");
    expect((await scheduler.tick()).moved).toEqual([a.jobId]);
    await waitFor("the queue to be idle", async () => (await schedulerOf(broker).queues.queue("tickets").getJobCounts()).waiting === 0);
    await waitFor("the job to be completed", async () => (await stateOf(broker, "tickets", a.jobId)) === "completed");
    expect(runs).toEqual([a.jobId]);

    // Rescheduling a key moves its pending occurrence: only the later one runs.
    const first = await call(broker, "scheduler.schedule", { ...job, key: "r-2", runAt: clock.now() + MINUTE });
    const moved = await call(broker, "scheduler.schedule", { ...job, key: "r-2", runAt: clock.now() + 3 * MINUTE });
    expect(moved.status).toBe("replaced");
    clock.advance(2 * MINUTE);
    expect((await scheduler.tick()).moved).toEqual([]);
    clock.advance(MINUTE);
    expect((await scheduler.tick()).moved).toEqual([moved.jobId]);
    await waitFor("the moved job to run", () => runs.length === 2);
    expect(runs).toEqual([a.jobId, moved.jobId]);
    expect(await stateOf(broker, "tickets", first.jobId)).toBeNull();
  });

  it("between two ticks its timer wakes at a job's due time; two nodes waking together run each job once", async () => {
    const { prefix, clock } = installation();
    const runs: string[] = [];
    const handlers = { remind: (job: JobDelivery) => void runs.push(job.jobId) };
    // Ten minutes between ticks: only the wake-up at the due time can run the jobs within the test.
    const one = await node(prefix, clock, { handlers, tickMs: 10 * MINUTE });
    const two = await node(prefix, clock, { handlers, tickMs: 10 * MINUTE });
    const runAt = clock.now() + 300;
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await call(i % 2 ? one.broker : two.broker, "scheduler.schedule", { owner: "tickets", name: "remind", key: `w-${i}`, tenantId: 1, runAt })).jobId);
    expect(runs).toEqual([]);
    clock.advance(300);
    await waitFor("every job to run", () => runs.length >= ids.length, 10_000);
    await waitFor("both queues to be idle", async () => (await one.scheduler.queues.queue("tickets").getJobCounts()).active === 0);
    expect(runs.sort()).toEqual([...ids].sort());
    expect(await one.scheduler.nextDueAt()).toBeNull();
  });

  it("a backlog larger than one batch is moved in one tick, each job once", async () => {
    const { prefix, clock } = installation();
    const runs: string[] = [];
    const { broker, scheduler } = await node(prefix, clock, { handlers: { remind: (job) => void runs.push(job.jobId) } });
    const runAt = clock.now() + MINUTE;
    await Promise.all(Array.from({ length: 520 }, (_, i) => call(broker, "scheduler.schedule", { owner: "tickets", name: "remind", key: `b-${i}`, tenantId: 1, runAt: runAt + i })));
    clock.advance(MINUTE + 520);
    const moved = (await scheduler.tick()).moved;
    expect(new Set(moved).size).toBe(520);
    expect((await scheduler.tick()).moved).toEqual([]);
    await waitFor("every job to run", () => runs.length >= 520, 30_000);
    expect(new Set(runs).size).toBe(520);
    expect(runs).toHaveLength(520);
  });

  it("a restart between scheduling and the due time runs the job once", async () => {
    const { prefix, clock } = installation();
    const runs: string[] = [];
    const handlers = { remind: (job: JobDelivery) => void runs.push(job.jobId) };
    const one = await node(prefix, clock, { handlers });
    const r = await call(one.broker, "scheduler.schedule", { owner: "tickets", name: "remind", key: "k", tenantId: 1, delayMs: MINUTE });
    await one.broker.stop();
    brokers.splice(brokers.indexOf(one.broker), 1);

    const two = await node(prefix, clock, { handlers });
    // The caller's own retry after the restart is the same job.
    expect((await call(two.broker, "scheduler.schedule", { owner: "tickets", name: "remind", key: "k", tenantId: 1, runAt: r.runAt })).status).toBe("unchanged");
    clock.advance(MINUTE);
    expect((await two.scheduler.tick()).moved).toEqual([r.jobId]);
    await waitFor("the job to complete", async () => (await stateOf(two.broker, "tickets", r.jobId)) === "completed");
    expect((await two.scheduler.tick()).moved).toEqual([]);
    expect(runs).toEqual([r.jobId]);
  });

  it("a handler that throws is retried per its attempts; a finished job run again after a crash is skipped", async () => {
    const { prefix, clock } = installation();
    const attempts: number[] = [];
    const done: string[] = [];
    const { broker, scheduler } = await node(prefix, clock, {
      handlers: {
        flaky: (job) => {
          attempts.push(job.attempt);
          if (job.attempt < 3) throw new Error("the channel is down");
        },
        once: (job) => void done.push(job.jobId),
      },
    });
    const flaky = await call(broker, "scheduler.schedule", { owner: "tickets", name: "flaky", key: "f", tenantId: 1, delayMs: 0, attempts: 3, backoffMs: 0 });
    const hopeless = await call(broker, "scheduler.schedule", { owner: "tickets", name: "flaky", key: "h", tenantId: 2, delayMs: 0, attempts: 2, backoffMs: 0 });
    await scheduler.tick();
    await waitFor("the flaky job to complete", async () => (await stateOf(broker, "tickets", flaky.jobId)) === "completed");
    await waitFor("the hopeless job to fail", async () => (await stateOf(broker, "tickets", hopeless.jobId)) === "failed");
    expect(attempts.sort()).toEqual([1, 1, 2, 2, 3]);

    // A crash after the handler finished but before Bull recorded it: Bull runs the job again
    // (its stall recovery puts it back on the wait list). Simulated by putting it back.
    const once = await call(broker, "scheduler.schedule", { owner: "tickets", name: "once", key: "o", tenantId: 1, delayMs: 0 });
    await scheduler.tick();
    await waitFor("the job to complete", async () => (await stateOf(broker, "tickets", once.jobId)) === "completed");
    const q = scheduler.queues.queue("tickets");
    await q.client.multi().zrem(q.toKey("completed"), once.jobId).hdel(q.toKey(once.jobId), "finishedOn", "returnvalue").lpush(q.toKey("wait"), once.jobId).exec();
    await waitFor("the re-run to complete", async () => (await q.getJob(once.jobId))?.returnvalue?.skipped === "done");
    expect(done).toEqual([once.jobId]);
  });

  it("the watchdog runs a job stuck active for over 5 minutes again, exactly once across passes and nodes", async () => {
    const { prefix, clock } = installation();
    const starts: number[] = [];
    let release!: () => void;
    const hung = new Promise<void>((r) => (release = r));
    const handlers: Record<string, CoreJobHandler> = {
      slow: async (job) => {
        starts.push(job.attempt);
        if (starts.length === 1) await hung;
      },
    };
    const a = await node(prefix, clock, { handlers });
    const b = await node(prefix, clock, { handlers });
    const r = await call(a.broker, "scheduler.schedule", { owner: "tickets", name: "slow", key: "s", tenantId: 1, delayMs: MINUTE });
    clock.advance(MINUTE);
    await a.scheduler.tick();
    await waitFor("the first run to start", () => starts.length === 1);
    // Seen active now; not stuck at exactly 5 minutes.
    expect((await b.scheduler.tick()).rescued).toEqual([]);
    clock.advance(STUCK_AFTER_MS);
    expect((await a.scheduler.tick()).rescued).toEqual([]);

    clock.advance(1);
    const passes = await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    const again = await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    expect([...passes, ...again].flatMap((p) => p.rescued)).toEqual([r.jobId]);
    await waitFor("the job to run again and complete", async () => starts.length === 2 && (await stateOf(a.broker, "tickets", r.jobId)) === "completed");
    clock.advance(10 * MINUTE);
    expect([...(await Promise.all([a.scheduler.tick(), b.scheduler.tick()]))].flatMap((p) => p.rescued)).toEqual([]);
    release();
    await waitFor("the hung run to end", async () => (await a.scheduler.queues.queue("tickets").getJobCounts()).active === 0);
    expect(starts).toHaveLength(2);
  });

  it("a recurring job fires once each period, on every node together", async () => {
    const { prefix, clock } = installation();
    const runs: number[] = [];
    const handlers = { digest: (job: JobDelivery) => void runs.push(job.dueAt) };
    const a = await node(prefix, clock, { handlers });
    const b = await node(prefix, clock, { handlers });
    const t0 = clock.now();
    const r = await call(a.broker, "scheduler.schedule", { owner: "tickets", name: "digest", key: "daily", tenantId: 4, every: 10 * MINUTE });
    expect(r.runAt).toBe(t0 + 10 * MINUTE);
    for (let period = 1; period <= 3; period++) {
      clock.advance(10 * MINUTE);
      await Promise.all([a.scheduler.tick(), b.scheduler.tick(), a.scheduler.tick()]);
      await waitFor(`run ${period}`, () => runs.length >= period);
      const [next] = await call(b.broker, "scheduler.list", { owner: "tickets", tenantId: 4 });
      expect(next.runAt).toBe(t0 + (period + 1) * 10 * MINUTE);
    }
    // Down for three periods: one run, then the next one after now.
    clock.advance(35 * MINUTE);
    await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    await waitFor("the late run", () => runs.length >= 4);
    expect((await call(a.broker, "scheduler.list", { owner: "tickets", tenantId: 4 }))[0].runAt).toBe(t0 + 70 * MINUTE);
    expect(await call(a.broker, "scheduler.cancel", { owner: "tickets", tenantId: 4, name: "digest", key: "daily" })).toEqual({ cancelled: true, jobId: `tickets:4:digest:daily:${t0 + 70 * MINUTE}` });
    clock.advance(60 * MINUTE);
    expect((await a.scheduler.tick()).moved).toEqual([]);
    await waitFor("the queue to be idle", async () => {
      const c = await a.scheduler.queues.queue("tickets").getJobCounts();
      return c.active + c.waiting === 0;
    });
    expect(runs).toEqual([10, 20, 30, 40].map((m) => t0 + m * MINUTE));
  });

  it("tenant B neither lists nor cancels tenant A's jobs", async () => {
    const { prefix, clock } = installation();
    const runs: number[] = [];
    const { broker, scheduler } = await node(prefix, clock, { handlers: { remind: (job) => void runs.push(job.tenantId) } });
    const job = { owner: "tickets", name: "remind", key: "ticket-1", delayMs: MINUTE };
    const a = await call(broker, "scheduler.schedule", { ...job, tenantId: 10 });
    const b = await call(broker, "scheduler.schedule", { ...job, tenantId: 11 });
    expect(a.jobId).not.toBe(b.jobId);
    expect((await call(broker, "scheduler.list", { owner: "tickets", tenantId: 11 })).map((j) => j.jobId)).toEqual([b.jobId]);
    expect(await call(broker, "scheduler.cancel", { owner: "tickets", tenantId: 11, name: "remind", key: "ticket-1" })).toEqual({ cancelled: true, jobId: b.jobId });
    expect(await call(broker, "scheduler.cancel", { owner: "tickets", tenantId: 11, name: "remind", key: "ticket-1" })).toEqual({ cancelled: false, jobId: null });
    expect((await call(broker, "scheduler.list", { owner: "tickets", tenantId: 10 })).map((j) => j.jobId)).toEqual([a.jobId]);
    clock.advance(MINUTE);
    expect((await scheduler.tick()).moved).toEqual([a.jobId]);
    await waitFor("tenant A's job", () => runs.length === 1);
    expect(runs).toEqual([10]);
  });

  it("a plugin's job reaches only that plugin, and a plugin acts only as itself", async () => {
    const { prefix, clock } = installation();
    const got: Record<string, JobDelivery[]> = { "plugin-a": [], "plugin-b": [] };
    const plugin = (id: string): ServiceSchema => ({
      name: id,
      version: 1,
      created() {
        (this as unknown as { jobs: ReturnType<typeof pluginJobs> }).jobs = pluginJobs(this);
      },
      actions: {
        ...jobActions({
          remind(ctx, job) {
            got[id].push(job);
          },
        }),
        book: {
          handler(ctx) {
            const jobs = (this as unknown as { jobs: ReturnType<typeof pluginJobs> }).jobs;
            return jobs.schedule(ctx, { name: "remind", key: "booking-1", tenantId: 1, delayMs: MINUTE, data: { by: id } });
          },
        },
        cancelOf: {
          handler(ctx) {
            return ctx.call("scheduler.cancel", { owner: ctx.params.owner, tenantId: 1, name: "remind", key: "booking-1" });
          },
        },
      },
    });
    const { broker, scheduler } = await node(prefix, clock, { services: [plugin("plugin-a"), plugin("plugin-b")] });
    const a = (await broker.call("v1.plugin-a.book")) as { jobId: string };
    const b = (await broker.call("v1.plugin-b.book")) as { jobId: string };
    expect(a.jobId).toBe(`plugin-a:1:remind:booking-1:${clock.now() + MINUTE}`);
    expect(b.jobId).not.toBe(a.jobId);

    await expect(broker.call("v1.plugin-b.cancelOf", { owner: "plugin-a" })).rejects.toMatchObject({ type: "ERR_NO_PERMISSION" });
    await expect(call(broker, "scheduler.schedule", { owner: "plugin-a", service: "v1.plugin-b", name: "remind", key: "x", tenantId: 1, delayMs: 0 })).rejects.toMatchObject({ type: "ERR_VALIDATION" });
    expect(await call(broker, "scheduler.list", { owner: "plugin-b", tenantId: 1 })).toHaveLength(1);

    clock.advance(MINUTE);
    expect((await scheduler.tick()).moved.sort()).toEqual([a.jobId, b.jobId].sort());
    await waitFor("both deliveries", () => got["plugin-a"].length + got["plugin-b"].length === 2);
    expect(got["plugin-a"].map((j) => [j.owner, j.jobId, j.data.by])).toEqual([["plugin-a", a.jobId, "plugin-a"]]);
    expect(got["plugin-b"].map((j) => [j.owner, j.jobId, j.data.by])).toEqual([["plugin-b", b.jobId, "plugin-b"]]);
  });

  it("a plugin's job that met a core service missing (still loading) is delivered again once it is up, in the same attempt", async () => {
    const { prefix, clock } = installation();
    const attempts: number[] = [];
    const got: JobDelivery[] = [];
    const plugin: ServiceSchema = {
      name: "plugin-needy",
      version: 1,
      actions: {
        ...jobActions({
          async remind(ctx, job) {
            attempts.push(job.attempt);
            await ctx.call("late-core.check");
            got.push(job);
          },
        }),
      },
    };
    const { broker, scheduler } = await node(prefix, clock, { services: [plugin] });
    const r = await call(broker, "scheduler.schedule", { owner: "plugin-needy", service: "v1.plugin-needy", name: "remind", key: "k", tenantId: 1, delayMs: MINUTE, attempts: 1 });
    clock.advance(MINUTE);
    expect((await scheduler.tick()).moved).toEqual([r.jobId]);
    await waitFor("the first delivery", () => attempts.length === 1);
    // One attempt only: without the wait, the job would fail here.
    broker.createService({ name: "late-core", actions: { check: () => true } });
    await waitFor("the delivery once the service is up", () => got.length === 1);
    expect(attempts).toEqual([1, 1]);
    await waitFor("the job to complete", async () => (await stateOf(broker, "plugin-needy", r.jobId)) === "completed");

    // The plugin itself not on the bus yet: its job waits for it, within the attempt.
    const later = await call(broker, "scheduler.schedule", { owner: "plugin-later", service: "v1.plugin-later", name: "remind", key: "k", tenantId: 1, delayMs: MINUTE, attempts: 1 });
    clock.advance(MINUTE);
    expect((await scheduler.tick()).moved).toEqual([later.jobId]);
    await waitFor("the job to wait for its plugin", async () => (await stateOf(broker, "plugin-later", later.jobId)) === "active");
    broker.createService({ ...plugin, name: "plugin-later" });
    await waitFor("the job to complete", async () => (await stateOf(broker, "plugin-later", later.jobId)) === "completed");
    expect(got.map((j) => j.owner)).toEqual(["plugin-needy", "plugin-later"]);
  });

  it("on a node of the plugin host, a plugin's due job waits for the host to be up (a restart with jobs already due)", async () => {
    const { prefix, clock } = installation();
    const got: JobDelivery[] = [];
    const plugin: ServiceSchema = {
      name: "plugin-late",
      version: 1,
      actions: {
        ...jobActions({
          remind(_ctx, job) {
            got.push(job);
          },
        }),
      },
    };
    const { broker, scheduler } = await node(prefix, clock, { services: [plugin], groups: ["all"] });
    await call(broker, "scheduler.schedule", { owner: "plugin-late", service: "v1.plugin-late", name: "remind", key: "k", tenantId: 1, delayMs: 0 });
    expect((await scheduler.tick()).moved).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 1500));
    expect(got).toHaveLength(0);
    // The plugin host comes up (its `started` loads the plugins): the job is delivered, once.
    broker.createService({ name: "plugins" });
    await waitFor("the delivery after the host is up", () => got.length === 1, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(got).toHaveLength(1);
  });

  it("refuses a job without a time, with two times, or with a bad rule", async () => {
    const { prefix, clock } = installation();
    const { broker } = await node(prefix, clock);
    const base = { owner: "tickets", name: "x", key: "k", tenantId: 1 };
    await expect(call(broker, "scheduler.schedule", base)).rejects.toMatchObject({ type: "ERR_VALIDATION", data: { field: "runAt" } });
    await expect(call(broker, "scheduler.schedule", { ...base, runAt: clock.now(), delayMs: 5 })).rejects.toMatchObject({ type: "ERR_VALIDATION", data: { field: "runAt" } });
    await expect(call(broker, "scheduler.schedule", { ...base, runAt: "not a date" })).rejects.toMatchObject({ type: "ERR_VALIDATION", data: { field: "runAt" } });
    await expect(call(broker, "scheduler.schedule", { ...base, every: { at: "25:00" } })).rejects.toMatchObject({ type: "ERR_VALIDATION", data: { field: "every.at" } });
    await expect(call(broker, "scheduler.schedule", { ...base, owner: "Bad Owner", delayMs: 0 })).rejects.toMatchObject({ type: "VALIDATION_ERROR" });
    const iso = new Date(clock.now() + MINUTE).toISOString();
    expect((await call(broker, "scheduler.schedule", { ...base, runAt: iso })).runAt).toBe(Date.parse(iso));
  });

  it("runs in the core, its Redis and Bull keys under the installation's prefix", async () => {
    // No timer of its own: the test ticks it (a timer's tick could move the job first).
    const t = await startCore({ schedulerTickMs: 0 });
    try {
      const clock = new TestClock(Date.now());
      const scheduler = schedulerOf(t.core.broker);
      scheduler.useClock(clock);
      const runs: string[] = [];
      // A domain may register after the start: its queue is worked from then on.
      jobHandlers(t.core.broker).register("smoke", "ping", (job) => void runs.push(job.jobId));
      const r = await call(t.core.broker, "scheduler.schedule", { owner: "smoke", name: "ping", key: "1", tenantId: 1, delayMs: MINUTE });
      const prefix = t.core.deps.redisPrefix();
      prefixes.push(`${prefix}scheduler:`);
      expect(await redis.zscore(`${prefix}scheduler:due`, r.jobId)).toBe(String(r.runAt));
      clock.advance(MINUTE);
      expect((await scheduler.tick()).moved).toEqual([r.jobId]);
      await waitFor("the job to run", () => runs.length === 1);
      expect(await redis.exists(`${prefix}scheduler:bull:smoke:${r.jobId}`)).toBe(1);
      expect(runs).toEqual([r.jobId]);
    } finally {
      await t.stop();
    }
  });
});
