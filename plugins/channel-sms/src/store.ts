/**
 * The sent log, in the Redis of the plugin context: one entry per (connection, core message
 * id, what is sent), so that a message the core hands over again (its answer was lost, the
 * plugin's process went away mid-send) is answered from the log and never sent twice. An SMS
 * costs the tenant money and the provider takes no idempotency key, so the entry is claimed
 * *before* the provider is called:
 *
 *   absent   → claimed ("pending"), then the provider is called
 *   done     → the first send's answer, nothing sent
 *   pending  → a send of this message is running elsewhere, or ended without an answer (a
 *              timeout, a crash): SendUnconfirmedError, nothing sent
 *
 * A send that certainly sent nothing (refused, provider unreachable, no credits) lets its claim
 * go, so a later try may send. Keys live under the context's redisPrefix; without Redis
 * nothing is remembered and every send goes out (tests of the kit without Redis, dev setups).
 */
import { createHash } from "node:crypto";
import type Redis from "ioredis";
import type { SentSms } from "./providers";

/** Longer than any outage the core's outbox waits out. */
const SENT_TTL_SECONDS = 7 * 86400;
const PENDING = "pending";

export class SendUnconfirmedError extends Error {
  constructor() {
    super("An earlier send of this message got no answer; it is not sent again");
    this.name = "SendUnconfirmedError";
  }
}

export interface StoreOptions {
  redisUrl?: string;
  /** "<redisPrefix>:channel-sms" */
  prefix: string;
  log: { warn(...a: unknown[]): void };
}

export interface SendScope {
  tenantId: number;
  connectionId: number;
  /** The connection's public token when known: a database whose ids start again is another key. */
  connectionKey?: string;
  messageId?: number;
  what: unknown;
}

export class SentLog {
  private redis: Redis | null = null;
  private readonly running = new Map<string, Promise<SentSms>>();

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

  keyOf(scope: SendScope): string {
    const digest = createHash("sha256").update(JSON.stringify(scope.what)).digest("base64url").slice(0, 16);
    return `${this.opts.prefix}:sent:${scope.tenantId}:${scope.connectionId}:${scope.connectionKey ?? "-"}:${scope.messageId}:${digest}`;
  }

  /**
   * Runs `send` at most once per scope. `certainlyUnsent(err)` says whether a failure sent
   * nothing (its claim is let go); any other failure keeps the claim.
   */
  async once(scope: SendScope, send: () => Promise<SentSms>, certainlyUnsent: (err: unknown) => boolean): Promise<SentSms> {
    if (scope.messageId === undefined) return send();
    const key = this.keyOf(scope);
    const running = this.running.get(key);
    if (running) return running;
    const p = this.claimAndSend(key, send, certainlyUnsent);
    this.running.set(key, p);
    try {
      return await p;
    } finally {
      this.running.delete(key);
    }
  }

  private async claimAndSend(key: string, send: () => Promise<SentSms>, certainlyUnsent: (err: unknown) => boolean): Promise<SentSms> {
    const r = this.client();
    if (!r) return send();
    let claimed: string | null;
    try {
      claimed = await r.set(key, PENDING, "EX", SENT_TTL_SECONDS, "NX");
    } catch (err) {
      // Without the log a repeat could not be recognised: refuse rather than risk a double charge.
      this.opts.log.warn(`sent log unreachable (${(err as Error).message})`);
      throw Object.assign(new Error("The sent log cannot be reached"), { unreachable: true });
    }
    if (claimed !== "OK") {
      const known = await r.get(key);
      if (known && known !== PENDING) return JSON.parse(known) as SentSms;
      throw new SendUnconfirmedError();
    }
    let res: SentSms;
    try {
      res = await send();
    } catch (err) {
      if (certainlyUnsent(err)) await r.del(key).catch(() => undefined);
      throw err;
    }
    await r.set(key, JSON.stringify(res), "EX", SENT_TTL_SECONDS).catch((err: Error) => this.opts.log.warn(`sent log not written (${err.message})`));
    return res;
  }

  async close(): Promise<void> {
    const r = this.redis;
    this.redis = null;
    if (r) await r.quit().catch(() => r.disconnect());
  }
}
