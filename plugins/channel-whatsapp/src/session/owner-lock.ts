/**
 * One owner per WhatsApp session in the whole cluster. Two processes driving one session are
 * the cause of "replaced" (440) ping-pong and of Bad MAC errors (two writers of one key
 * store), so a node runs a session only while it holds the session's lock in Redis:
 *
 * - SET NX with a TTL, renewed every third of it; a node whose renewal finds the lock gone or
 *   another's ends its socket at once (`onLost`); one that cannot reach Redis for a whole TTL
 *   takes the lock as lost too (another node may have it by then);
 * - every acquisition gets a fencing token (a counter per session, only ever growing): the
 *   session's stored state refuses writes made with an older token (stores/auth-state.ts);
 * - the lock's value names the holder's broker node, so other nodes forward a connection's
 *   calls (send, status, pairing code, reset, health) to it;
 * - the "wanted" registry lists the sessions the cluster should run (connect adds, disconnect
 *   removes): a node that finds a wanted session without a holder takes it, so sessions move
 *   to another node when theirs stops or dies.
 *
 * Keys are under the plugin context's redisPrefix (`<namespace>:<installation id>`). Those of
 * before it (under `<namespace>` alone, `legacyPrefix`) are carried over where they outlive a
 * restart: a session's fence counter (a new counter starting at 1 would be refused by the
 * session's stored state, whose fence is higher) and the wanted registry; a lock lives seconds
 * and is not carried, but one still held under the old name by a node of the version before is
 * respected while it lives (a rolling upgrade does not give a session two owners).
 */
import type Redis from "ioredis";
import type { ConnectionRef } from "@openatende/plugin-sdk";
import type { Clock, TimerHandle } from "./clock";

const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
/** Old fence counter (KEYS[1]) into the new one (KEYS[2]): the higher of both, the old one gone. */
const CARRY_FENCE =
  "local o = tonumber(redis.call('get', KEYS[1]) or '0') local n = tonumber(redis.call('get', KEYS[2]) or '0') if o > n then redis.call('set', KEYS[2], o) end return redis.call('del', KEYS[1])";
/** Old wanted registry (KEYS[1]) into the new one (KEYS[2]): entries the new one lacks, the old one gone. */
const CARRY_WANTED =
  "local f = redis.call('hgetall', KEYS[1]) for i = 1, #f, 2 do redis.call('hsetnx', KEYS[2], f[i], f[i + 1]) end return redis.call('del', KEYS[1])";

export interface Holder {
  nodeId: string;
  fence: number;
}

/** What a node needs to take a wanted session over: the core's connect params, without settings (read again from the core). */
export interface WantedSession extends ConnectionRef {
  token?: string;
  publicUrl?: string;
  dataDir?: string;
  /** Connect settings, kept only when there is no token to read them again with. */
  settings?: Record<string, unknown>;
}

export interface OwnerLocksOptions {
  redis: Redis;
  /** Key prefix: "<redisPrefix>:channel-whatsapp" (the plugin context's redisPrefix). */
  prefix: string;
  /** The prefix of before redisPrefix ("<namespace>:channel-whatsapp"), whose durable keys are carried over. */
  legacyPrefix?: string;
  nodeId: string;
  /** Lock lifetime without renewal (default 30 s). */
  ttlMs?: number;
  clock: Clock;
  log: { warn(...a: unknown[]): void };
}

const refKey = (r: ConnectionRef) => `${r.tenantId}:${r.connectionId}`;

function parseHolder(v: string | null): Holder | null {
  if (!v) return null;
  const at = v.lastIndexOf("|");
  const fence = Number(v.slice(at + 1));
  return at > 0 && Number.isInteger(fence) ? { nodeId: v.slice(0, at), fence } : null;
}

export class OwnerLock {
  private timer?: TimerHandle;
  private lastRenewed: number;
  private done = false;
  /** Called once when the lock is lost (not when released). */
  onLost?: (why: string) => void;

  constructor(
    private readonly locks: OwnerLocks,
    readonly ref: ConnectionRef,
    readonly fence: number,
    private readonly key: string,
    private readonly value: string,
  ) {
    this.lastRenewed = locks.clock.now();
    this.schedule();
  }

  get held(): boolean {
    return !this.done;
  }

  /** Whether Redis still says this node holds it (the 440 check). */
  async verify(): Promise<boolean> {
    if (this.done) return false;
    try {
      return (await this.locks.redis.get(this.key)) === this.value;
    } catch {
      return false;
    }
  }

