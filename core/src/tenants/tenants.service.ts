import { Op } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { tenantDbMixin, type TenantDbMethods } from "../db/tenant-db.mixin";
import { containsCI } from "../db/search";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import { Ctx, isSuper } from "../types";
import { isValidDocument, normaliseDocument } from "../licence/document";
import type { TenantRow } from "./contract";
import { broadcast, call, defineService } from "../bus/call";
import { Tenant, defineTenant } from "./model";

/** Now, to the second: MariaDB's DATETIME keeps no fraction, so the answer matches what a later read returns. */
const nowToSecond = () => new Date(Math.floor(Date.now() / 1000) * 1000);

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The public view of a tenant: the licence token stays inside. */
export function tenantView(t: Tenant) {
  const r = t.get({ plain: true });
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    document: r.document,
    resellerId: r.resellerId,
    maxUsers: r.maxUsers,
    maxConnections: r.maxConnections,
    timezone: r.timezone,
    termsAccepted: !!r.termsAccepted,
    termsAcceptedAt: r.termsAcceptedAt,
    hasLicense: !!r.licenseToken,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

const tenantFields = {
  name: { type: "string", min: 2, max: 120, trim: true },
  document: { type: "string", optional: true, nullable: true, max: 20 },
  maxUsers: { type: "number", integer: true, min: 1, optional: true, nullable: true, convert: true },
  maxConnections: { type: "number", integer: true, min: 0, optional: true, nullable: true, convert: true },
  timezone: { type: "string", optional: true, max: 64 },
  status: { type: "enum", values: ["active", "inactive"], optional: true },
};

/** A tenant's admin as the platform level creates it (users.createAdmin checks the password and the e-mail). */
const adminFields = {
  name: { type: "string", min: 2, max: 120, trim: true },
  email: { type: "email", max: 190 },
  password: { type: "string", min: 1, max: 128 },
};
interface AdminInput {
  name: string;
  email: string;
  password: string;
}
interface AdminView {
  id: number;
  tenantId: number;
  name: string;
  email: string;
  profile: "admin";
}

/**
 * Tenants: CRUD for the platform (super) level; a tenant's own admin reads its tenant and
 * answers the terms of use. Another tenant's id answers 404.
 */
export function createTenantsService(deps: CoreDeps): ServiceSchema {
  const model = defineTenant(deps.sequelize);

  async function loadVisible(ctx: Ctx, id: number): Promise<Tenant> {
    const u = ctx.meta.user!;
    if (!isSuper(u) && u.tenantId !== id) throw new AppError("ERR_TENANT_NOT_FOUND", { id });
    const t = await model.findOne({ where: { id, status: { [Op.ne]: "deleted" } } });
    if (!t) throw new AppError("ERR_TENANT_NOT_FOUND", { id });
    return t;
  }

  function checkFields(p: { document?: string | null; timezone?: string }) {
    if (p.document && !isValidDocument(p.document)) throw new AppError("ERR_VALIDATION", { field: "document", rule: "document" });
    if (p.timezone && !validTimeZone(p.timezone)) throw new AppError("ERR_VALIDATION", { field: "timezone", rule: "any" });
  }

  return defineService<TenantDbMethods<Tenant>>({
    name: "tenants",
    mixins: [tenantDbMixin(deps.sequelize, model)],
    settings: { rest: "/" },
    actions: {
      list: {
        rest: "GET /tenants",
        access: "super",
        params: {
          searchParam: { type: "string", optional: true, max: 120 },
          pageNumber: { type: "number", integer: true, min: 1, max: 1_000_000, optional: true, convert: true },
          pageSize: { type: "number", integer: true, min: 1, max: 200, optional: true, convert: true },
        },
        async handler(ctx: Ctx<{ searchParam?: string; pageNumber?: number; pageSize?: number }>) {
          const { searchParam, pageNumber = 1, pageSize = 50 } = ctx.params;
          const where: Record<string | symbol, unknown> = { status: { [Op.ne]: "deleted" } };
          const { rows, count } = await model.findAndCountAll({
            where: searchParam ? { [Op.and]: [where, containsCI("name", searchParam)] } : where,
            order: [["name", "ASC"]],
            limit: pageSize,
            offset: (pageNumber - 1) * pageSize,
          });
          return { tenants: rows.map(tenantView), count, hasMore: pageNumber * pageSize < count };
        },
      },
      get: {
        rest: "GET /tenants/:id",
        access: "user",
        resource: "tenants",
        params: { id: { type: "number", integer: true, positive: true, convert: true } },
        async handler(ctx: Ctx<{ id: number }>) {
          return tenantView(await loadVisible(ctx, ctx.params.id));
        },
      },
      create: {
        rest: "POST /tenants",
        access: "super",
        // With its first admin, so the new tenant can be used at once (without one nobody could log in to it).
        params: { ...tenantFields, admin: { type: "object", optional: true, props: adminFields } },
        async handler(ctx: Ctx<Partial<TenantRow> & { admin?: AdminInput }>) {
          checkFields(ctx.params);
          const t = await model.create({
            name: ctx.params.name!,
            document: ctx.params.document ? normaliseDocument(ctx.params.document) : null,
            maxUsers: ctx.params.maxUsers ?? null,
            maxConnections: ctx.params.maxConnections ?? null,
            timezone: ctx.params.timezone ?? "America/Sao_Paulo",
            status: ctx.params.status ?? "active",
            resellerId: ctx.meta.user!.tenantId,
          });
          let admin: AdminView | undefined;
          if (ctx.params.admin) {
            try {
              admin = await call(ctx, "users.createAdmin", { tenantId: t.get("id") as number, ...ctx.params.admin });
            } catch (err) {
              // A refused admin (weak password, e-mail taken) leaves no tenant behind: it has nothing else yet.
              await t.destroy();
              throw err;
            }
          }
          ctx.meta.$statusCode = 201;
          return admin ? { ...tenantView(t), admin } : tenantView(t);
        },
      },
      /** The platform level adds an admin to a tenant (a new tenant's first, or one more). */
      addAdmin: {
        rest: "POST /tenants/:id/admins",
        access: "super",
        resource: "tenants",
        params: { id: { type: "number", integer: true, positive: true, convert: true }, ...adminFields },
        async handler(ctx: Ctx<AdminInput & { id: number }>) {
          const t = await loadVisible(ctx, ctx.params.id);
          const { id: _id, ...admin } = ctx.params;
          const created = await call(ctx, "users.createAdmin", { tenantId: t.get("id") as number, ...admin });
          ctx.meta.$statusCode = 201;
          return created;
        },
      },
      update: {
        rest: "PUT /tenants/:id",
        access: "super",
        resource: "tenants",
        params: {
          id: { type: "number", integer: true, positive: true, convert: true },
          ...Object.fromEntries(Object.entries(tenantFields).map(([k, v]) => [k, { ...v, optional: true }])),
        },
        async handler(ctx: Ctx<Partial<TenantRow> & { id: number }>) {
          const t = await loadVisible(ctx, ctx.params.id);
          checkFields(ctx.params);
          const patch: Partial<TenantRow> = {};
          for (const k of ["name", "maxUsers", "maxConnections", "timezone", "status"] as const) {
            if (ctx.params[k] !== undefined) (patch as Record<string, unknown>)[k] = ctx.params[k];
          }
          if (ctx.params.document !== undefined) patch.document = ctx.params.document ? normaliseDocument(ctx.params.document) : null;
          if (patch.status === "inactive" && t.get("id") === ctx.meta.user!.tenantId) {
            throw new AppError("ERR_NO_PERMISSION", { reason: "own-tenant" });
          }
          await t.update(patch);
          if (patch.status === "inactive") await call(ctx, "auth.revokeTenantSessions", { tenantId: t.get("id") as number, reason: "tenant_inactive" });
          void broadcast(ctx, "tenants.changed", { tenantId: t.get("id") as number });
          return tenantView(t);
        },
      },
      remove: {
        rest: "DELETE /tenants/:id",
        access: "super",
        resource: "tenants",
        params: { id: { type: "number", integer: true, positive: true, convert: true } },
        async handler(ctx: Ctx<{ id: number }>) {
          const t = await loadVisible(ctx, ctx.params.id);
          if (t.get("id") === ctx.meta.user!.tenantId) throw new AppError("ERR_NO_PERMISSION", { reason: "own-tenant" });
          // Tenant data is kept for audit and recovery; the tenant disappears and its sessions end.
          await t.update({ status: "deleted" });
          await call(ctx, "auth.revokeTenantSessions", { tenantId: t.get("id") as number, reason: "tenant_inactive" });
          void broadcast(ctx, "tenants.changed", { tenantId: t.get("id") as number });
          return { id: t.get("id"), deleted: true };
        },
      },
      termsAcceptance: {
        rest: "PUT /tenants/:id/terms-acceptance",
        access: "admin",
        resource: "tenants",
        params: {
          id: { type: "number", integer: true, positive: true, convert: true },
          accepted: { type: "boolean", convert: true },
        },
        async handler(ctx: Ctx<{ id: number; accepted: boolean }>) {
          const u = ctx.meta.user!;
          // Terms are answered by the tenant's own admins, even at the super level.
          if (u.tenantId !== ctx.params.id) throw new AppError("ERR_TENANT_NOT_FOUND", { id: ctx.params.id });
          const t = await loadVisible(ctx, ctx.params.id);
          await t.update(
            ctx.params.accepted ? { termsAccepted: true, termsAcceptedAt: nowToSecond() } : { termsAccepted: false, termsAcceptedAt: null },
          );
          // Spec §4: rejecting the terms deactivates the account of the admin who rejected them.
          if (!ctx.params.accepted) await call(ctx, "users.deactivate", { id: u.id, tenantId: u.tenantId });
          return tenantView(t);
        },
      },

      // --- internal actions (no REST) -----------------------------------------------------
      getInternal: {
        visibility: "public",
        params: { id: { type: "number", integer: true, positive: true, convert: true } },
        async handler(ctx: Ctx<{ id: number }>) {
          const t = await model.findByPk(ctx.params.id);
          return t ? t.get({ plain: true }) : null;
        },
      },
      setLicenseToken: {
        visibility: "public",
        params: { id: "number", token: { type: "string", nullable: true } },
        async handler(ctx: Ctx<{ id: number; token: string | null }>) {
          const [n] = await model.update({ licenseToken: ctx.params.token }, { where: { id: ctx.params.id } });
          if (!n) throw new AppError("ERR_TENANT_NOT_FOUND", { id: ctx.params.id });
          return true;
        },
      },
      createInternal: {
        visibility: "public",
        params: { name: "string", document: { type: "string", optional: true }, timezone: { type: "string", optional: true } },
        async handler(ctx: Ctx<{ name: string; document?: string; timezone?: string }>) {
          const t = await model.create({
            name: ctx.params.name,
            document: ctx.params.document ? normaliseDocument(ctx.params.document) : null,
            timezone: ctx.params.timezone ?? "America/Sao_Paulo",
          });
          return t.get({ plain: true });
        },
      },
      count: {
        visibility: "public",
        async handler() {
          return model.count();
        },
      },
    },
  });
}
