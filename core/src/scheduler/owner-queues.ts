/**
 * One Bull queue per owner (a core domain or a plugin), keyed under the installation's
 * prefix: `<installation prefix>scheduler:bull:<owner>:…`. The scheduler adds a job here only
 * when it is due (store.ts decides when), with its deterministic id, so Bull's jobId dedupe
 * makes a second add of the same occurrence (another node, a restart) a no-op; the worker
 * keeps a done-marker per job id so a job that finished is not run again when Bull re-runs it
 * after a crash (Bull is at-least-once).
 *
 * The stuck-job watchdog (spec §9: "a job active for over 5 minutes is treated as stuck and
 * reprocessed") lives here too: Bull has no such setting (its stall check only catches dead
 * workers). A job active for longer than STUCK_AFTER_MS by the scheduler's clock goes back to
 * the wait list once; the job's hash records which run was rescued (field `rescuedFrom` =
 * that run's processedOn), set in the same Lua script as the move, so a second pass or a
 * second node finds it and does nothing. A job stuck again after its rescue fails. The age
 * of a run counts from the first watchdog pass that saw it (a tick, 1 s in production).
 */
import Bull from "bull";
import type Redis from "ioredis";
import type { Clock } from "../lib/clock";
import type { JobSpec } from "./store";
import { closeQueue } from "../lib/bull-close";

/** Active for longer than this = stuck (spec §9). */
export const STUCK_AFTER_MS = 5 * 60_000;
/** How long a finished job's done-marker and Bull record are kept (the dedupe window of a re-add). */
export const DONE_KEEP_SECONDS = 7 * 24 * 3600;
const FAILED_KEEP_SECONDS = 7 * 24 * 3600;
/**
 * Jobs one node runs at once per owner. A job mostly waits (a plugin's send: its database, the
 * core's, the channel), so a handful at once capped an owner at a few dozen jobs a second
 * (10,000 scheduled messages due in a minute fell minutes behind).
 */
export const CONCURRENCY = 24;
/** How long a stop waits for a queue still opening before closing it anyway. */
const CLOSE_WAIT_MS = 3000;

// KEYS: active, wait, job hash, stalled. ARGV: job id, now (the scheduler's clock), STUCK_AFTER_MS.
// A run is known by its processedOn; its age is counted from the first pass that saw it
// (field watchSeen = "<processedOn>|<clock time>"), on the scheduler's clock rather than the
// worker host's Date.now() that Bull wrote.
// 0: not stuck (or no longer active, or already rescued); 1: moved back to wait; 2: stuck again after a rescue.
const RESCUE = `
local run = redis.call("HGET", KEYS[3], "processedOn")
if not run or not redis.call("LPOS", KEYS[1], ARGV[1]) then return 0 end
local mark = run .. "|"
local seen = redis.call("HGET", KEYS[3], "watchSeen")
if not seen or string.sub(seen, 1, #mark) ~= mark then
  redis.call("HSET", KEYS[3], "watchSeen", mark .. ARGV[2])
  return 0
end
if tonumber(ARGV[2]) - tonumber(string.sub(seen, #mark + 1)) <= tonumber(ARGV[3]) then return 0 end
local rescued = redis.call("HGET", KEYS[3], "rescuedFrom")
if rescued == run then return 0 end
if rescued then return 2 end
redis.call("LREM", KEYS[1], -1, ARGV[1])
redis.call("HSET", KEYS[3], "rescuedFrom", run)
redis.call("DEL", KEYS[3] .. ":lock")
redis.call("SREM", KEYS[4], ARGV[1])
redis.call("LPUSH", KEYS[2], ARGV[1])
return 1
`;

export type RunJob = (spec: JobSpec, job: Bull.Job<JobSpec>) => Promise<unknown>;

export interface OwnerQueuesOptions {
  redisUrl: string;
  /** `<installation prefix>scheduler:bull` */
  bullPrefix: string;
  /** The scheduler's own client (its keys under `<installation prefix>scheduler:`): done-markers. */
  redis: Redis;
  clock: Clock;
  warn(msg: string): void;
}

export class OwnerQueues {
  private readonly queues = new Map<string, Bull.Queue<JobSpec>>();
  private readonly working = new Set<string>();
  private closed = false;

