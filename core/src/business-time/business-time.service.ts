import type { ServiceSchema } from "moleculer";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { defineService } from "../bus/call";
import { createKit } from "./service/kit";
import { hoursActions } from "./service/hours";
import { holidaysActions } from "./service/holidays";
import { availabilityActions } from "./service/availability";
import { stateActions } from "./service/state";
import { createCascades } from "./service/cascades";

/**
 * Business time (spec §3 Business hours, Holiday, Availability; §5): the tenant's schedules,
 * holidays and users' availability, their routes (the parts in ./service/), and the answer to
 * "is it open" for the rest of the core (businessTime.state, decided by ./rules.ts). The rules'
 * input is cached per tenant and forgotten on every write (businessTime.changed, heard by every
 * node) and when the tenant's time zone changes.
 */
export function createBusinessTimeService(deps: CoreDeps): ServiceSchema {
  const kit = createKit(deps);
  const cascades = createCascades(kit);

  return defineService({
    name: "businessTime",
    settings: { rest: "/" },
    events: {
      "businessTime.changed"(ctx: Ctx<{ tenantId: number }>) {
        kit.forget(ctx.params?.tenantId);
      },
      "tenants.changed"(ctx: Ctx<{ tenantId: number }>) {
        kit.forget(ctx.params?.tenantId);
      },
      async "users.deleted"(ctx: Ctx<{ tenantId: number; userId: number }>) {
        if (ctx.params?.tenantId && ctx.params.userId) await cascades.userDeleted(ctx, ctx.params.tenantId, ctx.params.userId);
      },
      async "queues.changed"(ctx: Ctx<{ tenantId: number; queueId: number }>) {
        if (ctx.params?.tenantId && ctx.params.queueId) await cascades.queueChanged(ctx, ctx.params.tenantId, ctx.params.queueId);
      },
      async "connections.changed"(ctx: Ctx<{ tenantId: number; connectionId: number; deleted?: boolean }>) {
        if (ctx.params?.deleted && ctx.params.tenantId && ctx.params.connectionId) await cascades.connectionDeleted(ctx, ctx.params.tenantId, ctx.params.connectionId);
      },
    },
    actions: {
      ...hoursActions(kit),
      ...holidaysActions(kit),
      ...availabilityActions(kit),
      ...stateActions(kit),
    },
  });
}
