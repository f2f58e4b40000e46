/**
 * What this channel sent, by the core's message id (the contract's idempotency key): the core
 * hands a message over again when it never heard the answer (the plugin's process was killed
 * mid-send, its node taken as gone), and Telegram has no idempotency key of its own. The log
 * is in Redis (the plugin context's), so it outlives the process; a send still running in
 * this process is joined rather than started twice.
 *
 * A message id is only unique within one database, so the key also holds the connection's
 * token (random, made with the connection) and a digest of the send itself: another
 * installation on the same Redis, or an id the database hands out again, is a new send.
 *
 * What it cannot cover: a process killed after Telegram took the message and before the log
 * was written (a few milliseconds); that message goes twice.
 */
import { createHash } from "node:crypto";
import type Redis from "ioredis";
import type { SendResult } from "@openatende/plugin-sdk";

/** How long a send is remembered: longer than any outage the core's outbox waits out. */
const TTL_SECONDS = 7 * 86400;

export interface SentLogOptions {
  redisUrl?: string;
  /** Key prefix: "<redisPrefix>:channel-telegram" (the plugin context's redisPrefix). */
  prefix: string;
  log: { warn(...a: unknown[]): void };
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
      this.redis = new IORedis(this.opts.redisUrl, { maxRetriesPerRequest: 2, connectTimeout: 3000, lazyConnect: false });
      this.redis.on("error", () => undefined);
    }
    return this.redis;
  }

  /**
   * Runs `send` once per (connection, message id, what is sent): answers the remembered result
   * of an earlier send, joins one running here, or sends and remembers. Without the
   * connection's token or a message id, it just sends.
   */
  async once(scope: { connectionToken?: string; messageId?: number; what: unknown }, send: () => Promise<SendResult>): Promise<SendResult> {
    if (scope.messageId === undefined || !scope.connectionToken) return send();
    const digest = createHash("sha256").update(JSON.stringify(scope.what)).digest("base64url").slice(0, 16);
    const key = `${this.opts.prefix}:sent:${scope.connectionToken}:${scope.messageId}:${digest}`;
    const running = this.running.get(key);
    if (running) return running;
    const p = (async () => {
      const known = await this.read(key);
      if (known) return known;
      const res = await send();
      await this.write(key, res);
      return res;
    })();
    this.running.set(key, p);
    try {
      return await p;
    } finally {
      this.running.delete(key);
    }
  }

  private async read(key: string): Promise<SendResult | null> {
    const r = this.client();
    if (!r) return null;
    try {
      const raw = await r.get(key);
      return raw ? (JSON.parse(raw) as SendResult) : null;
    } catch (err) {
      this.opts.log.warn(`sent log unreadable (${(err as Error).message}): sending without the repeat check`);
      return null;
    }
  }

  private async write(key: string, res: SendResult): Promise<void> {
    const r = this.client();
    if (!r) return;
    try {
      await r.set(key, JSON.stringify(res), "EX", TTL_SECONDS);
    } catch (err) {
      this.opts.log.warn(`sent log not written (${(err as Error).message}): a repeat of this send would go again`);
    }
  }

  async close(): Promise<void> {
    const r = this.redis;
    this.redis = null;
    if (r) await r.quit().catch(() => r.disconnect());
  }
}
