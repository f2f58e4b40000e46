/**
 * What the plugin host asks of connections when it installs, upgrades or removes a plugin
 * from the marketplace (core/src/plugins/installs.ts): how many connections use it, and
 * moving the ones pinned to a major over to the major that runs now. Actions of the
 * connections service, which owns the table; the plugin host reads none of it.
 *
 * A connection's type is its plugin's id; older rows may hold the channel type, so both
 * names are asked (`types`). Their params and results: ConnectionsActions in ./contract.ts.
 */
import { Op, type Model, type ModelStatic } from "sequelize";
import type { ActionSchema } from "moleculer";
import type { Ctx } from "../types";
import { emit } from "../bus/call";

const typesParam = { type: "array", items: { type: "string", min: 1, max: 64 }, min: 1, max: 10 } as const;

export function pluginPinActions(model: ModelStatic<Model>): Record<string, ActionSchema> {
  return {
    countByType: {
      visibility: "public",
      params: { types: typesParam },
      async handler(ctx: Ctx<{ types: string[] }>): Promise<number> {
        return model.count({ where: { type: { [Op.in]: [...new Set(ctx.params.types)] } } });
      },
    },
    repinMajor: {
      visibility: "public",
      params: { types: typesParam, major: { type: "number", integer: true, min: 0 } },
      async handler(ctx: Ctx<{ types: string[]; major: number }>): Promise<{ moved: number }> {
        const where = { type: { [Op.in]: [...new Set(ctx.params.types)] }, pluginMajor: { [Op.ne]: null } };
        const rows = await model.findAll({ where, attributes: ["id", "tenantId"] });
        // silent: the platform moved it, nobody edited the connection (updatedAt stays).
        const [moved] = await model.update({ pluginMajor: ctx.params.major }, { where, silent: true });
        // The processes' connection caches (channels, messages) forget the old major.
        for (const r of rows) void emit(ctx, "connections.changed", { tenantId: r.get("tenantId") as number, connectionId: r.get("id") as number });
        return { moved };
      },
    },
  };
}
