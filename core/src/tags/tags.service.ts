import { Op, UniqueConstraintError } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { tenantDbMixin, type TenantDbMethods } from "../db/tenant-db.mixin";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { containsCI } from "../db/search";
import type { TagView } from "./contract";
import { call, defineService, emit } from "../bus/call";
import { Tag, TagRow, defineTag } from "./model";

/** Colour of a tag created without one (and of tags an import creates). */
export const DEFAULT_TAG_COLOR = "#5c6bc0";

const view = (t: Tag): TagView => {
  const r = t.get({ plain: true });
  return { id: r.id, name: r.name, color: r.color, active: !!r.active, createdAt: r.createdAt, updatedAt: r.updatedAt };
};

const idParam = { id: { type: "number", integer: true, positive: true, convert: true } };
const colorRule = { type: "string", pattern: /^#[0-9a-fA-F]{6}$/, trim: true };
const nameRule = { type: "string", min: 1, max: 100, trim: true };

/** Names compare as MariaDB's utf8mb4_unicode_ci does (case and accents ignored), on SQLite too. */
const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: "base" }) === 0;

/**
 * Tags (etiquetas) of a tenant: name unique per tenant (case-insensitively, as MariaDB's
 * collation compares), a #rrggbb colour and an active flag. Links to contacts live in the
 * contacts service (contact_tags); deleting a linked tag needs `force`.
 */
