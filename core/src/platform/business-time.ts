/**
 * The core API's business-time questions (plugin-sdk core-api/contract.ts): is it open for a
 * target, and a user's availability. Part of the platform service, whose `before` hook has
 * checked the caller and the tenant; here each id is looked up within that tenant.
 */
import type { ActionSchema } from "moleculer";
import type { PlatformActions } from "@openatende/plugin-sdk";
import { call } from "../bus/call";
import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";

type P<A extends keyof PlatformActions> = Ctx<PlatformActions[A]["params"]>;
type R<A extends keyof PlatformActions> = Promise<PlatformActions[A]["result"]>;

const id = { type: "number", integer: true, positive: true };
const optionalId = { ...id, optional: true, nullable: true };

export const businessTimeActions: Record<string, ActionSchema> = {
  "businessTime.state": {
    params: {
      tenantId: id,
      target: { type: "object", strict: "remove", props: { queueId: optionalId, userId: optionalId, connectionId: optionalId } },
      at: { type: "number", integer: true, min: 0, optional: true },
    },
    async handler(ctx: P<"platform.businessTime.state">): R<"platform.businessTime.state"> {
      const { tenantId, target, at } = ctx.params;
      return call(ctx, "businessTime.state", { tenantId, target, at, checkTarget: true });
    },
  },
  "users.availability": {
    params: { tenantId: id, userId: id },
    async handler(ctx: P<"platform.users.availability">): R<"platform.users.availability"> {
      const { tenantId, userId } = ctx.params;
      const u = await call(ctx, "users.getInternal", { id: userId });
      if (!u || u.tenantId !== tenantId || u.deletedAt) throw new AppError("ERR_USER_NOT_FOUND", { id: userId });
      return call(ctx, "businessTime.availability", { tenantId, userId });
    },
  },
};
