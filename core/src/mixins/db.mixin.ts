import DbService from "moleculer-db";
import SequelizeAdapter from "moleculer-db-adapter-sequelize";
import type { Model, ModelStatic, Sequelize, WhereOptions } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/codes";
import type { Ctx } from "../types";

/**
 * The process shares one Sequelize instance; the adapter must not close it when one
 * service stops (the broker closes it once, on stop).
 */
class SharedSequelizeAdapter extends (SequelizeAdapter as unknown as new (...a: unknown[]) => { disconnect(): Promise<void> }) {
  override disconnect(): Promise<void> {
    return Promise.resolve();
  }
}

export interface TenantDbMethods<M extends Model> {
  model: ModelStatic<M>;
  tenantOf(ctx: Ctx): number;
  findOwned(ctx: Ctx, id: number | string, notFound: ErrorCode, extraWhere?: WhereOptions): Promise<M>;
}

/**
 * Tenant-scoped persistence for a service that owns one main table (moleculer-db with the
 * Sequelize adapter). moleculer-db's generic CRUD actions are switched off: they know
 * nothing of tenants. Services expose their own actions and read rows only through
 * `findOwned` / `where: { tenantId: this.tenantOf(ctx) }`, so another tenant's id answers
 * 404 by construction.
 */
export function tenantDbMixin<M extends Model>(sequelize: Sequelize, model: ModelStatic<M>): Partial<ServiceSchema> {
  return {
    mixins: [DbService as unknown as Partial<ServiceSchema>],
    adapter: new SharedSequelizeAdapter(sequelize),
    model,
    settings: { idField: "id" },
    actions: {
      list: false,
      find: false,
      count: false,
      create: false,
      insert: false,
      get: false,
      update: false,
      remove: false,
    },
    methods: {
      tenantOf(ctx: Ctx): number {
        const tenantId = ctx.meta.user?.tenantId;
        if (!tenantId) throw new AppError("ERR_SESSION_REQUIRED");
        return tenantId;
      },
      async findOwned(this: TenantDbMethods<M>, ctx: Ctx, id: number | string, notFound: ErrorCode, extraWhere: WhereOptions = {}) {
        const row = await this.model.findOne({ where: { ...(extraWhere as object), id, tenantId: this.tenantOf(ctx) } as WhereOptions });
        if (!row) throw new AppError(notFound, { id });
        return row;
      },
    },
  } as unknown as Partial<ServiceSchema>;
}