export function createTagsService(deps: CoreDeps): ServiceSchema {
  const model = defineTag(deps.sequelize);

  /** The same name in the tenant, whatever the case and accents (a tenant has tens of tags, not thousands). */
  async function nameTaken(tenantId: number, name: string, exceptId?: number): Promise<boolean> {
    const rows = await model.findAll({ where: { tenantId }, attributes: ["id", "name"] });
    return rows.some((r) => r.get("id") !== exceptId && sameName(r.get("name") as string, name));
  }

  function uniqueError(err: unknown) {
    return err instanceof UniqueConstraintError ? new AppError("ERR_TAG_EXISTS", { field: "name" }) : err;
  }

  return defineService<TenantDbMethods<Tag>>({
    name: "tags",
    mixins: [tenantDbMixin(deps.sequelize, model)],
    settings: { rest: "/" },
    actions: {
      list: {
        rest: "GET /tags",
        access: "user",
        params: {
          active: { type: "boolean", optional: true, convert: true },
          searchParam: { type: "string", optional: true, max: 100 },
        },
        async handler(ctx: Ctx<{ active?: boolean; searchParam?: string }>) {
          const where: Record<string | symbol, unknown> = { tenantId: this.tenantOf(ctx) };
          if (ctx.params.active !== undefined) where.active = ctx.params.active;
          const q = ctx.params.searchParam?.trim();
          if (q) where[Op.and] = [containsCI("name", q)];
          const rows = await model.findAll({ where, order: [["name", "ASC"], ["id", "ASC"]], limit: 5000 });
          return rows.map(view);
        },
      },
      get: {
        rest: "GET /tags/:id",
        access: "user",
        resource: "tags",
        params: idParam,
        async handler(ctx: Ctx<{ id: number }>) {
          return view(await this.findOwned(ctx, ctx.params.id, "ERR_TAG_NOT_FOUND"));
        },
      },
      create: {
        rest: "POST /tags",
        access: "admin",
        params: { name: nameRule, color: { ...colorRule, optional: true }, active: { type: "boolean", optional: true, convert: true } },
        async handler(ctx: Ctx<{ name: string; color?: string; active?: boolean }>) {
          const tenantId = this.tenantOf(ctx);
          const { name } = ctx.params;
          if (await nameTaken(tenantId, name)) throw new AppError("ERR_TAG_EXISTS", { field: "name" });
          let t: Tag;
          try {
            t = await model.create({ tenantId, name, color: (ctx.params.color ?? DEFAULT_TAG_COLOR).toLowerCase(), active: ctx.params.active ?? true });
          } catch (err) {
            throw uniqueError(err);
          }
          ctx.meta.$statusCode = 201;
          void emit(ctx, "tags.changed", { tenantId, tagId: t.get("id") as number });
          return view(t);
        },
      },
      update: {
        rest: "PUT /tags/:id",
        access: "admin",
        resource: "tags",
        params: {
          ...idParam,
          name: { ...nameRule, optional: true },
          color: { ...colorRule, optional: true },
          active: { type: "boolean", optional: true, convert: true },
        },
        async handler(ctx: Ctx<{ id: number; name?: string; color?: string; active?: boolean }>) {
          const t: Tag = await this.findOwned(ctx, ctx.params.id, "ERR_TAG_NOT_FOUND");
          const tenantId = t.get("tenantId") as number;
          const patch: Partial<TagRow> = {};
          if (ctx.params.name !== undefined && ctx.params.name !== t.get("name")) {
            if (await nameTaken(tenantId, ctx.params.name, ctx.params.id)) throw new AppError("ERR_TAG_EXISTS", { field: "name" });
            patch.name = ctx.params.name;
          }
          if (ctx.params.color !== undefined) patch.color = ctx.params.color.toLowerCase();
          if (ctx.params.active !== undefined) patch.active = ctx.params.active;
          try {
            await t.update(patch);
          } catch (err) {
            throw uniqueError(err);
          }
          void emit(ctx, "tags.changed", { tenantId, tagId: ctx.params.id });
          return view(t);
        },
      },
      remove: {
        rest: "DELETE /tags/:id",
        access: "admin",
        resource: "tags",
        params: { ...idParam, force: { type: "boolean", optional: true, convert: true } },
        async handler(ctx: Ctx<{ id: number; force?: boolean }>) {
          const t: Tag = await this.findOwned(ctx, ctx.params.id, "ERR_TAG_NOT_FOUND");
          const tenantId = t.get("tenantId") as number;
          const linked = await call(ctx, "contacts.countByTag", { tenantId, tagId: ctx.params.id });
          if (linked > 0 && !ctx.params.force) throw new AppError("ERR_TAG_HAS_CONTACTS", { count: linked });
          if (linked > 0) await call(ctx, "contacts.detachTag", { tenantId, tagId: ctx.params.id });
          await t.destroy();
          void emit(ctx, "tags.changed", { tenantId, tagId: ctx.params.id });
          return { id: ctx.params.id, deleted: true, detached: linked };
        },
      },

      // --- internal ---------------------------------------------------------------------------
      /** The tenant's tags, by name (the core API of plugins). */
      listInternal: {
        visibility: "public",
        params: { tenantId: "number" },
        async handler(ctx: Ctx<{ tenantId: number }>): Promise<TagView[]> {
          return (await model.findAll({ where: { tenantId: ctx.params.tenantId }, order: [["name", "ASC"], ["id", "ASC"]] })).map(view);
        },
      },
      /** The tenant's tags among `ids`, in no particular order (missing ids are left out). */
      byIds: {
        visibility: "public",
        params: { tenantId: "number", ids: { type: "array", items: "number" } },
        async handler(ctx: Ctx<{ tenantId: number; ids: number[] }>): Promise<TagView[]> {
          if (!ctx.params.ids.length) return [];
          const rows = await model.findAll({ where: { tenantId: ctx.params.tenantId, id: { [Op.in]: [...new Set(ctx.params.ids)] } } });
          return rows.map(view);
        },
      },
      /**
       * Ids of the tags named `names` (case-insensitively), creating the missing ones with the
       * default colour; race-safe (a concurrent creation of the same name is read back).
       * Answers `{ [name as given]: id }`.
       */
      ensureByNames: {
        visibility: "public",
        params: { tenantId: "number", names: { type: "array", items: { type: "string", min: 1, max: 100 }, max: 1000 } },
        async handler(ctx: Ctx<{ tenantId: number; names: string[] }>): Promise<Record<string, number>> {
          const { tenantId } = ctx.params;
          const names = [...new Set(ctx.params.names.map((n) => n.trim()).filter(Boolean))];
          const out: Record<string, number> = {};
          if (!names.length) return out;
          const all = await model.findAll({ where: { tenantId }, attributes: ["id", "name"] });
          const find = (n: string, rows: Tag[]) => rows.find((r) => sameName(r.get("name") as string, n));
          for (const n of names) {
            let hit = find(n, all);
            if (!hit) {
              try {
                hit = await model.create({ tenantId, name: n, color: DEFAULT_TAG_COLOR, active: true });
                all.push(hit);
                void emit(ctx, "tags.changed", { tenantId, tagId: hit.get("id") as number });
              } catch (err) {
                if (!(err instanceof UniqueConstraintError)) throw err;
                hit = find(n, await model.findAll({ where: { tenantId }, attributes: ["id", "name"] }));
                if (!hit) throw err;
              }
            }
            out[n] = hit.get("id") as number;
          }
          return out;
        },
      },
    },
  });
}
