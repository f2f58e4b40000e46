import DbService from "moleculer-db";
import SequelizeAdapter from "moleculer-db-adapter-sequelize";
import type { Model, ModelStatic, Sequelize, WhereOptions } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/codes";
import type { Ctx } from "../types";

type AdapterBase = new (...a: unknown[]) => { connect(): Promise<void>; disconnect(): Promise<void>; db?: unknown; model?: unknown; service?: { model?: unknown } };

/**
 * An adapter over the process's one Sequelize instance. Moleculer deep-clones mixin schemas
 * when it merges them, so an adapter holding the instance in a field would end up with a
 * copy (and a second connection pool nobody closes); this one reaches the instance and the
 * model through a closure, which a clone keeps. It never closes the shared instance: the
 * broker does, once, on stop.
 */
function sharedAdapter(sequelize: Sequelize, model: ModelStatic<Model>) {
  class SharedSequelizeAdapter extends (SequelizeAdapter as unknown as AdapterBase) {
    override connect(): Promise<void> {
      this.db = sequelize;
      this.model = model;
      if (this.service) this.service.model = model;
      return Promise.resolve();
    }
    override disconnect(): Promise<void> {
      return Promise.resolve();
    }
  }
  return new SharedSequelizeAdapter();
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
    adapter: sharedAdapter(sequelize, model as unknown as ModelStatic<Model>),
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
