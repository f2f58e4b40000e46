import type Redis from "ioredis";
import type { ErrorCode } from "../errors/codes";

/**
 * The state of each session, mirrored in Redis so every gateway node checks it with one
 * round trip and a revocation is seen by the very next request on any node (no cache that
 * could let an ended session through). The database stays the source of truth: a missing
 * key is answered by the auth service and written back.
 */
export type SessionState = { active: true } | { active: false; code: ErrorCode };

/** Under the installation's prefix (the client adds it, lib/redis.ts). */
const key = (sid: string) => `sess:${sid}`;

/**
 * An ended session never comes back, so "active" is written only where nothing is stored
 * (NX): a late "active" (a login's own mirror racing the next login, or a write-back of a
 * database read made before a revocation) cannot overwrite the "ended" written meanwhile.
 */
/**
 * "active" is trusted for a minute only: if the write of an ending ever failed, the gateway
 * goes back to the database within that minute instead of honouring the session for days.
 */
export const ACTIVE_TTL_SECONDS = 60;

export async function writeSessionState(redis: Redis, sid: string, state: SessionState, ttlSeconds: number): Promise<void> {
  const ttl = Math.max(1, Math.ceil(ttlSeconds));
  if (state.active) await redis.set(key(sid), "active", "EX", Math.min(ttl, ACTIVE_TTL_SECONDS), "NX");
  else await redis.set(key(sid), state.code, "EX", ttl);
}

export async function readSessionState(redis: Redis, sid: string): Promise<SessionState | undefined> {
  const v = await redis.get(key(sid));
  if (v === null) return undefined;
  return v === "active" ? { active: true } : { active: false, code: v as ErrorCode };
}
