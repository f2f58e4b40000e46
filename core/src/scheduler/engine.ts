/**
 * The scheduler's engine: schedule, cancel and list pending jobs (store.ts), and the tick
 * that moves due ones into their owner's Bull queue (owner-queues.ts) and runs the stuck-job
 * watchdog. What is due is decided by the injectable clock: production ticks on a timer,
 * tests call tick() after moving a TestClock.
 *
 * Exactly-once, step by step: a pending occurrence has a deterministic id (store.ts jobIdOf);
 * the tick adds it to Bull with that id *before* removing it from the pending set (a crash in
 * between re-adds it, which Bull ignores); the worker skips an id whose done-marker exists
 * (a re-run after a crash mid-way, once the handler had finished); the watchdog's move is
 * guarded by a marker set in the same script. A recurring series advances in the same script
 * that settles its current occurrence, guarded by the key's pointer, so it advances once.
 */
import type { ServiceBroker } from "moleculer";
import type Redis from "ioredis";
import { PLUGIN_JOB_ACTION, type JobDelivery, type ScheduleJobParams, type ScheduleJobResult, type ScheduledJob } from "@openatende/plugin-sdk";
import type { Clock } from "../lib/clock";
import { invalid } from "../errors/app-error";
import { followingOccurrence, nextOccurrence, recurrenceProblem } from "./recurrence";
import { PendingStore, jobIdOf, type JobSpec } from "./store";
import { OwnerQueues } from "./owner-queues";
import type { JobHandlers } from "./registry";

/** Due jobs moved per pass (the next pass, at once, takes the rest). */
const TICK_BATCH = 500;
/** Due jobs handed to Bull at once within a pass (each is its own add, then its own settle). */
const MOVE_CONCURRENCY = 16;
/** Batches one pass takes at most (a backlog after downtime); the next pass takes the rest. */
const MAX_ROUNDS = 20;
const DEFAULT_ATTEMPTS = 3;
const DEFAULT_BACKOFF_MS = 5000;
/** How long a plugin's job waits, within its attempt, for a core service it met missing. */
const MISSING_SERVICE_WAIT_MS = 30_000;

/** The service a "service not found" failure names (`plugins` of `plugins.availability`), else null. */
export function missingServiceOf(err: unknown): string | null {
  const e = err as { type?: string; data?: { action?: unknown } } | null;
  if (e?.type !== "SERVICE_NOT_FOUND" && e?.type !== "SERVICE_NOT_AVAILABLE") return null;
  const action = typeof e.data?.action === "string" ? e.data.action : "";
  const dot = action.lastIndexOf(".");
  return dot > 0 ? action.slice(0, dot) : null;
}

export interface SchedulerOptions {
  broker: ServiceBroker;
  redisUrl: string;
  /** The installation's Redis prefix, with its trailing colon (deps.redisPrefix()). */
  prefix: string;
  /** The scheduler's client, its keys under `<prefix>scheduler:`. */
  redis: Redis;
  clock: Clock;
  handlers: JobHandlers;
  warn(msg: string): void;
  /**
   * Resolves once plugins can act: a plugin's job is delivered only then. Jobs come due the
   * moment a restarted node opens its queues, while the plugin host is still loading plugins;
   * a plugin then asking the core to send met "plugins.availability is not found" and spent
   * its job's attempts on it. Absent: delivered at once.
   */
  pluginsReady?(): Promise<void>;
  /** A job was scheduled on this node for `dueAt` (the service wakes up then, when it is sooner than planned). */
  scheduled?(dueAt: number): void;
}

export interface TickResult {
  /** Job ids handed to Bull. */
  moved: string[];
  /** Job ids the watchdog moved back to wait. */
  rescued: string[];
}

export class Scheduler {
  readonly store: PendingStore;
  readonly queues: OwnerQueues;
  private unlisten?: () => void;
  private ticking?: Promise<TickResult>;

  constructor(private o: SchedulerOptions) {
    this.store = new PendingStore(o.redis);
    this.queues = new OwnerQueues({ redisUrl: o.redisUrl, bullPrefix: `${o.prefix}scheduler:bull`, redis: o.redis, clock: o.clock, warn: o.warn });
  }

  get clock(): Clock {
    return this.o.clock;
  }

  /** Decides by `clock` from now on: a test of a whole core moves a TestClock instead of waiting. */
  useClock(clock: Clock): void {
    this.o.clock = clock;
    this.queues.useClock(clock);
  }

  /** Opens the queues of every owner known to this installation; works those this node can run. */
  async start(): Promise<void> {
    const owners = await this.store.owners();
    for (const owner of new Set([...Object.keys(owners), ...this.o.handlers.owners()])) this.open(owner, owners[owner] || null);
    this.unlisten = this.o.handlers.onRegister((owner) => this.open(owner, null));
  }

  async stop(): Promise<void> {
    this.unlisten?.();
    await this.ticking?.catch(() => undefined);
    await this.queues.close();
  }

  /** A core owner's queue is worked where its handlers are registered; a plugin's anywhere (delivery is a bus call). */
  private open(owner: string, service: string | null): void {
    this.queues.queue(owner);
    if (service || this.o.handlers.owners().includes(owner)) this.queues.work(owner, (spec, job) => this.run(spec, job.attemptsMade + 1));
  }