  constructor(private o: OwnerQueuesOptions) {}

  useClock(clock: Clock): void {
    this.o = { ...this.o, clock };
  }

  /** The owner's queue (opened on first use). */
  queue(owner: string): Bull.Queue<JobSpec> {
    if (this.closed) throw new Error("the scheduler is stopped");
    let q = this.queues.get(owner);
    if (!q) {
      q = new Bull<JobSpec>(owner, this.o.redisUrl, { prefix: this.o.bullPrefix });
      q.on("error", (err) => this.o.warn(`scheduler queue ${owner}: ${err.message}`));
      // A run that lost its lock (the watchdog moved it back) ends with Bull's "Missing lock" noise; a real stall is worth a line.
      q.on("stalled", (job: Bull.Job<JobSpec>) => this.o.warn(`scheduler job ${job.id} stalled (its worker died or blocked); Bull runs it again`));
      this.queues.set(owner, q);
    }
    return q;
  }

  /** Runs the owner's jobs on this node with `run` (once per owner). */
  work(owner: string, run: RunJob): void {
    if (this.working.has(owner) || this.closed) return;
    this.working.add(owner);
    const done = (id: string) => `done:${owner}:${id}`;
    this.queue(owner)
      .process(CONCURRENCY, async (job) => {
        const id = String(job.id);
        if (await this.o.redis.exists(done(id))) return { skipped: "done" };
        const result = await run(job.data, job);
        await this.o.redis.set(done(id), String(this.o.clock.now()), "EX", DONE_KEEP_SECONDS);
        return result ?? null;
      })
      .catch((err: Error) => this.o.warn(`scheduler worker ${owner} stopped: ${err.message}`));
  }

  /** Hands a due occurrence to Bull (a second add of the same id is ignored by Bull). */
  async add(spec: JobSpec): Promise<void> {
    await this.queue(spec.owner).add(spec, {
      jobId: spec.jobId,
      attempts: spec.attempts,
      ...(spec.backoffMs > 0 ? { backoff: { type: "exponential", delay: spec.backoffMs } } : {}),
      removeOnComplete: { age: DONE_KEEP_SECONDS },
      removeOnFail: { age: FAILED_KEEP_SECONDS },
    });
  }

  /**
   * The watchdog's pass over every open queue: notes the runs it sees active for the first
   * time, moves back to wait those active for over STUCK_AFTER_MS, fails those stuck twice.
   * Answers the ids moved back.
   */
  async rescueStuck(): Promise<string[]> {
    const rescued: string[] = [];
    const now = this.o.clock.now();
    const minutes = STUCK_AFTER_MS / 60_000;
    for (const q of this.queues.values()) {
      for (const id of await q.client.lrange(q.toKey("active"), 0, -1)) {
        const r = await q.client.eval(RESCUE, 4, q.toKey("active"), q.toKey("wait"), q.toKey(id), q.toKey("stalled"), id, String(now), String(STUCK_AFTER_MS));
        if (r === 1) {
          rescued.push(id);
          this.o.warn(`scheduler job ${id} was active for over ${minutes} minutes: stuck, run again`);
        } else if (r === 2) {
          this.o.warn(`scheduler job ${id} is stuck again after being run again: failed`);
          const job = await q.getJob(id);
          job?.discard();
          await job?.moveToFailed({ message: `stuck: active for over ${minutes} minutes twice` }, true).catch(() => undefined);
        }
      }
    }
    return rescued;
  }

  /**
   * Closes every queue once it has finished opening: a Bull queue closed while its clients are
   * still connecting leaves a "Connection is closed" rejection behind (a node stopped just
   * after it started). The wait is bounded, so a Redis that is gone does not hold the stop.
   */
  async close(): Promise<void> {
    this.closed = true;
    const qs = [...this.queues.values()];
    this.queues.clear();
    const opened = (q: Bull.Queue<JobSpec>) => Promise.race([q.isReady().then(() => undefined, () => undefined), new Promise<void>((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]);
    await Promise.all(
      qs.map(async (q) => {
        await opened(q);
        await closeQueue(q).catch(() => undefined);
      }),
    );
  }
}

