import type { Ctx } from "../types";
import { call, type CoreEvents } from "../bus/call";
import { TtlCache } from "../lib/ttl-cache";

/**
 * What every list call reads and almost never changes: the caller's queues (users service)
 * and the tenant's settings (settings service). Without a cache each list call pays two
 * service calls and three SQL statements for them; with it, none while the entry lives.
 *
 * Entries live `ttlMs` at most and are dropped at once by the events that announce a change
 * (`users.updated`, `users.deleted`, `queues.changed`, `settings.changed`): in one process a
 * change is seen by the next request. Those events reach one instance per service (emit) or
 * every node (broadcast); a node that does not hear one serves the old value for at most the
 * TTL. A read that started before a change is never stored after it (generation check), and
 * concurrent misses for one key share one read.
 */
export interface ListCacheOptions {
  ttlMs?: number;
  /** Most user entries kept; the oldest go first. */
  maxUsers?: number;
}

export interface CachedUser {
  tenantId: number;
  queues: number[];
}

export interface ListCache {
  /** The user's tenant and queues (users.getInternal), cached. */
  user(ctx: Ctx, userId: number): Promise<CachedUser | null>;
  /** The tenant's settings with defaults (settings.forTenant), cached; a fresh copy each time. */
  settings(ctx: Ctx, tenantId: number): Promise<Record<string, unknown>>;
  /** Event handlers that drop what a change makes stale (a service's `events`). */
  events: { [E in StaleningEvent]: (ctx: Ctx<Partial<CoreEvents[E]>>) => void };
}

/** The events after which a cached entry may be stale. */
type StaleningEvent = "settings.changed" | "users.updated" | "users.deleted" | "queues.changed";

export function createListCache(opts: ListCacheOptions = {}): ListCache {
  const ttl = opts.ttlMs ?? 5000;
  const users = new TtlCache<number, CachedUser | null>(ttl, opts.maxUsers ?? 10_000);
  const settings = new TtlCache<number, Record<string, unknown>>(ttl, 10_000);

  return {
    async user(ctx, userId) {
      const u = await users.get(userId, async () => {
        const row = await call(ctx, "users.getInternal", { id: userId });
        return row ? { tenantId: row.tenantId, queues: [...(row.queues ?? [])] } : null;
      });
      return u ? { tenantId: u.tenantId, queues: [...u.queues] } : null;
    },
    async settings(ctx, tenantId) {
      const s = await settings.get(tenantId, () => call(ctx, "settings.forTenant", { tenantId }));
      return { ...s };
    },
    events: {
      "settings.changed"(ctx) {
        if (typeof ctx.params?.tenantId === "number") settings.dropKey(ctx.params.tenantId);
        else settings.drop();
      },
      "users.updated"(ctx) {
        if (typeof ctx.params?.userId === "number") users.dropKey(ctx.params.userId);
        else users.drop();
      },
      "users.deleted"(ctx) {
        if (typeof ctx.params?.userId === "number") users.dropKey(ctx.params.userId);
        else users.drop();
      },
      // A deleted queue leaves its members' lists (rare: every user entry goes).
      "queues.changed"() {
        users.drop();
      },
    },
  };
}
