/**
 * What this channel sent, by the core's message id (the contract's idempotency key). The core
 * hands a message over again when it never heard the answer; the hub has no idempotency key of
 * its own, so the plugin keeps one in Redis (the plugin context's, under its redisPrefix):
 *
 * - before the hub is called, the send is claimed (SET NX "pending"): a second node, or this
 *   one after a restart, that meets the claim does not send again;
 * - the hub's answer replaces the claim, and a repeat is answered from it;
 * - a send the hub certainly did not take (refused, or never reached) drops the claim, so it
 *   can go again; one whose answer was lost (a timeout) keeps it: the repeat is refused with
 *   ERR_HUB_SEND_UNCERTAIN rather than risk sending twice.
 *
 * Keys hold the connection's token (random, made with the connection) and a digest of the send,
 * so another installation on the same Redis, or an id a new database hands out again, is a new
 * send. Without Redis every send goes out (joined in this process while running).
 */
import { createHash } from "node:crypto";
import type Redis from "ioredis";
import { PluginError, type SendResult } from "@openatende/plugin-sdk";

const TTL_SECONDS = 7 * 86400;
const PENDING = "pending";

export interface SentLogOptions {
  redisUrl?: string;
  /** "<redisPrefix>:channel-hub" */
  prefix: string;
  log: { warn(...a: unknown[]): void };
  /** Whether a failed send may have reached the hub all the same (its claim is then kept). */
  uncertain(err: unknown): boolean;
}

export class SentLog {
  private redis: Redis | null = null;
  private readonly running = new Map<string, Promise<SendResult>>();

  constructor(private readonly opts: SentLogOptions) {}

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

  keyOf(scope: { connectionToken: string; messageId: number; what: unknown }): string {
    const digest = createHash("sha256").update(JSON.stringify(scope.what)).digest("base64url").slice(0, 16);
    return `${this.opts.prefix}:sent:${scope.connectionToken}:${scope.messageId}:${digest}`;
  }

  async once(scope: { connectionToken?: string; messageId?: number; what: unknown }, send: () => Promise<SendResult>): Promise<SendResult> {
    if (scope.messageId === undefined || !scope.connectionToken) return send();
    const key = this.keyOf({ connectionToken: scope.connectionToken, messageId: scope.messageId, what: scope.what });
    const running = this.running.get(key);
    if (running) return running;
    const p = this.claimAndSend(key, send);
    this.running.set(key, p);
    try {
      return await p;
    } finally {
      this.running.delete(key);
    }
  }

  private async claimAndSend(key: string, send: () => Promise<SendResult>): Promise<SendResult> {
    const r = this.client();
    let claimed = false;
    if (r) {
      try {
        claimed = (await r.set(key, PENDING, "EX", TTL_SECONDS, "NX")) === "OK";
        if (!claimed) {
          const known = await r.get(key);
          if (known && known !== PENDING) return JSON.parse(known) as SendResult;
          if (known === PENDING) throw new PluginError("ERR_HUB_SEND_UNCERTAIN", 409);
          claimed = (await r.set(key, PENDING, "EX", TTL_SECONDS, "NX")) === "OK";
        }
      } catch (err) {
        if (err instanceof PluginError) throw err;
        this.opts.log.warn(`sent log unreadable (${(err as Error).message}): sending without the repeat check`);
      }
    }
    let res: SendResult;
    try {
      res = await send();
    } catch (err) {
      if (claimed && !this.opts.uncertain(err)) await r!.del(key).catch(() => undefined);
      throw err;
    }
    if (claimed) await r!.set(key, JSON.stringify(res), "EX", TTL_SECONDS).catch((err: Error) => this.opts.log.warn(`sent log not written (${err.message})`));
    return res;
  }

  async close(): Promise<void> {
    const r = this.redis;
    this.redis = null;
    if (r) await r.quit().catch(() => r.disconnect());
  }
}
