/**
 * What the channel remembers across restarts, in Redis (the platform's shared store; the
 * deployment runs it with an append-only file): per connection, the sync cursor of its
 * INBOX (UIDVALIDITY + last UID handed to the core) and the Message-IDs handed over lately;
 * per contact, the thread a reply continues (subject, last Message-ID, References).
 *
 * Keys: <redisPrefix>:channel-email:<tenantId>:<connectionId>:{cursor|seen|thread:<address>},
 * redisPrefix being the plugin context's (`<namespace>:<installation id>`: two installations
 * sharing one Redis have tenants and connections with the same ids). Before it the keys were
 * under `<namespace>` alone; losing them would re-sync every mailbox from scratch and break
 * reply threads, so the first time this process touches a key whose new name is missing, the
 * old one is renamed to it (RENAMENX: never over a key already written under the new name).
 * Nothing here holds a password: settings stay in the core's database.
 */
import type Redis from "ioredis";
import type { ConnectionRef } from "@openatende/plugin-sdk";

export interface SyncCursor {
  /** accountKey() of the settings the cursor was made with. */
  account: string;
  uidValidity: string;
  /** Highest UID whose message reached the core. */
  lastUid: number;
  /** Internal date (ms) of that message: where a re-sync after a UIDVALIDITY change starts. */
  lastDate: number;
}

export interface ThreadState {
  subject: string;
  /** The customer's last Message-ID: what a reply answers (In-Reply-To). */
  lastInbound: string | null;
  /** References of the conversation, oldest first, ours included. */
  references: string[];
  updatedAt: number;
}

/** How many Message-IDs of a connection are remembered for re-syncs, and for how long. */
const SEEN_MAX = 20_000;
const SEEN_TTL_MS = 60 * 24 * 3600_000;
const THREAD_TTL_S = 180 * 24 * 3600;
const MAX_REFERENCES = 30;
/** How many keys the process remembers as carried over. */
const CARRIED_MAX = 50_000;

export class EmailStore {
  /** Keys already carried over (or found with nothing to carry) by this process. */
  private readonly carried = new Set<string>();

  /**
   * @param prefix the context's redisPrefix
   * @param legacyPrefix the prefix of the keys written before it (the context's namespace); the
   *   same as `prefix` (a context without an installation id) means nothing to carry over.
   */
  constructor(
    private readonly redis: () => Redis,
    private readonly prefix: string,
    private readonly legacyPrefix: string = prefix,
  ) {}

  private name(prefix: string, ref: ConnectionRef, what: string) {
    return `${prefix}:channel-email:${ref.tenantId}:${ref.connectionId}:${what}`;
  }

  /** The key of `what`, its state of before redisPrefix carried over to it first. */
  private async key(ref: ConnectionRef, what: string): Promise<string> {
    const key = this.name(this.prefix, ref, what);
    if (this.legacyPrefix === this.prefix || this.carried.has(key)) return key;
    try {
      await this.redis().renamenx(this.name(this.legacyPrefix, ref, what), key);
    } catch (err) {
      // "no such key": nothing was left under the old name. Anything else is retried next time.
      if (!/no such key/i.test((err as Error).message)) throw err;
    }
    // Bounded (a thread key per address): forgetting only costs one more RENAMENX.
    if (this.carried.size >= CARRIED_MAX) this.carried.clear();
    this.carried.add(key);
    return key;
  }

  async getCursor(ref: ConnectionRef): Promise<SyncCursor | null> {
    const raw = await this.redis().get(await this.key(ref, "cursor"));
    if (!raw) return null;
    try {
      const c = JSON.parse(raw) as SyncCursor;
      return typeof c.account === "string" && typeof c.uidValidity === "string" && Number.isInteger(c.lastUid) ? c : null;
    } catch {
      return null;
    }
  }

  async setCursor(ref: ConnectionRef, c: SyncCursor): Promise<void> {
    await this.redis().set(await this.key(ref, "cursor"), JSON.stringify(c));
  }

  /** True when this Message-ID was handed to the core before (re-sync only: see mailbox.ts). */
  async wasSeen(ref: ConnectionRef, providerId: string): Promise<boolean> {
    return (await this.redis().zscore(await this.key(ref, "seen"), providerId)) !== null;
  }

  async markSeen(ref: ConnectionRef, providerId: string, at = Date.now()): Promise<void> {
    const k = await this.key(ref, "seen");
    await this.redis()
      .multi()
      .zadd(k, at, providerId)
      .zremrangebyscore(k, "-inf", at - SEEN_TTL_MS)
      .zremrangebyrank(k, 0, -SEEN_MAX - 1)
      .exec();
  }

  async getThread(ref: ConnectionRef, address: string): Promise<ThreadState | null> {
    const raw = await this.redis().get(await this.key(ref, `thread:${address.toLowerCase()}`));
    if (!raw) return null;
    try {
      return JSON.parse(raw) as ThreadState;
    } catch {
      return null;
    }
  }

  /** A message of the customer: the thread now answers it. */
  async noteInbound(ref: ConnectionRef, address: string, m: { messageId: string | null; subject: string; references: string[]; inReplyTo: string | null }): Promise<void> {
    const chain = [...m.references];
    if (m.inReplyTo && !chain.includes(m.inReplyTo)) chain.push(m.inReplyTo);
    if (m.messageId) chain.push(m.messageId);
    const prev = await this.getThread(ref, address);
    const state: ThreadState = {
      subject: m.subject || prev?.subject || "",
      lastInbound: m.messageId ?? prev?.lastInbound ?? null,
      references: dedupeTail(chain.length ? chain : (prev?.references ?? [])),
      updatedAt: Date.now(),
    };
    await this.redis().set(await this.key(ref, `thread:${address.toLowerCase()}`), JSON.stringify(state), "EX", THREAD_TTL_S);
  }

  /** A message we sent: later replies reference it too. */
  async noteOutbound(ref: ConnectionRef, address: string, m: { messageId: string; subject: string }): Promise<void> {
    const prev = await this.getThread(ref, address);
    const state: ThreadState = {
      subject: prev?.subject || m.subject,
      lastInbound: prev?.lastInbound ?? null,
      references: dedupeTail([...(prev?.references ?? []), m.messageId]),
      updatedAt: Date.now(),
    };
    await this.redis().set(await this.key(ref, `thread:${address.toLowerCase()}`), JSON.stringify(state), "EX", THREAD_TTL_S);
  }

  /** Forgets everything of a connection (tests; a deleted connection). */
  async forget(ref: ConnectionRef): Promise<void> {
    const r = this.redis();
    for (const prefix of new Set([this.prefix, this.legacyPrefix])) {
      const pattern = this.name(prefix, ref, "*");
      let cursor = "0";
      do {
        const [next, keys] = await r.scan(cursor, "MATCH", pattern, "COUNT", 200);
        if (keys.length) await r.del(...keys);
        cursor = next;
      } while (cursor !== "0");
    }
  }
}

/** Keeps the first id (the thread's root) and the latest ones, without repeats. */
function dedupeTail(ids: string[]): string[] {
  const seen = new Set<string>();
  const uniq = ids.filter((id) => (seen.has(id) ? false : (seen.add(id), true)));
  return uniq.length <= MAX_REFERENCES ? uniq : [uniq[0], ...uniq.slice(-(MAX_REFERENCES - 1))];
}
