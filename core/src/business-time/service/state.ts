/**
 * "Is it open now" (TimeState, decided by ../rules.ts timeState): for the screens' badge through
 * the API, and for the core's services (automatic messages, smart close) through the internal
 * action businessTime.state. The instant is the core's clock (deps.clock) unless a caller asks
 * about another.
 */
import type { ActionSchema } from "moleculer";
import type { Ctx } from "../../types";
import type { BusinessTimeKit } from "./kit";
import { idParam } from "./params";
import { tenantOf } from "./hours";
import { checkTimeTarget } from "./targets";
import { timeState } from "../rules";
import type { TimeState, TimeTarget } from "../types";

const optionalId = { ...idParam, optional: true, nullable: true };

/** Only the ids a target names (a missing one is no condition). */
const targetOf = (p: TimeTarget): TimeTarget => ({ queueId: p.queueId ?? null, userId: p.userId ?? null, connectionId: p.connectionId ?? null });

export function stateActions(kit: BusinessTimeKit): Record<string, ActionSchema> {
  const stateOf = async (ctx: Ctx, tenantId: number, target: TimeTarget, at: number): Promise<TimeState> => timeState(await kit.inputOf(ctx, tenantId), targetOf(target), at);

  return {
    stateNow: {
      rest: "GET /business-hours/state",
      access: "user",
      params: { queueId: optionalId, userId: optionalId, connectionId: optionalId },
      async handler(ctx: Ctx<TimeTarget>): Promise<TimeState> {
        const tenantId = tenantOf(ctx);
        await checkTimeTarget(ctx, tenantId, ctx.params);
        return stateOf(ctx, tenantId, ctx.params, kit.now());
      },
    },
    /** businessTime.state (contract.ts): the core's own callers; `checkTarget` for ids that came from outside (a plugin's question). */
    state: {
      visibility: "public",
      params: {
        tenantId: idParam,
        target: { type: "object", strict: "remove", props: { queueId: optionalId, userId: optionalId, connectionId: optionalId } },
        at: { type: "number", integer: true, min: 0, optional: true },
        checkTarget: { type: "boolean", optional: true },
      },
      async handler(ctx: Ctx<{ tenantId: number; target: TimeTarget; at?: number; checkTarget?: boolean }>): Promise<TimeState> {
        if (ctx.params.checkTarget) await checkTimeTarget(ctx, ctx.params.tenantId, ctx.params.target);
        return stateOf(ctx, ctx.params.tenantId, ctx.params.target, ctx.params.at ?? kit.now());
      },
    },
  };
}
