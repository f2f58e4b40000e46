/**
 * One bounded cache of Signal keys for every session of the process, in front of the auth
 * tables (Baileys' makeCacheableSignalKeyStore takes it). Baileys' default is one unbounded
 * cache per socket, which grows with the number of sessions (Baileys #1370); here the whole
 * process holds at most `max` keys, least recently used first out, each for `ttlMs`.
 *
 * Baileys names cache entries "<type>.<id>" with no session in them, so each session gets a
 * view that prefixes its own entries: one session never reads another's keys, and clearing a
 * session's view (a wipe) drops only its entries.
 */
import { LRUCache } from "lru-cache";
import type { CacheStore } from "@whiskeysockets/baileys";

export interface KeyCacheOptions {
  /** Most keys kept for all sessions together (default 100 000). */
  max?: number;
  /** How long an unused key stays (default 5 min, Baileys' own). */
  ttlMs?: number;
}

export class SharedKeyCache {
  private readonly lru: LRUCache<string, NonNullable<unknown>>;

  constructor(opts: KeyCacheOptions = {}) {
    this.lru = new LRUCache<string, NonNullable<unknown>>({ max: opts.max ?? 100_000, ttl: opts.ttlMs ?? 5 * 60_000, updateAgeOnGet: true });
  }

  get size(): number {
    return this.lru.size;
  }

  /** The cache as one session sees it. */
  view(scope: string): CacheStore {
    const prefix = `${scope}|`;
    const lru = this.lru;
    return {
      get<T>(key: string): T | undefined {
        return lru.get(prefix + key) as T | undefined;
      },
      set<T>(key: string, value: T) {
        // A deleted key (null) is simply not cached: the next read asks the store, which has none.
        if (value === null || value === undefined) lru.delete(prefix + key);
        else lru.set(prefix + key, value as NonNullable<unknown>);
      },
      del(key: string) {
        lru.delete(prefix + key);
      },
      flushAll() {
        for (const k of [...lru.keys()]) if (k.startsWith(prefix)) lru.delete(k);
      },
    };
  }
}
