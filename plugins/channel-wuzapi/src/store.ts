/**
 * What the plugin remembers across restarts, in the Redis of the plugin context:
 *
 * - the sent log: what each send of the core's message id answered. The core hands a message
 *   over again when it never heard the answer (the plugin's process was killed mid-send, its
 *   node taken as gone); the repeat is answered from the log instead of sending twice. A send
 *   still running here is joined rather than started again.
 * - the message book: who wrote each message seen or sent (for a reply wuzapi needs the quoted
 *   message's sender as ContextInfo.Participant, and a reaction to one of our own messages is
 *   addressed "me:<id>").
 *
 * Keys hold the connection's token (random, made with the connection), so another
 * installation on the same Redis, or a message id a new database hands out again, is another
 * key. Without Redis (no URL) nothing is remembered and every send goes out.
 *
 * They are under the plugin context's redisPrefix (`<namespace>:<installation id>`), like every
 * plugin's. Of the keys written before it (under `<namespace>` alone, `legacyPrefix`) the
 * message book is carried over, renamed when a lookup misses under the new name: its entries
 * serve replies and reactions for a month. The sent log is not: an entry only answers a message
 * the core hands over again because its answer was lost, in the moments around a crash, and
 * the old entries expire on their own.
 */
import { createHash } from "node:crypto";
import type Redis from "ioredis";
import type { SendResult } from "@openatende/plugin-sdk";

/** Longer than any outage the core's outbox waits out. */
const SENT_TTL_SECONDS = 7 * 86400;
/** Replies and reactions go to recent messages; older ones fall back to the chat's own address. */
const BOOK_TTL_SECONDS = 30 * 86400;

export interface StoreOptions {
  redisUrl?: string;
  /** "<redisPrefix>:channel-wuzapi" (the plugin context's redisPrefix) */
  prefix: string;
  /** "<namespace>:channel-wuzapi": where the message book was kept before redisPrefix. */
  legacyPrefix?: string;
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

  private async get(key: string): Promise<string | null> {
    const r = this.client();
    if (!r) return null;
    try {
      return await r.get(key);
    } catch (err) {
      this.opts.log.warn(`plugin store unreadable (${(err as Error).message})`);
      return null;
    }
  }

  private async set(key: string, value: string, ttl: number): Promise<void> {
    const r = this.client();
    if (!r) return;
    try {
      await r.set(key, value, "EX", ttl);
    } catch (err) {
      this.opts.log.warn(`plugin store not written (${(err as Error).message})`);
    }
  }

  /**
   * Runs `send` once per (connection, message id, what is sent): the remembered answer of an
   * earlier send, a send running here joined, or a new send remembered. Without a message id
   * it just sends.
   */
  async once(scope: { connection: string; messageId?: number; what: unknown }, send: () => Promise<SendResult>): Promise<SendResult> {
    if (scope.messageId === undefined) return send();
    const digest = createHash("sha256").update(JSON.stringify(scope.what)).digest("base64url").slice(0, 16);
    const key = `${this.opts.prefix}:sent:${scope.connection}:${scope.messageId}:${digest}`;
    const running = this.running.get(key);
    if (running) return running;
    const p = (async () => {
      const known = await this.get(key);
      if (known) return JSON.parse(known) as SendResult;
      const res = await send();
      await this.set(key, JSON.stringify(res), SENT_TTL_SECONDS);
      return res;
    })();
    this.running.set(key, p);
    try {
      return await p;
    } finally {
      this.running.delete(key);
    }
  }

  /** Records who wrote a message: "me" (the account itself) or the sender's JID. */
  async remember(connection: string, providerMessageId: string, author: string): Promise<void> {
    await this.set(`${this.opts.prefix}:msg:${connection}:${providerMessageId}`, author, BOOK_TTL_SECONDS);
  }

  async authorOf(connection: string, providerMessageId: string): Promise<string | null> {
    const key = `${this.opts.prefix}:msg:${connection}:${providerMessageId}`;
    const known = await this.get(key);
    const legacy = this.opts.legacyPrefix;
    if (known !== null || !legacy || legacy === this.opts.prefix) return known;
    // Renamed, not copied: the entry keeps its expiry, and is carried over once.
    const carried = await this.client()
      ?.renamenx(`${legacy}:msg:${connection}:${providerMessageId}`, key)
      .catch(() => 0); // "no such key": nothing was kept there either
    return carried ? this.get(key) : null;
  }

  async close(): Promise<void> {
    const r = this.redis;
    this.redis = null;
    if (r) await r.quit().catch(() => r.disconnect());
  }
}