  private async run(spec: JobSpec, attempt: number): Promise<unknown> {
    const delivery: JobDelivery = { jobId: spec.jobId, owner: spec.owner, name: spec.name, key: spec.key, tenantId: spec.tenantId, dueAt: spec.dueAt, data: spec.data, attempt, every: spec.every };
    if (spec.service) {
      await this.o.pluginsReady?.();
      const deliver = () => this.o.broker.call(`${spec.service}.${PLUGIN_JOB_ACTION}`, delivery);
      try {
        return await deliver();
      } catch (err) {
        // The plugin, or a core service it called, is not on the bus yet (a restarted node whose
        // plugin host is still loading): waited for a while and delivered again in this attempt,
        // rather than after the attempt's backoff (the restart run of bench:scheduler: messages
        // due while the core was down went out 5 s and more after it was back). The plugin's job
        // is idempotent per occurrence, as every retry requires.
        const missing = missingServiceOf(err);
        if (!missing) throw err;
        const back = await this.o.broker.waitForServices([missing], MISSING_SERVICE_WAIT_MS, 100).then(
          () => true,
          () => false,
        );
        if (!back) throw err;
        return deliver();
      }
    }
    const handler = this.o.handlers.get(spec.owner, spec.name);
    if (!handler) throw new Error(`no handler for the job ${spec.owner}.${spec.name} on this node`);
    return handler(delivery, this.o.broker);
  }

  /** Validates and stores a job's pending occurrence (see ScheduleJobParams). */
  async schedule(p: ScheduleJobParams): Promise<ScheduleJobResult> {
    const now = this.o.clock.now();
    const when = [p.runAt, p.delayMs].filter((x) => x !== undefined && x !== null).length;
    if (when > 1) throw invalid("runAt", "any", { reason: "runAt and delayMs exclude each other" });
    if (when === 0 && p.every === undefined) throw invalid("runAt", "required", { reason: "runAt, delayMs or every is required" });
    if (p.every !== undefined) {
      const problem = recurrenceProblem(p.every);
      if (problem) throw invalid(problem, "any");
    }
    let dueAt: number;
    if (p.runAt !== undefined && p.runAt !== null) {
      dueAt = typeof p.runAt === "number" ? p.runAt : Date.parse(p.runAt);
      if (!Number.isFinite(dueAt)) throw invalid("runAt", "date");
      dueAt = Math.round(dueAt);
    } else if (p.delayMs !== undefined && p.delayMs !== null) {
      dueAt = now + p.delayMs;
    } else {
      dueAt = nextOccurrence(p.every!, now);
    }
    const spec: JobSpec = {
      jobId: "",
      owner: p.owner,
      name: p.name,
      key: p.key,
      tenantId: p.tenantId,
      dueAt,
      every: p.every ?? null,
      data: p.data ?? {},
      attempts: p.attempts ?? DEFAULT_ATTEMPTS,
      backoffMs: p.backoffMs ?? DEFAULT_BACKOFF_MS,
      service: p.service ?? null,
    };
    spec.jobId = jobIdOf(spec);
    const status = await this.store.put(spec);
    this.open(spec.owner, spec.service);
    this.o.scheduled?.(dueAt);
    return { jobId: spec.jobId, runAt: dueAt, status };
  }

  /**
   * Cancels the key's pending occurrence (a recurring series stops). An occurrence already
   * due was handed to Bull and runs: a handler that must not act late checks its own state.
   */
  async cancel(k: { owner: string; tenantId: number; name: string; key: string }): Promise<{ cancelled: boolean; jobId: string | null }> {
    const jobId = await this.store.cancel(k);
    return { cancelled: !!jobId, jobId };
  }

  async list(owner: string, tenantId: number, name?: string): Promise<ScheduledJob[]> {
    const specs = await this.store.list(owner, tenantId);
    return specs
      .filter((s) => !name || s.name === name)
      .map((s) => ({ jobId: s.jobId, owner: s.owner, name: s.name, key: s.key, tenantId: s.tenantId, runAt: s.dueAt, every: s.every, data: s.data }));
  }

  /** Moves due jobs into Bull and runs the watchdog; concurrent calls share one pass. */
  tick(): Promise<TickResult> {
    return this.share(true);
  }

  /**
   * Moves due jobs into Bull, without the watchdog: the wake-up at a job's due time between
   * two ticks (scheduler.service.ts), so a job does not wait for the next tick to be handed over.
   */
  moveDue(): Promise<TickResult> {
    return this.share(false);
  }

  /** When the soonest pending job is due (null when none is pending). */
  nextDueAt(): Promise<number | null> {
    return this.store.nextDueAt();
  }

  private share(watchdog: boolean): Promise<TickResult> {
    if (!this.ticking) this.ticking = this.pass(watchdog).finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async pass(watchdog: boolean): Promise<TickResult> {
    const now = this.o.clock.now();
    const moved: string[] = [];
    let due: JobSpec[];
    let rounds = 0;
    do {
      due = await this.store.due(now, TICK_BATCH);
      // Each job is added before it is settled (see the top); jobs do not wait for each other.
      await eachLimited(due, MOVE_CONCURRENCY, async (spec) => {
        this.open(spec.owner, spec.service);
        await this.queues.add(spec);
        let next: JobSpec | null = null;
        if (spec.every !== null) {
          const dueAt = followingOccurrence(spec.every, spec.dueAt, now);
          next = { ...spec, dueAt };
          next.jobId = jobIdOf(next);
        }
        await this.store.settle(spec, next);
        moved.push(spec.jobId);
      });
    } while (due.length === TICK_BATCH && ++rounds < MAX_ROUNDS);
    const rescued = watchdog ? await this.queues.rescueStuck() : [];
    return { moved, rescued };
  }
}

/** Runs `fn` over `items`, at most `limit` at a time; the first failure is thrown once all have ended. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: { err: unknown } | null = null;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++];
        await fn(item).catch((err: unknown) => {
          failed ??= { err };
        });
      }
    }),
  );
  if (failed) throw (failed as { err: unknown }).err;
}
