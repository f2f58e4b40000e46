import type { Middleware, Service, ActionSchema, ActionHandler, Context } from "moleculer";
import { AppError } from "../errors/app-error";
import type { Meta } from "../types";
import { Tier, tierAtLeast } from "../licence/tiers";
import { call } from "../bus/call";

/**
 * The one place where the `tier` action option is enforced: a call made for a tenant whose
 * licence is below the action's tier is refused with ERR_LICENSE_TIER_REQUIRED naming the
 * tier. Calls without a user (system jobs) are not gated.
 */
export const LicenceMiddleware: Middleware = {
  name: "Licence",
  localAction(next: ActionHandler, action: ActionSchema): ActionHandler {
    const required = action.tier;
    if (!required || required === "FREE") return next;
    return async function tierCheck(this: Service, ctx: Context<unknown, Meta>) {
      const user = ctx.meta.user;
      if (user) {
        // The lookup is an internal call: it must neither be access-checked as the gateway's
        // call nor, through Moleculer's meta merge, clear the gateway's `$api` mark before the
        // access middleware (which runs after this one) has checked the action itself.
        const api = ctx.meta.$api;
        let tier: Tier = "FREE";
        try {
          ({ tier } = await call(ctx, "licence.tier", { tenantId: user.tenantId }, { meta: { $api: false } }));
        } catch {
          tier = "FREE"; // a failing licence check means FREE (spec §6)
        } finally {
          ctx.meta.$api = api;
        }
        if (!tierAtLeast(tier, required)) {
          throw new AppError("ERR_LICENSE_TIER_REQUIRED", { requiredTier: required, currentTier: tier });
        }
      }
      return next.call(this, ctx);
    };
  },
};
