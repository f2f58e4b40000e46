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
