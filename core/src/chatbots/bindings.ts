/**
 * The tenant's chatbot bindings (chatbot_bindings): read whole (a tenant has a handful), written
 * one target at a time. Every write tells every node (`chatbots.changed`, broadcast) so the
 * routing caches (tickets/chatbot-routing.ts) forget the tenant at once. A deleted connection
 * or queue takes its binding with it.
 */
import { Op } from "sequelize";
import type { ChatbotBinding, ChatbotScope } from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import { broadcast, call, type Broadcaster } from "../bus/call";
import type { Ctx } from "../types";
import type { ChatbotBindingModel } from "./model";

const bindingOf = (r: ChatbotBindingModel): ChatbotBinding => ({
  scope: r.get("scope") as ChatbotScope,
  targetId: Number(r.get("targetId")),
  pluginId: r.get("pluginId") as string,
  ref: r.get("ref") as string,
});

export function createBindings(model: typeof ChatbotBindingModel) {
  const changed = (ctx: Broadcaster, tenantId: number) => broadcast(ctx, "chatbots.changed", { tenantId });

  /** The target is the tenant's (another tenant's, or none: its not-found code). */
  async function checkTarget(ctx: Ctx, tenantId: number, scope: ChatbotScope, targetId: number): Promise<void> {
    if (scope === "queue") {
      if (!(await call(ctx, "queues.existing", { tenantId, ids: [targetId] })).length) throw new AppError("ERR_QUEUE_NOT_FOUND", { field: "targetId", id: targetId });
      return;
    }
    if (!(await call(ctx, "connections.names", { tenantId, ids: [targetId] })).length) throw new AppError("ERR_CONNECTION_NOT_FOUND", { field: "targetId", id: targetId });
  }

  /** Whether the tenant may use the plugin now (allowed, switched on, within its tier). */
  async function usable(ctx: Ctx, tenantId: number, pluginId: string): Promise<boolean> {
    const r = await call(ctx, "plugins.availability", { tenantId, id: pluginId }).catch(() => null);
    return !!r?.enabled;
  }

  return {
    async list(ctx: Ctx<{ tenantId: number; available?: boolean }>): Promise<ChatbotBinding[]> {
      const { tenantId, available } = ctx.params;
      const all = (await model.findAll({ where: { tenantId }, order: [["id", "ASC"]], limit: 10_000 })).map(bindingOf);
      if (!available) return all;
      const plugins = [...new Set(all.map((b) => b.pluginId))];
      const ok = new Set((await Promise.all(plugins.map(async (p) => ((await usable(ctx, tenantId, p)) ? p : null)))).filter((p): p is string => !!p));
      return all.filter((b) => ok.has(b.pluginId));
    },

    async bind(ctx: Ctx<{ tenantId: number; pluginId: string; scope: ChatbotScope; targetId: number; ref: string | null }>): Promise<{ bound: boolean }> {
      const { tenantId, pluginId, scope, targetId, ref } = ctx.params;
      await checkTarget(ctx, tenantId, scope, targetId);
      const where = { tenantId, scope, targetId };
      if (ref === null) {
        const n = await model.destroy({ where: { ...where, pluginId } });
        if (n) await changed(ctx, tenantId);
        return { bound: false };
      }
      // One statement per outcome: the unique key keeps one bot per target when two binds race.
      const [n] = await model.update({ pluginId, ref }, { where });
      if (!n) {
        try {
          await model.create({ ...where, pluginId, ref });
        } catch (err) {
          if ((err as { name?: string }).name !== "SequelizeUniqueConstraintError") throw err;
          await model.update({ pluginId, ref }, { where });
        }
      }
      await changed(ctx, tenantId);
      return { bound: true };
    },

    /** A connection or queue deleted: its binding goes. */
    async targetGone(ctx: Ctx, tenantId: number, scope: ChatbotScope, targetId: number): Promise<void> {
      const n = await model.destroy({ where: { tenantId, scope, targetId: { [Op.eq]: targetId } } });
      if (n) await changed(ctx, tenantId);
    },
  };
}

export type Bindings = ReturnType<typeof createBindings>;
