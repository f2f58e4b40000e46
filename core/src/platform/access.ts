/**
 * Who calls the core API, and for which tenant it may act: the calling plugin is
 * `ctx.meta.$caller.plugin` (set by the caller guard from the verified identity of a plugin's
 * node, or by the SDK's client for a plugin in the core's own process); the tenant is the
 * call's `tenantId`, for which the plugin must be available (plugins.availability: allowed,
 * switched on, tier reached), else the host's refusal is thrown (ERR_PLUGIN_DISABLED,
 * ERR_LICENSE_TIER_REQUIRED naming the tier, …).
 *
 * The answers are kept a few seconds per plugin and tenant, both yes and no, and forgotten on
 * plugins.changed and licence.changed, so a switch takes effect at once on this node.
 */
import { call } from "../bus/call";
import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";

export const AVAILABILITY_TTL_MS = 5000;

type Entry = { at: number; answer: Promise<void> };

export function callerOf(ctx: Ctx): string {
  const plugin = (ctx.meta as { $caller?: { plugin?: unknown } }).$caller?.plugin;
  if (typeof plugin !== "string" || !plugin) throw new AppError("ERR_NO_PERMISSION", { reason: "no-plugin" });
  return plugin;
}

export function availabilityCache(now: () => number = Date.now) {
  const entries = new Map<string, Entry>();

  /** Resolves when `plugin` may act for `tenantId`; rejects with the host's refusal otherwise. */
  function assertAvailable(ctx: Ctx, plugin: string, tenantId: number): Promise<void> {
    const key = `${plugin}\u0000${tenantId}`;
    const hit = entries.get(key);
    if (hit && now() - hit.at < AVAILABILITY_TTL_MS) return hit.answer;
    const answer = call(ctx, "plugins.availability", { tenantId, id: plugin, assert: true }).then(() => undefined);
    entries.set(key, { at: now(), answer });
    // A failure of the call itself (not a refusal) is not remembered.
    answer.catch((err: { type?: string }) => {
      if (!err?.type?.startsWith("ERR_") && entries.get(key)?.answer === answer) entries.delete(key);
    });
    return answer;
  }

  /** Forgets a tenant's answers (every tenant's without one). */
  function forget(tenantId?: number): void {
    if (tenantId === undefined) entries.clear();
    else for (const k of entries.keys()) if (k.endsWith(`\u0000${tenantId}`)) entries.delete(k);
  }

  return { assertAvailable, forget };
}

export type AvailabilityCache = ReturnType<typeof availabilityCache>;
