/**
 * The core API's plan actions (plugin-sdk core-api/contract.ts). Part of the platform service,
 * whose `before` hook has checked the caller and the tenant.
 *
 * platform.plan.assertWithin: a plugin enforcing a plan cap on its own objects (spec §6: one
 * active chatflow on the free plan) asks the licence domain for the tenant's limits and gets
 * the plan's code when one more would pass the cap (licence/plans.ts assertWithinLimit, the
 * rule every cap of the core follows), else the cap. The count is the plugin's: it calls this
 * inside the transaction that counts and activates, so two activations cannot both pass.
 */
import type { ActionSchema } from "moleculer";
import type { PlatformActions, PlanLimitKind } from "@openatende/plugin-sdk";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import { assertWithinLimit, type LimitedKind } from "../licence/plans";

type A = PlatformActions["platform.plan.assertWithin"];

/** The plugin's kinds of capped objects, as the licence domain names them. */
const KINDS: Record<PlanLimitKind, LimitedKind> = { chatflows: "chatflows" };

export const planActions: Record<string, ActionSchema> = {
  "plan.assertWithin": {
    params: {
      tenantId: { type: "number", integer: true, positive: true },
      kind: { type: "enum", values: Object.keys(KINDS) },
      current: { type: "number", integer: true, min: 0, max: 1_000_000 },
    },
    async handler(ctx: Ctx<A["params"]>): Promise<A["result"]> {
      const kind = KINDS[ctx.params.kind];
      const limits = await call(ctx, "licence.limits", { tenantId: ctx.params.tenantId });
      assertWithinLimit(limits, kind, ctx.params.current);
      return { max: limits[kind] };
    },
  },
};