  async release(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.locks.clock.clearTimeout(this.timer);
    await this.locks.redis.eval(RELEASE, 1, this.key, this.value).catch(() => undefined);
  }

  private schedule(): void {
    this.timer = this.locks.clock.setTimeout(() => void this.renew(), Math.floor(this.locks.ttlMs / 3));
  }

  private async renew(): Promise<void> {
    if (this.done) return;
    let ok: boolean | null;
    try {
      ok = Number(await this.locks.redis.eval(RENEW, 1, this.key, this.value, String(this.locks.ttlMs))) === 1;
    } catch (err) {
      ok = null;
      this.locks.log.warn(`connection ${this.ref.connectionId}: owner lock not renewed (${(err as Error).message})`);
    }
    if (this.done) return;
    if (ok) this.lastRenewed = this.locks.clock.now();
    if (ok === false) return this.lose("another node holds the session now");
    if (ok === null && this.locks.clock.now() - this.lastRenewed >= this.locks.ttlMs) return this.lose("Redis unreachable for a whole lock period");
    this.schedule();
  }

  private lose(why: string): void {
    if (this.done) return;
    this.done = true;
    this.locks.clock.clearTimeout(this.timer);
    this.onLost?.(why);
  }
}

export class OwnerLocks {
  readonly redis: Redis;
  readonly clock: Clock;
  readonly ttlMs: number;
  readonly nodeId: string;
  readonly log: OwnerLocksOptions["log"];
  private readonly prefix: string;
  private readonly legacyPrefix: string | undefined;
  /** What this process carried over already (fence counters by session, "wanted"). */
  private readonly carried = new Set<string>();

  constructor(opts: OwnerLocksOptions) {
    this.redis = opts.redis;
    this.clock = opts.clock;
    this.ttlMs = opts.ttlMs ?? 30_000;
    this.nodeId = opts.nodeId;
    this.prefix = opts.prefix;
    this.legacyPrefix = opts.legacyPrefix && opts.legacyPrefix !== opts.prefix ? opts.legacyPrefix : undefined;
    this.log = opts.log;
  }

  /** Carries the key `suffix` of before redisPrefix over (once per process). */
  private async carry(suffix: string, script: string): Promise<string> {
    const key = `${this.prefix}:${suffix}`;
    if (!this.legacyPrefix || this.carried.has(suffix)) return key;
    await this.redis.eval(script, 2, `${this.legacyPrefix}:${suffix}`, key);
    this.carried.add(suffix);
    return key;
  }

  private lockKey(ref: ConnectionRef): string {
    return `${this.prefix}:owner:${refKey(ref)}`;
  }

  /** Takes the session's lock, or null when another node holds it. */
  async acquire(ref: ConnectionRef): Promise<OwnerLock | null> {
    const key = this.lockKey(ref);
    const held = this.legacyPrefix ? [key, `${this.legacyPrefix}:owner:${refKey(ref)}`] : [key];
    if (await this.redis.exists(...held)) return null;
    const fence = await this.redis.incr(await this.carry(`fence:${refKey(ref)}`, CARRY_FENCE));
    const value = `${this.nodeId}|${fence}`;
    const ok = await this.redis.set(key, value, "PX", this.ttlMs, "NX");
    return ok === "OK" ? new OwnerLock(this, ref, fence, key, value) : null;
  }

  async holder(ref: ConnectionRef): Promise<Holder | null> {
    return parseHolder(await this.redis.get(this.lockKey(ref)));
  }

  // --- the sessions the cluster should run ----------------------------------------------------

  private wantedKey(): Promise<string> {
    return this.carry("wanted", CARRY_WANTED);
  }

  async want(s: WantedSession): Promise<void> {
    await this.redis.hset(await this.wantedKey(), refKey(s), JSON.stringify(s));
  }

  async unwant(ref: ConnectionRef): Promise<void> {
    await this.redis.hdel(await this.wantedKey(), refKey(ref));
  }

  async isWanted(ref: ConnectionRef): Promise<boolean> {
    return (await this.redis.hexists(await this.wantedKey(), refKey(ref))) === 1;
  }

  async wanted(): Promise<WantedSession[]> {
    const all = await this.redis.hgetall(await this.wantedKey());
    const out: WantedSession[] = [];
    for (const v of Object.values(all)) {
      try {
        out.push(JSON.parse(v) as WantedSession);
      } catch {
        /* a foreign value: ignored */
      }
    }
    return out;
  }
}
