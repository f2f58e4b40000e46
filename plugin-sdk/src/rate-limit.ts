/**
 * Rate limits for a plugin's public routes (a web-chat widget, a webhook): fixed windows
 * counted by the core in its Redis, under the installation's keys and shared by every node,
 * so a plugin needs no Redis client of its own for them. A call over the limit throws
 * ERR_RATE_LIMITED (HTTP 429, a catalogue code); the gateway adds Retry-After from
 * `data.retryAfter`.
 *
 *   await rateLimit(ctx, "channel-webchat", [
 *     { key: `session:ip:${ctx.meta.ip}`, max: 20, windowSeconds: 60 },
 *     { key: `session:token:${token}`, max: 600, windowSeconds: 60 },
 *   ]);
 *
 * A core that cannot count (Redis down, an older core without the action) lets the call
 * through: losing the limiter must not take the plugin's routes down with it.
 */
import type { Context } from "moleculer";

/** The core's action that counts (the gateway's). */
export const CORE_RATE_LIMIT_ACTION = "api.rateLimit";

export interface RateLimitRule {
  /** What is counted, within the plugin's own keys: "session:ip:203.0.113.9". */
  key: string;
  /** Calls allowed per window. */
  max: number;
  windowSeconds: number;
}

export interface RateLimitAnswer {
  allowed: boolean;
  retryAfter: number;
  /** The keys over their max. */
  limited: string[];
}

/** The error a limited call throws: the catalogue's ERR_RATE_LIMITED, 429. */
export class RateLimitedError extends Error {
  readonly type = "ERR_RATE_LIMITED";
  readonly code = 429;
  readonly data: { retryAfter: number };
  constructor(retryAfter: number) {
    super("ERR_RATE_LIMITED");
    this.name = "RateLimitedError";
    this.data = { retryAfter };
  }
}

/** Counts one call against every rule; throws RateLimitedError when any is over its max. */
export async function rateLimit(ctx: Pick<Context, "call">, pluginId: string, rules: RateLimitRule[]): Promise<void> {
  const usable = rules.filter((r) => r.max > 0 && r.windowSeconds > 0);
  if (!usable.length) return;
  let answer: RateLimitAnswer;
  try {
    answer = (await ctx.call(CORE_RATE_LIMIT_ACTION, { rules: usable.map((r) => ({ ...r, key: `plugin:${pluginId}:${r.key}` })) })) as RateLimitAnswer;
  } catch {
    return;
  }
  if (answer && !answer.allowed) throw new RateLimitedError(answer.retryAfter);
}
