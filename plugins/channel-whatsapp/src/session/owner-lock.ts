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
 */
import type Redis from "ioredis";
import type { ConnectionRef } from "@openatende/plugin-sdk";
import type { Clock, TimerHandle } from "./clock";

const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

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
  /** Key prefix: "<namespace>:channel-whatsapp". */
  prefix: string;
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

  constructor(opts: OwnerLocksOptions) {
    this.redis = opts.redis;
    this.clock = opts.clock;
    this.ttlMs = opts.ttlMs ?? 30_000;
    this.nodeId = opts.nodeId;
    this.prefix = opts.prefix;
    this.log = opts.log;
  }

  private lockKey(ref: ConnectionRef): string {
    return `${this.prefix}:owner:${refKey(ref)}`;
  }

  /** Takes the session's lock, or null when another node holds it. */
  async acquire(ref: ConnectionRef): Promise<OwnerLock | null> {
    const key = this.lockKey(ref);
    if (await this.redis.exists(key)) return null;
    const fence = await this.redis.incr(`${this.prefix}:fence:${refKey(ref)}`);
    const value = `${this.nodeId}|${fence}`;
    const ok = await this.redis.set(key, value, "PX", this.ttlMs, "NX");
    return ok === "OK" ? new OwnerLock(this, ref, fence, key, value) : null;
  }

  async holder(ref: ConnectionRef): Promise<Holder | null> {
    return parseHolder(await this.redis.get(this.lockKey(ref)));
  }

  // --- the sessions the cluster should run ----------------------------------------------------

  private get wantedKey(): string {
    return `${this.prefix}:wanted`;
  }

  async want(s: WantedSession): Promise<void> {
    await this.redis.hset(this.wantedKey, refKey(s), JSON.stringify(s));
  }

  async unwant(ref: ConnectionRef): Promise<void> {
    await this.redis.hdel(this.wantedKey, refKey(ref));
  }

  async isWanted(ref: ConnectionRef): Promise<boolean> {
    return (await this.redis.hexists(this.wantedKey, refKey(ref))) === 1;
  }

  async wanted(): Promise<WantedSession[]> {
    const all = await this.redis.hgetall(this.wantedKey);
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
