import type { CoreDeps } from "../deps";
import { AppError } from "../errors/app-error";
import { hitAll, type RateLimitRule } from "../lib/rate-limit";

/**
 * The SDK's rateLimit (plugin-sdk/src/rate-limit.ts), an action of the gateway: fixed windows
 * for plugins' public routes, counted in the installation's Redis. Redis unreachable: allowed
 * (and logged), as for logins: losing the limiter must not take the routes down. A plugin in a
 * node of its own ($caller, set by the caller guard from its verified identity) counts only
 * under its own keys (the SDK prefixes them `plugin:<id>:`), never another plugin's.
 */
export function rateLimitAction(deps: CoreDeps) {
  return {
    visibility: "public" as const,
    params: {
      rules: {
        type: "array",
        min: 1,
        max: 8,
        items: { type: "object", props: { key: { type: "string", min: 1, max: 300 }, max: { type: "number", integer: true, positive: true }, windowSeconds: { type: "number", integer: true, positive: true, max: 86400 } } },
      },
    },
    async handler(this: { logger: { warn(m: string): void } }, ctx: { params: { rules: RateLimitRule[] }; meta: { $caller?: { plugin?: string } } }) {
      const caller = ctx.meta.$caller?.plugin;
      if (caller && ctx.params.rules.some((r) => !r.key.startsWith(`plugin:${caller}:`))) throw new AppError("ERR_PLUGIN_FORBIDDEN", { action: "api.rateLimit" });
      try {
        const r = await hitAll(deps.redis(), ctx.params.rules);
        return { allowed: r.allowed, retryAfter: r.retryAfter, limited: r.limited };
      } catch (err) {
        this.logger.warn(`Rate limiter unavailable (Redis): ${(err as Error).message}`);
        return { allowed: true, retryAfter: 0, limited: [] };
      }
    },
  };
}
