/**
 * The scheduler's pending jobs in Redis, decided by the injectable clock rather than by
 * Bull's Date.now() delays. Keys (under the client's prefix, `<installation prefix>scheduler:`):
 *
 *   due                                  ZSET job id → due time, every owner's pending jobs
 *   specs                                HASH job id → the job's spec (JSON)
 *   idx:<owner>:<tenantId>               ZSET job id → due time, for list
 *   key:<owner>:<tenantId>:<name>:<key>  the job id of the key's pending occurrence
 *   owners                               HASH owner → the plugin service that runs its jobs ("" for core)
 *
 * Every change is one Lua script, so two nodes (or a node and a retry of itself) never leave
 * a key pointing at a job that is not pending, and a recurring series advances once.
 */
import type Redis from "ioredis";
import type { JobRecurrence } from "@openatende/plugin-sdk";

/** A pending job as stored. */
export interface JobSpec {
  jobId: string;
  owner: string;
  name: string;
  key: string;
  tenantId: number;
  dueAt: number;
  every: JobRecurrence | null;
  data: Record<string, unknown>;
  attempts: number;
  backoffMs: number;
  /** Plugin jobs: the service whose runJob action runs it. */
  service: string | null;
}

/**
 * The job id of one occurrence: owner + tenant + name + key + due time, so the same
 * occurrence scheduled twice, by two nodes or after a restart, is one Bull job.
 */
export function jobIdOf(j: Pick<JobSpec, "owner" | "tenantId" | "name" | "key" | "dueAt">): string {
  return `${j.owner}:${j.tenantId}:${j.name}:${encodeURIComponent(j.key)}:${j.dueAt}`;
}

const keyOf = (j: Pick<JobSpec, "owner" | "tenantId" | "name" | "key">) => `key:${j.owner}:${j.tenantId}:${j.name}:${encodeURIComponent(j.key)}`;
const idxOf = (owner: string, tenantId: number) => `idx:${owner}:${tenantId}`;

// KEYS: key pointer, due, idx, specs, owners. ARGV: job id, due time, spec, owner, service.
// 0: that very occurrence was pending already; 1: created; 2: the key's earlier occurrence was replaced.
const SCHEDULE = `
local old = redis.call("GET", KEYS[1])
redis.call("HSET", KEYS[5], ARGV[4], ARGV[5])
if old == ARGV[1] and redis.call("HEXISTS", KEYS[4], old) == 1 then return 0 end
if old then
  redis.call("ZREM", KEYS[2], old)
  redis.call("ZREM", KEYS[3], old)
  redis.call("HDEL", KEYS[4], old)
end
redis.call("SET", KEYS[1], ARGV[1])
redis.call("ZADD", KEYS[2], ARGV[2], ARGV[1])
redis.call("ZADD", KEYS[3], ARGV[2], ARGV[1])
redis.call("HSET", KEYS[4], ARGV[1], ARGV[3])
if old and old ~= ARGV[1] then return 2 end
return 1
`;

// The occurrence ARGV[1] is in Bull: it leaves the pending set; when it is still its key's
// current one, the key moves to the next occurrence (ARGV[2..4]) or is freed.
// KEYS: key pointer, due, idx, specs. ARGV: job id, next id ("" when none), next due, next spec.
const SETTLE = `
redis.call("ZREM", KEYS[2], ARGV[1])
redis.call("ZREM", KEYS[3], ARGV[1])
redis.call("HDEL", KEYS[4], ARGV[1])
if redis.call("GET", KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == "" then
  redis.call("DEL", KEYS[1])
  return 1
end
redis.call("SET", KEYS[1], ARGV[2])
redis.call("ZADD", KEYS[2], ARGV[3], ARGV[2])
redis.call("ZADD", KEYS[3], ARGV[3], ARGV[2])
redis.call("HSET", KEYS[4], ARGV[2], ARGV[4])
return 2
`;

// KEYS: key pointer, due, idx, specs. Answers the cancelled job id, or false.
const CANCEL = `
local old = redis.call("GET", KEYS[1])
if not old then return false end
redis.call("DEL", KEYS[1])
redis.call("ZREM", KEYS[2], old)
redis.call("ZREM", KEYS[3], old)
redis.call("HDEL", KEYS[4], old)
return old
`;

export type ScheduleOutcome = "unchanged" | "created" | "replaced";

export class PendingStore {
  constructor(private readonly redis: Redis) {}

  /** Makes `spec` its key's pending occurrence (replacing an earlier one of the same key). */
  async put(spec: JobSpec): Promise<ScheduleOutcome> {
    const r = await this.redis.eval(SCHEDULE, 5, keyOf(spec), "due", idxOf(spec.owner, spec.tenantId), "specs", "owners", spec.jobId, spec.dueAt, JSON.stringify(spec), spec.owner, spec.service ?? "");
    return r === 0 ? "unchanged" : r === 2 ? "replaced" : "created";
  }

  /** Pending jobs due at `now`, oldest first (at most `limit`). */
  async due(now: number, limit: number): Promise<JobSpec[]> {
    const ids = await this.redis.zrangebyscore("due", "-inf", now, "LIMIT", 0, limit);
    if (!ids.length) return [];
    const raw = await this.redis.hmget("specs", ...ids);
    const out: JobSpec[] = [];
    for (let i = 0; i < ids.length; i++) {
      const s = raw[i];
      // Cancelled between the two reads: its spec is gone; drop the stray entry.
      if (s) out.push(JSON.parse(s) as JobSpec);
      else await this.redis.zrem("due", ids[i]);
    }
    return out;
  }

  /** When the soonest pending job is due (null when none is). */
  async nextDueAt(): Promise<number | null> {
    const r = await this.redis.zrange("due", 0, 0, "WITHSCORES");
    return r.length >= 2 ? Number(r[1]) : null;
  }

  /** The occurrence `spec` was handed to Bull; `next` (recurring) becomes its key's pending one. */
  async settle(spec: JobSpec, next: JobSpec | null): Promise<void> {
    await this.redis.eval(SETTLE, 4, keyOf(spec), "due", idxOf(spec.owner, spec.tenantId), "specs", spec.jobId, next?.jobId ?? "", next?.dueAt ?? 0, next ? JSON.stringify(next) : "");
  }

  /** Cancels the key's pending occurrence; answers its job id, or null when none was pending. */
  async cancel(k: Pick<JobSpec, "owner" | "tenantId" | "name" | "key">): Promise<string | null> {
    const r = (await this.redis.eval(CANCEL, 4, keyOf(k), "due", idxOf(k.owner, k.tenantId), "specs")) as string | null;
    return r || null;
  }

  /** The owner's pending jobs of one tenant, soonest first. */
  async list(owner: string, tenantId: number): Promise<JobSpec[]> {
    const ids = await this.redis.zrange(idxOf(owner, tenantId), 0, -1);
    if (!ids.length) return [];
    return (await this.redis.hmget("specs", ...ids)).filter((s): s is string => !!s).map((s) => JSON.parse(s) as JobSpec);
  }

  /** Every owner that ever scheduled here, with the plugin service that runs its jobs ("" for a core owner). */
  async owners(): Promise<Record<string, string>> {
    return this.redis.hgetall("owners");
  }
}
