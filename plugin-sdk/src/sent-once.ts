/**
 * A channel's sent log, written once: what a send of the core's message id (the contract's
 * idempotency key) answered, kept in the plugin's Redis so that a send the core hands over
 * again (it never heard the answer: a timeout, a node taken as gone) does not reach the
 * customer twice when the provider has no idempotency key of its own:
 *
 *     const sent = new SentOnce({ redisUrl, connect: (url) => new IORedis(url), prefix: `${redisPrefix}:channel-x`, ttlSeconds: 7 * 86400, log });
 *     await sent.once({ id: [connectionToken, messageId], what: [to, message] }, () => provider.send(…));
 *
 * - the key is `<prefix>:sent:<id joined by ":">:<digest of what>`: the id holds the
 *   connection's token (random, made with the connection) beside the message id, and the
 *   digest of the send itself, so another installation on the same Redis, or an id a new
 *   database hands out again, is a new send. An id with a part missing (no message id, no
 *   token) is not logged: the send just goes;
 * - a remembered answer is answered again; a send of the same key running in this process is
 *   joined;
 * - with `claim`, the send is claimed (SET NX "pending") before the provider is called: a
 *   second node, or this one after a restart, that meets the claim throws `claim.uncertainCode`
 *   (409) rather than send again. A send that certainly did not reach the provider (not
 *   `claim.uncertain(err)`) drops its claim, so it can go again; one whose answer was lost
 *   keeps it. Without `claim` the log is read before and written after the send (a process
 *   killed in between sends twice);
 * - without Redis (no URL), or with Redis failing, every send goes out (a warning is logged).
 *
 * The client is made on first use by `connect` (the plugin's own ioredis; the SDK has no
 * Redis dependency) and is the plugin's to use for its other keys too (`client()`).
 */
import { createHash } from "node:crypto";
import { PluginError } from "./plugin-error";
import type { SendResult } from "./channel-contract";

const PENDING = "pending";

/** What the log needs of a Redis client (an ioredis client fits). */
export interface SentOnceRedis {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ex: "EX", seconds: number): Promise<unknown>;
  set(key: string, value: string, ex: "EX", seconds: number, nx: "NX"): Promise<unknown>;
  del(key: string): Promise<unknown>;
  on(event: "error", listener: (err: Error) => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
}

export interface SentOnceOptions<R extends SentOnceRedis> {
  /** The plugin context's Redis URL; without one nothing is remembered. */
  redisUrl?: string;
  /** Makes the client on first use (e.g. `(url) => new IORedis(url, { maxRetriesPerRequest: 2 })`). */
  connect(url: string): R;
  /** `<redisPrefix>:<plugin id>`: the log's keys are `<prefix>:sent:…`. */
  prefix: string;
  /** How long a send is remembered: longer than any outage the core's outbox waits out. */
  ttlSeconds: number;
  log: { warn(...a: unknown[]): void };
  /** Claim before sending (see the file's comment). */
  claim?: {
    /** The plugin's error code for a repeat of a claimed send whose answer is unknown. */
    uncertainCode: string;
    /** Whether a failed send may have reached the provider all the same (its claim is then kept). */
    uncertain(err: unknown): boolean;
  };
}

export interface SentOnceScope {
  /** What identifies the send besides its content: e.g. [connection token, message id(, part)]. */
  id: Array<string | number | undefined>;
  /** What is sent (its digest is part of the key). */
  what: unknown;
}

export class SentOnce<R extends SentOnceRedis = SentOnceRedis> {
  private redis: R | null = null;
  private readonly running = new Map<string, Promise<SendResult>>();

  constructor(private readonly opts: SentOnceOptions<R>) {}

  /** The plugin's Redis client (made on first use), or null without a Redis URL. */
  client(): R | null {
    if (!this.opts.redisUrl) return null;
    if (!this.redis) {
      this.redis = this.opts.connect(this.opts.redisUrl);
      this.redis.on("error", () => undefined);
    }
    return this.redis;
  }

  /** The key a send is logged under, or null when its id has a part missing. */
  keyOf(scope: SentOnceScope): string | null {
    if (scope.id.some((p) => p === undefined || p === "")) return null;
    const digest = createHash("sha256").update(JSON.stringify(scope.what)).digest("base64url").slice(0, 16);
    return [this.opts.prefix, "sent", ...scope.id, digest].join(":");
  }

  /** Runs `send` once per key: see the file's comment. */
  async once(scope: SentOnceScope, send: () => Promise<SendResult>): Promise<SendResult> {
    const key = this.keyOf(scope);
    if (!key) return send();
    const running = this.running.get(key);
    if (running) return running;
    const p = this.opts.claim ? this.claimAndSend(key, this.opts.claim, send) : this.readAndSend(key, send);
    this.running.set(key, p);
    try {
      return await p;
    } finally {
      this.running.delete(key);
    }
  }

  private async readAndSend(key: string, send: () => Promise<SendResult>): Promise<SendResult> {
    const r = this.client();
    if (r) {
      try {
        const known = await r.get(key);
        if (known) return JSON.parse(known) as SendResult;
      } catch (err) {
        this.unreadable(err);
      }
    }
    const res = await send();
    if (r) await this.write(r, key, res);
    return res;
  }

  private async claimAndSend(key: string, claim: NonNullable<SentOnceOptions<R>["claim"]>, send: () => Promise<SendResult>): Promise<SendResult> {
    const r = this.client();
    const ttl = this.opts.ttlSeconds;
    let claimed = false;
    if (r) {
      try {
        claimed = (await r.set(key, PENDING, "EX", ttl, "NX")) === "OK";
        if (!claimed) {
          const known = await r.get(key);
          if (known && known !== PENDING) return JSON.parse(known) as SendResult;
          if (known === PENDING) throw new PluginError(claim.uncertainCode, 409);
          claimed = (await r.set(key, PENDING, "EX", ttl, "NX")) === "OK";
        }
      } catch (err) {
        if (err instanceof PluginError) throw err;
        this.unreadable(err);
      }
    }
    let res: SendResult;
    try {
      res = await send();
    } catch (err) {
      if (claimed && !claim.uncertain(err)) await r!.del(key).catch(() => undefined);
      throw err;
    }
    if (claimed) await this.write(r!, key, res);
    return res;
  }

  private unreadable(err: unknown): void {
    this.opts.log.warn(`sent log unreadable (${(err as Error).message}): sending without the repeat check`);
  }

  private async write(r: R, key: string, res: SendResult): Promise<void> {
    try {
      await r.set(key, JSON.stringify(res), "EX", this.opts.ttlSeconds);
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
