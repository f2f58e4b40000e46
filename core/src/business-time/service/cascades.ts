/**
 * What a deleted queue, user or connection leaves behind in business time: it leaves the
 * targets of schedules and holidays (a schedule left with none decides for nobody and is
 * switched off), and a user's availability goes with them.
 */
import type { Ctx } from "../../types";
import { call } from "../../bus/call";
import type { BusinessTimeKit } from "./kit";
import type { BusinessHoursType } from "../types";

export function createCascades(kit: BusinessTimeKit) {
  const { BusinessHours, Holiday, UserAvailability } = kit;

  async function dropTarget(ctx: Ctx, tenantId: number, type: Exclude<BusinessHoursType, "global">, id: number): Promise<void> {
    let touched = false;
    for (const r of await BusinessHours.findAll({ where: { tenantId, type } })) {
      const left = (r.get("targetIds") as number[]).filter((x) => x !== id);
      if (left.length === (r.get("targetIds") as number[]).length) continue;
      await r.update(left.length ? { targetIds: left } : { targetIds: left, active: false });
      touched = true;
    }
    for (const r of await Holiday.findAll({ where: { tenantId, type } })) {
      const left = (r.get("targetIds") as number[]).filter((x) => x !== id);
      if (left.length === (r.get("targetIds") as number[]).length) continue;
      await r.update({ targetIds: left });
      touched = true;
    }
    if (touched) {
      await kit.changed(ctx, tenantId, "hours");
      await kit.changed(ctx, tenantId, "holidays");
    }
  }

  return {
    async userDeleted(ctx: Ctx, tenantId: number, userId: number) {
      const n = await UserAvailability.destroy({ where: { tenantId, userId } });
      if (n) await kit.changed(ctx, tenantId, "availability");
      await dropTarget(ctx, tenantId, "user", userId);
    },
    async queueChanged(ctx: Ctx, tenantId: number, queueId: number) {
      const still = await call(ctx, "queues.existing", { tenantId, ids: [queueId] });
      if (!still.length) await dropTarget(ctx, tenantId, "queue", queueId);
    },
    async connectionDeleted(ctx: Ctx, tenantId: number, connectionId: number) {
      await dropTarget(ctx, tenantId, "whatsapp", connectionId);
    },
  };
}
