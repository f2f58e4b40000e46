import type Redis from "ioredis";
import type { ErrorCode } from "../errors/codes";

/**
 * The state of each session, mirrored in Redis so every gateway node checks it with one
 * round trip and a revocation is seen by the very next request on any node (no cache that
 * could let an ended session through). The database stays the source of truth: a missing
 * key is answered by the auth service and written back.
 */
export type SessionState = { active: true } | { active: false; code: ErrorCode };

const key = (sid: string) => `oa:sess:${sid}`;

export async function writeSessionState(redis: Redis, sid: string, state: SessionState, ttlSeconds: number): Promise<void> {
  await redis.set(key(sid), state.active ? "active" : state.code, "EX", Math.max(1, Math.ceil(ttlSeconds)));
}

export async function readSessionState(redis: Redis, sid: string): Promise<SessionState | undefined> {
  const v = await redis.get(key(sid));
  if (v === null) return undefined;
  return v === "active" ? { active: true } : { active: false, code: v as ErrorCode };
}
