/**
 * What the plugin remembers across restarts and nodes, in the Redis of the plugin context
 * (keys under `<redisPrefix>:channel-waba`):
 *
 * - the sent log: what each send of the core's message id answered. The Cloud API has no
 *   idempotency key, so a send the core hands over again (its answer was lost) is answered
 *   from here instead of reaching the customer twice; a send still running is joined.
 * - the messages taken in: a wamid handed to the core, so that a replay (Meta retries for days)
 *   does not download its file again; the core's unique key is what stores it once.
 * - the phone-number index: which connections (by token) serve a phone-number id, so that a
 *   webhook of a Meta app that serves several numbers reaches each number's own connection.
 * - the changes held: each webhook change accepted (answered 200) and not yet fully handed to
 *   the core. Meta does not deliver again what was answered, so a change a crash interrupted
 *   is taken up when its connection is connected again (the core's idempotency makes a second
 *   run harmless).
 *
 * Without Redis (no URL) nothing is remembered: every send goes out, replays are stored once
 * by the core all the same, and a webhook only reaches the connection whose URL it came to.
 */
import { createHash } from "node:crypto";
import type Redis from "ioredis";
import type { SendResult } from "@openatende/plugin-sdk";

/** Longer than any outage the core's outbox waits out. */
const SENT_TTL_SECONDS = 7 * 86400;
/** Meta retries a delivery for up to 7 days. */
const SEEN_TTL_SECONDS = 8 * 86400;

export interface StoreOptions {
  redisUrl?: string;
  /** "<redisPrefix>:channel-waba" */
  prefix: string;
  log: { warn(...a: unknown[]): void };
}

export class PluginStore {
  private redis: Redis | null = null;
  private readonly running = new Map<string, Promise<SendResult>>();

  constructor(private readonly opts: StoreOptions) {}

  private client(): Redis | null {
    if (!this.opts.redisUrl) return null;
    if (!this.redis) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const IORedis = require("ioredis") as typeof import("ioredis").default;
      this.redis = new IORedis(this.opts.redisUrl, { maxRetriesPerRequest: 2, connectTimeout: 3000 });
      this.redis.on("error", () => undefined);
    }
    return this.redis;
  }

  private async run<T>(what: string, fn: (r: Redis) => Promise<T>, fallback: T): Promise<T> {
    const r = this.client();
    if (!r) return fallback;
    try {
      return await fn(r);
    } catch (err) {
      this.opts.log.warn(`plugin store: ${what} failed (${(err as Error).message})`);
      return fallback;
    }
  }

  /**
   * Runs `send` once per (connection, message id or a caller's key, what is sent): the remembered answer of an
   * earlier send, a send running here joined, or a new send remembered. Without a message id
   * it just sends.
   */
  async once(scope: { connection: string; messageId?: number | string; what: unknown }, send: () => Promise<SendResult>): Promise<SendResult> {
    if (scope.messageId === undefined) return send();
    const digest = createHash("sha256").update(JSON.stringify(scope.what)).digest("base64url").slice(0, 16);
    const key = `${this.opts.prefix}:sent:${scope.connection}:${scope.messageId}:${digest}`;
    const running = this.running.get(key);
    if (running) return running;
    const p = (async () => {
      const known = await this.run("read the sent log", (r) => r.get(key), null);
      if (known) return JSON.parse(known) as SendResult;
      const res = await send();
      await this.run("write the sent log", (r) => r.set(key, JSON.stringify(res), "EX", SENT_TTL_SECONDS), null);
      return res;
    })();
    this.running.set(key, p);
    try {
      return await p;
    } finally {
      this.running.delete(key);
    }
  }

  async seen(connection: string, wamid: string): Promise<boolean> {
    return (await this.run("read the messages taken in", (r) => r.exists(`${this.opts.prefix}:seen:${connection}:${wamid}`), 0)) === 1;
  }

  async markSeen(connection: string, wamid: string): Promise<void> {
    await this.run("record a message taken in", (r) => r.set(`${this.opts.prefix}:seen:${connection}:${wamid}`, "1", "EX", SEEN_TTL_SECONDS), null);
  }

  /** Records that the connection with this token serves the phone-number id. */
  async claimNumber(phoneNumberId: string, token: string): Promise<void> {
    await this.run("index the phone number", (r) => r.sadd(`${this.opts.prefix}:pnid:${phoneNumberId}`, token), 0);
  }

  async releaseNumber(phoneNumberId: string, token: string): Promise<void> {
    await this.run("unindex the phone number", (r) => r.srem(`${this.opts.prefix}:pnid:${phoneNumberId}`, token), 0);
  }

  /** The tokens of the connections that said they serve the phone-number id. */
  async claimsOf(phoneNumberId: string): Promise<string[]> {
    return this.run("read the phone-number index", (r) => r.smembers(`${this.opts.prefix}:pnid:${phoneNumberId}`), []);
  }

  private heldKey(ref: { tenantId: number; connectionId: number }): string {
    return `${this.opts.prefix}:held:${ref.tenantId}:${ref.connectionId}`;
  }

  async hold(ref: { tenantId: number; connectionId: number }, id: string, change: unknown): Promise<void> {
    const key = this.heldKey(ref);
    await this.run("hold a change", (r) => r.multi().hset(key, id, JSON.stringify(change)).expire(key, SEEN_TTL_SECONDS).exec(), null);
  }

  async release(ref: { tenantId: number; connectionId: number }, id: string): Promise<void> {
    await this.run("release a change", (r) => r.hdel(this.heldKey(ref), id), 0);
  }

  async held(ref: { tenantId: number; connectionId: number }): Promise<Array<{ id: string; change: unknown }>> {
    const all = await this.run("read the changes held", (r) => r.hgetall(this.heldKey(ref)), {} as Record<string, string>);
    return Object.entries(all).map(([id, json]) => ({ id, change: JSON.parse(json) as unknown }));
  }

  async close(): Promise<void> {
    const r = this.redis;
    this.redis = null;
    if (r) await r.quit().catch(() => r.disconnect());
  }
}
