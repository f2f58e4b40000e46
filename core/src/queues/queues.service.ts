import { Op, UniqueConstraintError } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { tenantDbMixin, type TenantDbMethods } from "../db/tenant-db.mixin";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { PlanLimits, assertWithinLimit } from "../licence/plans";
import { lockTenantRow } from "../db/row-locks";
import type { QueueName } from "./contract";
import { call, defineService, emit, serviceRunning } from "../bus/call";
import { Queue, QueueRow, defineQueue } from "./model";

const view = (q: Queue) => {
  const r = q.get({ plain: true });
  return { id: r.id, name: r.name, active: !!r.active, createdAt: r.createdAt, updatedAt: r.updatedAt };
};

/**
 * Queues (filas) of a tenant. The free plan allows one active queue: the cap is checked when
 * a queue is created active or re-activated, under a lock on the tenant's row.
 */
export function createQueuesService(deps: CoreDeps): ServiceSchema {
  const model = defineQueue(deps.sequelize);

  async function withActiveCap<T>(ctx: Ctx, tenantId: number, activating: boolean, work: (t: unknown) => Promise<T>): Promise<T> {
    const limits = activating ? await call(ctx, "licence.limits", { tenantId }) : undefined;
    return deps.sequelize.transaction(async (transaction) => {
      if (limits) {
        await lockTenantRow(deps.sequelize, tenantId, transaction);
        const current = await model.count({ where: { tenantId, active: true }, transaction });
        assertWithinLimit(limits, "queues", current);
      }
      try {
        return await work(transaction);
      } catch (err) {
        if (err instanceof UniqueConstraintError) throw new AppError("ERR_CONFLICT", { field: "name" });
        throw err;
      }
    });
  }

  return defineService<TenantDbMethods<Queue>>({
    name: "queues",
    mixins: [tenantDbMixin(deps.sequelize, model)],
    settings: { rest: "/" },
    actions: {
      list: {
        rest: "GET /queues",
        access: "user",
        params: {
          active: { type: "boolean", optional: true, convert: true },
          /** Targets of a ticket transfer (spec §4): every active queue, by id and name, whoever asks. */
          transfer: { type: "boolean", optional: true, convert: true },
        },
        async handler(ctx: Ctx<{ active?: boolean; transfer?: boolean }>) {
          const where: Record<string | symbol, unknown> = { tenantId: this.tenantOf(ctx) };
          if (ctx.params.transfer) {
            const rows = await model.findAll({ where: { ...where, active: true }, order: [["name", "ASC"]], attributes: ["id", "name", "active"] });
            return rows.map((q) => ({ id: q.get("id"), name: q.get("name"), active: true }));
          }
          if (ctx.params.active !== undefined) where.active = ctx.params.active;
          // Spec §6: users see only the queues they belong to; supervisors and admins see all.
          if (ctx.meta.user!.profile === "user") {
            const me = await call(ctx, "users.getInternal", { id: ctx.meta.user!.id });
            where.id = { [Op.in]: me?.queues ?? [] };
          }
          const rows = await model.findAll({ where, order: [["name", "ASC"]] });
          return rows.map(view);
        },
      },
      get: {
        rest: "GET /queues/:id",
        access: "user",
        resource: "queues",
        params: { id: { type: "number", integer: true, positive: true, convert: true } },
        async handler(ctx: Ctx<{ id: number }>) {
          const q = await this.findOwned(ctx, ctx.params.id, "ERR_QUEUE_NOT_FOUND");
          if (ctx.meta.user!.profile === "user") {
            const me = await call(ctx, "users.getInternal", { id: ctx.meta.user!.id });
            if (!me?.queues.includes(ctx.params.id)) throw new AppError("ERR_QUEUE_NOT_FOUND", { id: ctx.params.id });
          }
          return view(q);
        },
      },
      create: {
        rest: "POST /queues",
        access: "admin",
        params: { name: { type: "string", min: 1, max: 100, trim: true }, active: { type: "boolean", optional: true, convert: true } },
        async handler(ctx: Ctx<{ name: string; active?: boolean }>) {
          const tenantId = this.tenantOf(ctx);
          const active = ctx.params.active ?? true;
          const q = await withActiveCap(ctx, tenantId, active, (transaction) =>
            model.create({ tenantId, name: ctx.params.name, active }, { transaction: transaction as never }),
          );
          ctx.meta.$statusCode = 201;
          void emit(ctx, "queues.changed", { tenantId, queueId: q.get("id") as number });
          return view(q);
        },
      },
      update: {
        rest: "PUT /queues/:id",
        access: "admin",
        resource: "queues",
        params: {
          id: { type: "number", integer: true, positive: true, convert: true },
          name: { type: "string", min: 1, max: 100, trim: true, optional: true },
          active: { type: "boolean", optional: true, convert: true },
        },
        async handler(ctx: Ctx<{ id: number; name?: string; active?: boolean }>) {
          const q: Queue = await this.findOwned(ctx, ctx.params.id, "ERR_QUEUE_NOT_FOUND");
          const tenantId = q.get("tenantId") as number;
          const activating = ctx.params.active === true && !q.get("active");
          const patch: Partial<QueueRow> = {};
          if (ctx.params.name !== undefined) patch.name = ctx.params.name;
          if (ctx.params.active !== undefined) patch.active = ctx.params.active;
          await withActiveCap(ctx, tenantId, activating, (transaction) => q.update(patch, { transaction: transaction as never }));
          void emit(ctx, "queues.changed", { tenantId, queueId: q.get("id") as number });
          return view(q);
        },
      },
      remove: {
        rest: "DELETE /queues/:id",
        access: "admin",
        resource: "queues",
        params: { id: { type: "number", integer: true, positive: true, convert: true } },
        async handler(ctx: Ctx<{ id: number }>) {
          const q: Queue = await this.findOwned(ctx, ctx.params.id, "ERR_QUEUE_NOT_FOUND");
          const tenantId = q.get("tenantId") as number;
          if (serviceRunning(this.broker, "tickets")) {
            const n = await call(ctx, "tickets.countInQueue", { tenantId, queueId: q.get("id") as number });
            if (n > 0) throw new AppError("ERR_QUEUE_HAS_TICKETS", { count: n });
          }
          await q.destroy();
          // Memberships of a deleted queue would linger in users' queue lists (and make saving
          // those users fail with ERR_QUEUE_NOT_FOUND).
          await call(ctx, "users.detachQueue", { tenantId, queueId: ctx.params.id });
          void emit(ctx, "queues.changed", { tenantId, queueId: ctx.params.id });
          return { id: ctx.params.id, deleted: true };
        },
      },

      // --- internal ---------------------------------------------------------------------------
      /** Names of the tenant's queues among `ids` (the dashboard's figures). */
      names: {
        visibility: "public",
        params: { tenantId: "number", ids: { type: "array", items: "number", max: 1000 } },
        async handler(ctx: Ctx<{ tenantId: number; ids: number[] }>): Promise<QueueName[]> {
          if (!ctx.params.ids.length) return [];
          const rows = await model.findAll({ where: { tenantId: ctx.params.tenantId, id: { [Op.in]: ctx.params.ids } }, attributes: ["id", "name"] });
          return rows.map((r) => ({ id: r.get("id") as number, name: r.get("name") as string }));
        },
      },
      /** The tenant's queues, by name (the core API of plugins). */
      listInternal: {
        visibility: "public",
        params: { tenantId: "number" },
        async handler(ctx: Ctx<{ tenantId: number }>): Promise<QueueName[]> {
          const rows = await model.findAll({ where: { tenantId: ctx.params.tenantId }, order: [["name", "ASC"], ["id", "ASC"]], attributes: ["id", "name"] });
          return rows.map((r) => ({ id: r.get("id") as number, name: r.get("name") as string }));
        },
      },
      existing: {
        visibility: "public",
        params: { tenantId: "number", ids: { type: "array", items: "number" } },
        async handler(ctx: Ctx<{ tenantId: number; ids: number[] }>) {
          if (!ctx.params.ids.length) return [];
          const rows = await model.findAll({ where: { tenantId: ctx.params.tenantId, id: { [Op.in]: ctx.params.ids } }, attributes: ["id"] });
          return rows.map((r) => r.get("id"));
        },
      },
      createInternal: {
        visibility: "public",
        params: { tenantId: "number", name: "string", active: { type: "boolean", optional: true } },
        async handler(ctx: Ctx<{ tenantId: number; name: string; active?: boolean }>) {
          const q = await model.create({ tenantId: ctx.params.tenantId, name: ctx.params.name, active: ctx.params.active ?? true });
          return view(q);
        },
      },
    },
  });
}
