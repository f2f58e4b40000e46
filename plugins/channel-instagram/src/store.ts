/**
 * What the plugin remembers across restarts and nodes, in the plugin context's Redis (keys
 * under `<redisPrefix>:channel-instagram`):
 *
 * - the sent log (the SDK's SentOnce): what each part of a send of the core's message id answered. The Send API
 *   has no idempotency key, so a send the core hands over again is answered from here; it is
 *   claimed before Meta is called, and a claim whose answer was lost (a timeout) is not sent
 *   again (ERR_INSTAGRAM_SEND_UNCERTAIN) rather than risk a customer getting it twice;
 * - our mids: every message id Meta gave a send of ours (with the id the core stored it under,
 *   for the parts of a split text), so that its echo is not stored as a second message and a
 *   read receipt of any part reaches the message;
 * - each customer's last message time: the 24-hour and 7-day windows are the customer's;
 * - each customer's profile, fetched once;
 * - the account index: which connections (by token) serve an Instagram account id, so that a
 *   webhook of a Meta app serving several accounts reaches each account's own connection.
 *
 * Without Redis nothing is remembered: every send goes out, and the core's unique key on the
 * message id still stores each message once.
 */
import IORedis from "ioredis";
import { SentOnce, type SendResult } from "@openatende/plugin-sdk";

const DAY = 86400;
/** Longer than any outage the core's outbox waits out, and than Meta's retries. */
const KEEP_SECONDS = 8 * DAY;
const PROFILE_SECONDS = 7 * DAY;
/** SET key to ARGV[1] (with ARGV[2] seconds to live) when it is larger than what the key holds. */
const MOVE_FORWARD = "local v = tonumber(redis.call('GET', KEYS[1]) or '0') if tonumber(ARGV[1]) > v then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end return 1";

export interface StoreOptions {
  redisUrl?: string;
  /** "<redisPrefix>:channel-instagram" */
  prefix: string;
  log: { warn(...a: unknown[]): void };
  /** Whether a failed send may have reached Meta all the same (its claim is then kept). */
  uncertain(err: unknown): boolean;
}

export interface StoredProfile {
  name?: string;
  avatarUrl?: string;
}

export class PluginStore {
  /** The sent log (the SDK's SentOnce, claimed), whose Redis client the other keys share. */
  private readonly sent: SentOnce<IORedis>;

  constructor(private readonly opts: StoreOptions) {
    this.sent = new SentOnce<IORedis>({
      redisUrl: opts.redisUrl,
      connect: (url) => new IORedis(url, { maxRetriesPerRequest: 2, connectTimeout: 3000 }),
      prefix: opts.prefix,
      ttlSeconds: KEEP_SECONDS,
      log: opts.log,
      claim: { uncertainCode: "ERR_INSTAGRAM_SEND_UNCERTAIN", uncertain: opts.uncertain },
    });
  }

  private async run<T>(what: string, fn: (r: IORedis) => Promise<T>, fallback: T): Promise<T> {
    const r = this.sent.client();
    if (!r) return fallback;
    try {
      return await fn(r);
    } catch (err) {
      this.opts.log.warn(`plugin store: ${what} failed (${(err as Error).message})`);
      return fallback;
    }
  }

  private key(...parts: Array<string | number>): string {
    return [this.opts.prefix, ...parts].join(":");
  }

  /** Runs `send` once per (connection, message id, part, what is sent); see the file's comment. */
  async once(scope: { connection: string; messageId?: number; part: number; what: unknown }, send: () => Promise<SendResult>): Promise<SendResult> {
    return this.sent.once({ id: [scope.connection, scope.messageId, scope.part], what: scope.what }, send);
  }

  /** Records a mid Meta gave a send of ours; `main` is the id the core stores the message under. */
  async markOurs(connection: string, mid: string, main: string): Promise<void> {
    await this.run("record a sent mid", (r) => r.set(this.key("ours", connection, mid), main, "EX", KEEP_SECONDS), null);
  }

  /** The core's id of a mid we sent, or null when it is not ours. */
  async oursOf(connection: string, mid: string): Promise<string | null> {
    return this.run("read a sent mid", (r) => r.get(this.key("ours", connection, mid)), null);
  }

  /** Whether a message with a file was handed to the core (a replay does not fetch its file again). */
  async taken(connection: string, providerMessageId: string): Promise<boolean> {
    return (await this.run("read the messages taken in", (r) => r.exists(this.key("taken", connection, providerMessageId)), 0)) === 1;
  }

  async markTaken(connection: string, providerMessageId: string): Promise<void> {
    await this.run("record a message taken in", (r) => r.set(this.key("taken", connection, providerMessageId), "1", "EX", KEEP_SECONDS), null);
  }

  /** Moves the customer's last message time forward (never back: deliveries come out of order). */
  async touchInbound(connection: string, igsid: string, at: number): Promise<void> {
    const key = this.key("last-in", connection, igsid);
    // One step in Redis: two nodes taking two messages of one customer at once never move it back.
    await this.run("record the last inbound time", (r) => r.eval(MOVE_FORWARD, 1, key, String(at), String(KEEP_SECONDS)), null);
  }

  async lastInbound(connection: string, igsid: string): Promise<number | null> {
    const v = await this.run("read the last inbound time", (r) => r.get(this.key("last-in", connection, igsid)), null);
    return v ? Number(v) || null : null;
  }

  async profileOf(connection: string, igsid: string): Promise<StoredProfile | null> {
    const v = await this.run("read a profile", (r) => r.get(this.key("profile", connection, igsid)), null);
    return v ? (JSON.parse(v) as StoredProfile) : null;
  }

  async saveProfile(connection: string, igsid: string, p: StoredProfile): Promise<void> {
    await this.run("record a profile", (r) => r.set(this.key("profile", connection, igsid), JSON.stringify(p), "EX", PROFILE_SECONDS), null);
  }

  async claimAccount(igAccountId: string, token: string): Promise<void> {
    await this.run("index the account", (r) => r.sadd(this.key("acct", igAccountId), token), 0);
  }

  async releaseAccount(igAccountId: string, token: string): Promise<void> {
    await this.run("unindex the account", (r) => r.srem(this.key("acct", igAccountId), token), 0);
  }

  async claimsOf(igAccountId: string): Promise<string[]> {
    return this.run("read the account index", (r) => r.smembers(this.key("acct", igAccountId)), []);
  }

  async close(): Promise<void> {
    await this.sent.close();
  }
}
