import type Redis from "ioredis";

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfter: number;
}

/**
 * Fixed-window counter in Redis, shared by every gateway node. When Redis cannot be
 * reached the call is allowed (and the caller logs it): losing the limiter must not lock
 * every user out.
 */
export async function hit(redis: Redis, key: string, max: number, windowSeconds: number): Promise<RateLimitResult> {
  const k = `rl:${key}`; // under the installation's prefix (the client adds it, lib/redis.ts)
  const res = await redis.multi().incr(k).expire(k, windowSeconds, "NX").ttl(k).exec();
  if (!res) return { allowed: true, count: 0, retryAfter: 0 };
  const count = Number(res[0]?.[1] ?? 0);
  const ttl = Number(res[2]?.[1] ?? windowSeconds);
  return { allowed: count <= max, count, retryAfter: Math.max(1, ttl) };
}

export interface RateLimitRule {
  key: string;
  max: number;
  windowSeconds: number;
}

/**
 * Several fixed windows counted in one round trip (an address's and a connection's, say):
 * allowed only when every one is; retryAfter is the longest wait among those over their max.
 */
export async function hitAll(redis: Redis, rules: RateLimitRule[]): Promise<RateLimitResult & { limited: string[] }> {
  if (!rules.length) return { allowed: true, count: 0, retryAfter: 0, limited: [] };
  const m = redis.multi();
  for (const r of rules) m.incr(`rl:${r.key}`).expire(`rl:${r.key}`, r.windowSeconds, "NX").ttl(`rl:${r.key}`);
  const res = await m.exec();
  if (!res) return { allowed: true, count: 0, retryAfter: 0, limited: [] };
  let count = 0;
  let retryAfter = 0;
  const limited: string[] = [];
  rules.forEach((r, i) => {
    const n = Number(res[i * 3]?.[1] ?? 0);
    count = Math.max(count, n);
    if (n > r.max) {
      limited.push(r.key);
      retryAfter = Math.max(retryAfter, Math.max(1, Number(res[i * 3 + 2]?.[1] ?? r.windowSeconds)));
    }
  });
  return { allowed: limited.length === 0, count, retryAfter, limited };
}
