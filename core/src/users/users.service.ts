import { Op, UniqueConstraintError, WhereOptions } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { tenantDbMixin } from "../db/tenant-db.mixin";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import { Ctx, Profile, isAdmin, isSuper } from "../types";
import { defineUserModels, User, UserRow, UserConfigs } from "./model";
import { normalisePhone, type UserName } from "./contract";
import { hashPassword, isStrongPassword } from "../auth/password";
import { validLoginHours, LoginHours } from "../auth/login-hours";
import { containsCI } from "../db/search";
import { lockTenantRow } from "../db/row-locks";
import { PlanLimits, assertWithinLimit } from "../licence/plans";

/** Now, to the second: MariaDB's DATETIME keeps no fraction, so the answer matches what a later read returns. */
const nowToSecond = () => new Date(Math.floor(Date.now() / 1000) * 1000);

function validPhone(p: string | null): boolean {
  return p === null || /^\d{10,15}$/.test(p);
}

interface UserInput {
  name?: string;
  email?: string;
  password?: string;
  profile?: Profile;
  phoneNumber?: string | null;
  queues?: number[];
  active?: boolean;
  isHidden?: boolean;
  isSupport?: boolean;
  image?: string | null;
  limitLoginHours?: boolean;
  loginHours?: LoginHours;
}

const writableFields = {
  name: { type: "string", min: 2, max: 120, trim: true },
  email: { type: "email", normalize: true, max: 190 },
  // The password rule (spec §5, isStrongPassword) decides, so every breach answers ERR_PASSWORD_WEAK.
  password: { type: "string", max: 200 },
  profile: { type: "enum", values: ["user", "supervisor", "admin", "super"] },
  phoneNumber: { type: "string", max: 30, optional: true, nullable: true },
  queues: { type: "array", items: { type: "number", integer: true, positive: true }, max: 200, optional: true },
  active: { type: "boolean", optional: true, convert: true },
  isHidden: { type: "boolean", optional: true, convert: true },
  /** Support accounts have admin status (spec §6); only the platform level marks them. */
  isSupport: { type: "boolean", optional: true, convert: true },
  image: { type: "string", max: 500, optional: true, nullable: true },
  limitLoginHours: { type: "boolean", optional: true, convert: true },
  loginHours: { type: "object", optional: true },
};

const optional = <T extends Record<string, object>>(o: T) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, { ...v, optional: true }])) as T;

const idParam = { id: { type: "number", integer: true, positive: true, convert: true } };

/**
 * Users of a tenant and their queue memberships. Profiles: user, supervisor, admin (and
 * super at the platform level). Phone and e-mail are unique platform-wide (they are login
 * identifiers); deleted users stay as tombstones so a login answers "deleted".
 */
export function createUsersService(deps: CoreDeps): ServiceSchema {
  const { User: UserModel, UserQueue } = defineUserModels(deps.sequelize);
  const live = { deletedAt: null };

  async function queuesOf(userIds: number[]): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>();
    if (!userIds.length) return map;
    const rows = await UserQueue.findAll({ where: { userId: { [Op.in]: userIds } }, order: [["queueId", "ASC"]] });
    for (const r of rows) {
      const uid = r.get("userId") as number;
      if (!map.has(uid)) map.set(uid, []);
      map.get(uid)!.push(r.get("queueId") as number);
    }
    return map;
  }

  function view(u: User, queues: number[], full: boolean) {
    const r = u.get({ plain: true }) as UserRow;
    const base = {
      id: r.id,
      tenantId: r.tenantId,
      name: r.name,
      email: r.email,
      profile: r.profile,
      status: r.status,
      active: !!r.active,
      image: r.image,
      queues,
      isHidden: !!r.isHidden,
    };
    if (!full) return base;
    return {
      ...base,
      phoneNumber: r.phoneNumber,
      isMaster: !!r.isMaster,
      isSupport: !!r.isSupport,
      configs: r.configs,
      limitLoginHours: !!r.limitLoginHours,
      loginHours: r.loginHours,
      lgpdAccepted: r.lgpdAccepted,
      lgpdAcceptedAt: r.lgpdAcceptedAt,
      lastLoginAt: r.lastLoginAt,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }

  return {
    name: "users",
    mixins: [tenantDbMixin(deps.sequelize, UserModel)],
    settings: { rest: "/" },
    actions: {
      list: {
        rest: "GET /users",
        access: "user",
        params: {
          searchParam: { type: "string", optional: true, max: 120 },
          pageNumber: { type: "number", integer: true, min: 1, max: 1_000_000, optional: true, convert: true },
          pageSize: { type: "number", integer: true, min: 1, max: 200, optional: true, convert: true },
          profile: { type: "enum", values: ["user", "supervisor", "admin", "super"], optional: true },
        },
        async handler(this: any, ctx: Ctx<{ searchParam?: string; pageNumber?: number; pageSize?: number; profile?: Profile }>) {
          const tenantId = this.tenantOf(ctx);
          const { searchParam, pageNumber = 1, pageSize = 50, profile } = ctx.params;
          const and: WhereOptions[] = [{ tenantId, ...live }];
          if (profile) and.push({ profile });
          if (!isAdmin(ctx.meta.user)) and.push({ isHidden: false });
          if (searchParam) and.push({ [Op.or]: [containsCI("name", searchParam), containsCI("email", searchParam)] });
          const { rows, count } = await UserModel.findAndCountAll({
            where: { [Op.and]: and },
            order: [["name", "ASC"], ["id", "ASC"]],
            limit: pageSize,
            offset: (pageNumber - 1) * pageSize,
          });
          const qs = await queuesOf(rows.map((r) => r.get("id") as number));
          const full = isAdmin(ctx.meta.user);
          return { users: rows.map((r) => view(r, qs.get(r.get("id") as number) ?? [], full)), count, hasMore: pageNumber * pageSize < count };
        },
      },

      get: {
        rest: "GET /users/:id",
        access: "user",
        resource: "users",
        params: idParam,
        async handler(this: any, ctx: Ctx<{ id: number }>) {
          const me = ctx.meta.user!;
          if (!isAdmin(me) && me.id !== ctx.params.id) throw new AppError("ERR_NO_PERMISSION");
          const u: User = await this.findOwned(ctx, ctx.params.id, "ERR_USER_NOT_FOUND", live);
          const qs = await queuesOf([ctx.params.id]);
          return view(u, qs.get(ctx.params.id) ?? [], true);
        },
      },

      create: {
        rest: "POST /users",
        access: "admin",
        params: { ...writableFields, profile: { ...writableFields.profile, optional: true } },
        async handler(this: any, ctx: Ctx<UserInput>) {
          const me = ctx.meta.user!;
          const tenantId = this.tenantOf(ctx);
          const p = ctx.params;
          const profile: Profile = p.profile ?? "user";
          if (profile === "super" && !isSuper(me)) throw new AppError("ERR_ADMIN_CREATION_DISABLED");
          if (p.isSupport && !isSuper(me)) throw new AppError("ERR_NO_PERMISSION", { field: "isSupport" });
          if (!isStrongPassword(p.password)) throw new AppError("ERR_PASSWORD_WEAK", { field: "password" });
          const phone = normalisePhone(p.phoneNumber);
          if (!validPhone(phone)) throw new AppError("ERR_VALIDATION", { field: "phoneNumber", rule: "phone" });
          if (p.loginHours !== undefined && !validLoginHours(p.loginHours)) {
            throw new AppError("ERR_VALIDATION", { field: "loginHours", rule: "any" });
          }
          const queues = [...new Set(p.queues ?? [])];
          await this.checkQueues(ctx, tenantId, queues);
          const passwordHash = await hashPassword(p.password!, deps.config.bcryptRounds);

          // Plan limits and the insert run under one tenant-row lock, so two admins racing
          // for the last seat cannot both get it.
          const limits = (await ctx.call("licence.limits", { tenantId })) as PlanLimits;
          const created = await deps.sequelize.transaction(async (transaction) => {
            await lockTenantRow(deps.sequelize, tenantId, transaction);
            const current = await UserModel.count({ where: { tenantId, ...live, isSupport: false }, transaction });
            assertWithinLimit(limits, "users", current);
            try {
              const u = await UserModel.create(
                {
                  tenantId,
                  name: p.name!,
                  email: p.email!.toLowerCase(),
                  phoneNumber: phone,
                  passwordHash,
                  profile,
                  active: p.active ?? true,
                  isHidden: p.isHidden ?? false,
                  isSupport: p.isSupport ?? false,
                  image: p.image ?? null,
                  limitLoginHours: p.limitLoginHours ?? false,
                  loginHours: p.loginHours ?? {},
                  configs: {},
                },
                { transaction },
              );
              if (queues.length) {
                await UserQueue.bulkCreate(
                  queues.map((queueId) => ({ tenantId, userId: u.get("id") as number, queueId })),
                  { transaction },
                );
              }
              return u;
            } catch (err) {
              throw this.uniqueError(err);
            }
          });
          ctx.meta.$statusCode = 201;
          const id = created.get("id") as number;
          ctx.emit("users.created", { tenantId, userId: id });
          return view(created, queues.sort((a, b) => a - b), true);
        },
      },

      update: {
        rest: "PUT /users/:id",
        access: "user",
        resource: "users",
        params: { ...idParam, ...optional(writableFields) },
        async handler(this: any, ctx: Ctx<UserInput & { id: number }>) {
          const me = ctx.meta.user!;
          const self = me.id === ctx.params.id;
          if (!isAdmin(me) && !self) throw new AppError("ERR_NO_PERMISSION");
          const u: User = await this.findOwned(ctx, ctx.params.id, "ERR_USER_NOT_FOUND", live);
          const row = u.get({ plain: true }) as UserRow;
          const p = ctx.params;
          const patch: Partial<UserRow> = {};
          // Without admin status a user changes only their own name, e-mail, phone, password and picture.
          const adminOnly = ["profile", "queues", "active", "isHidden", "isSupport", "limitLoginHours", "loginHours"] as const;
          if (!isAdmin(me)) {
            for (const k of adminOnly) if (p[k] !== undefined) throw new AppError("ERR_NO_PERMISSION", { field: k });
          }
          if (p.profile !== undefined && p.profile !== row.profile) {
            if ((p.profile === "super" || row.profile === "super") && !isSuper(me)) throw new AppError("ERR_ADMIN_CREATION_DISABLED");
            if (self) throw new AppError("ERR_NO_PERMISSION", { field: "profile" });
            patch.profile = p.profile;
          }
          if (p.active === false && row.active) {
            if (isAdmin({ profile: patch.profile ?? row.profile, isSupport: row.isSupport })) {
              throw new AppError("ERR_CANNOT_DEACTIVATE_ADMIN");
            }
            patch.active = false;
          } else if (p.active === true) patch.active = true;
          if (p.name !== undefined) patch.name = p.name;
          if (p.email !== undefined) patch.email = p.email.toLowerCase();
          if (p.image !== undefined) patch.image = p.image;
          if (p.isHidden !== undefined) patch.isHidden = p.isHidden;
          if (p.isSupport !== undefined && p.isSupport !== row.isSupport) {
            if (!isSuper(me)) throw new AppError("ERR_NO_PERMISSION", { field: "isSupport" });
            patch.isSupport = p.isSupport;
          }
          if (p.limitLoginHours !== undefined) patch.limitLoginHours = p.limitLoginHours;
          if (p.loginHours !== undefined) {
            if (!validLoginHours(p.loginHours)) throw new AppError("ERR_VALIDATION", { field: "loginHours", rule: "any" });
            patch.loginHours = p.loginHours;
          }
          if (p.phoneNumber !== undefined) {
            const phone = normalisePhone(p.phoneNumber);
            if (!validPhone(phone)) throw new AppError("ERR_VALIDATION", { field: "phoneNumber", rule: "phone" });
            patch.phoneNumber = phone;
          }
          if (p.password !== undefined) {
            if (!isStrongPassword(p.password)) throw new AppError("ERR_PASSWORD_WEAK", { field: "password" });
            patch.passwordHash = await hashPassword(p.password, deps.config.bcryptRounds);
          }
          const tenantId = row.tenantId;
          const queues = p.queues ? [...new Set(p.queues)] : undefined;
          if (queues) await this.checkQueues(ctx, tenantId, queues);
          await deps.sequelize.transaction(async (transaction) => {
            try {
              await u.update(patch, { transaction });
            } catch (err) {
              throw this.uniqueError(err);
            }
            if (queues) {
              await UserQueue.destroy({ where: { userId: row.id }, transaction });
              if (queues.length) await UserQueue.bulkCreate(queues.map((queueId) => ({ tenantId, userId: row.id, queueId })), { transaction });
            }
          });
          // A changed profile, password or a deactivation ends the user's other sessions.
          if (patch.profile || patch.isSupport !== undefined || patch.active === false || (patch.passwordHash && !self)) {
            await ctx.call("auth.revokeUserSessions", { userId: row.id, reason: patch.active === false ? "user_inactive" : "credentials_changed" });
          } else if (patch.passwordHash && self) {
            await ctx.call("auth.revokeUserSessions", { userId: row.id, reason: "credentials_changed", exceptSessionId: me.sessionId });
          }
          ctx.emit("users.updated", { tenantId, userId: row.id });
          const qs = await queuesOf([row.id]);
          return view(u, qs.get(row.id) ?? [], true);
        },
      },

      updateConfigs: {
        rest: "PUT /users/:id/configs",
        access: "user",
        resource: "users",
        params: {
          ...idParam,
          filtrosAtendimento: { type: "object", optional: true },
          isDark: { type: "boolean", optional: true, convert: true },
          language: { type: "enum", values: ["pt-BR", "en", "es", "ru"], optional: true },
          $$strict: "remove",
        },
        async handler(this: any, ctx: Ctx<UserConfigs & { id: number }>) {
          const me = ctx.meta.user!;
          if (!isAdmin(me) && me.id !== ctx.params.id) throw new AppError("ERR_NO_PERMISSION");
          const u: User = await this.findOwned(ctx, ctx.params.id, "ERR_USER_NOT_FOUND", live);
          const { id: _id, ...incoming } = ctx.params;
          const configs = { ...(u.get("configs") as UserConfigs), ...incoming };
          if (JSON.stringify(configs).length > 20000) throw new AppError("ERR_CONFIG_UPDATE", { field: "configs" });
          await u.update({ configs });
          return { id: ctx.params.id, configs };
        },
      },

      lgpdConsent: {
        rest: "PUT /users/:id/lgpd-consent",
        access: "user",
        resource: "users",
        params: { ...idParam, accepted: { type: "boolean", convert: true } },
        async handler(this: any, ctx: Ctx<{ id: number; accepted: boolean }>) {
          const me = ctx.meta.user!;
          // Consent is personal: nobody answers it for someone else.
          if (me.id !== ctx.params.id) {
            await this.findOwned(ctx, ctx.params.id, "ERR_USER_NOT_FOUND", live);
            throw new AppError("ERR_NO_PERMISSION");
          }
          const u: User = await this.findOwned(ctx, ctx.params.id, "ERR_USER_NOT_FOUND", live);
          await u.update({ lgpdAccepted: ctx.params.accepted, lgpdAcceptedAt: nowToSecond() });
          // Spec §4: refusing the consent deactivates the account (an admin can activate it again).
          if (!ctx.params.accepted) await ctx.call("users.deactivate", { id: me.id, tenantId: me.tenantId });
          return { id: me.id, lgpdAccepted: ctx.params.accepted, lgpdAcceptedAt: u.get("lgpdAcceptedAt") };
        },
      },

      remove: {
        rest: "DELETE /users/:id",
        access: "admin",
        resource: "users",
        params: { ...idParam, newUserId: { type: "number", integer: true, positive: true, convert: true, optional: true } },
        async handler(this: any, ctx: Ctx<{ id: number; newUserId?: number }>) {
          const me = ctx.meta.user!;
          const u: User = await this.findOwned(ctx, ctx.params.id, "ERR_USER_NOT_FOUND", live);
          if (me.id === ctx.params.id) throw new AppError("ERR_CANNOT_DELETE_SELF");
          if ((u.get("profile") === "super" || u.get("isMaster")) && !isSuper(me)) throw new AppError("ERR_NO_PERMISSION");
          if (!ctx.params.newUserId) throw new AppError("ERR_NEW_USER_REQUIRED", { field: "newUserId" });
          if (ctx.params.newUserId === ctx.params.id) throw new AppError("ERR_VALIDATION", { field: "newUserId", rule: "any" });
          const heir: User = await this.findOwned(ctx, ctx.params.newUserId, "ERR_USER_NOT_FOUND", live);
          // Not ERR_USER_INACTIVE: that is a 401 session code, and would log the admin out.
          if (!heir.get("active")) throw new AppError("ERR_VALIDATION", { field: "newUserId", rule: "any", reason: "inactive" });
          const tenantId = u.get("tenantId") as number;
          // Hand the tickets over first (when the tickets service runs), then tombstone.
          if (this.broker.registry.hasService("tickets")) {
            await ctx.call("tickets.transferFromUser", { tenantId, fromUserId: ctx.params.id, toUserId: ctx.params.newUserId });
          }
          await deps.sequelize.transaction(async (transaction) => {
            await UserQueue.destroy({ where: { userId: ctx.params.id }, transaction });
            await u.update({ deletedAt: new Date(), active: false, status: "offline" }, { transaction });
          });
          await ctx.call("auth.revokeUserSessions", { userId: ctx.params.id, reason: "user_deleted" });
          ctx.emit("users.deleted", { tenantId, userId: ctx.params.id, newUserId: ctx.params.newUserId });
          return { id: ctx.params.id, deleted: true, newUserId: ctx.params.newUserId };
        },
      },

      byTenants: {
        rest: "GET /users/tenants",
        access: "super",
        params: { tenantId: { type: "number", integer: true, positive: true, convert: true, optional: true } },
        async handler(ctx: Ctx<{ tenantId?: number }>) {
          const where: WhereOptions = ctx.params.tenantId ? { tenantId: ctx.params.tenantId, ...live } : { ...live };
          const rows = await UserModel.findAll({ where, order: [["tenantId", "ASC"], ["name", "ASC"]], limit: 5000 });
          const qs = await queuesOf(rows.map((r) => r.get("id") as number));
          const byTenant: Record<string, unknown[]> = {};
          for (const r of rows) {
            const t = String(r.get("tenantId"));
            (byTenant[t] ??= []).push(view(r, qs.get(r.get("id") as number) ?? [], true));
          }
          return { tenants: Object.entries(byTenant).map(([tenantId, users]) => ({ tenantId: Number(tenantId), users })) };
        },
      },

      // --- internal actions (no REST) -------------------------------------------------------
      findForLogin: {
        visibility: "public",
        params: { email: { type: "string", optional: true }, phoneNumber: { type: "string", optional: true } },
        async handler(ctx: Ctx<{ email?: string; phoneNumber?: string }>) {
          const where: WhereOptions = ctx.params.email
            ? { email: ctx.params.email.trim().toLowerCase() }
            : { phoneNumber: normalisePhone(ctx.params.phoneNumber) ?? "" };
          const u = await UserModel.findOne({ where });
          if (!u) return null;
          const qs = await queuesOf([u.get("id") as number]);
          return { ...(u.get({ plain: true }) as UserRow), queues: qs.get(u.get("id") as number) ?? [] };
        },
      },
      getInternal: {
        visibility: "public",
        params: { id: { type: "number", integer: true, positive: true } },
        async handler(ctx: Ctx<{ id: number }>) {
          const u = await UserModel.findByPk(ctx.params.id);
          if (!u) return null;
          const qs = await queuesOf([ctx.params.id]);
          return { ...(u.get({ plain: true }) as UserRow), queues: qs.get(ctx.params.id) ?? [] };
        },
      },
      setPasswordHash: {
        visibility: "public",
        params: { id: "number", passwordHash: "string" },
        async handler(ctx: Ctx<{ id: number; passwordHash: string }>) {
          await UserModel.update({ passwordHash: ctx.params.passwordHash }, { where: { id: ctx.params.id } });
          return true;
        },
      },
      touchLogin: {
        visibility: "public",
        params: { id: "number" },
        async handler(ctx: Ctx<{ id: number }>) {
          await UserModel.update({ lastLoginAt: new Date(), status: "online" }, { where: { id: ctx.params.id } });
          return true;
        },
      },
      /**
       * Deactivates a user and ends all their sessions (spec §4: rejecting the terms or the
       * privacy consent). Logging in again answers ERR_USER_INACTIVE until an admin activates them.
       */
      deactivate: {
        visibility: "public",
        params: { id: "number", tenantId: "number" },
        async handler(ctx: Ctx<{ id: number; tenantId: number }>) {
          const { id, tenantId } = ctx.params;
          await UserModel.update({ active: false, status: "offline" }, { where: { id, tenantId } });
          await ctx.call("auth.revokeUserSessions", { userId: id, reason: "user_inactive" });
          ctx.emit("users.updated", { tenantId, userId: id });
          return true;
        },
      },
      setStatus: {
        visibility: "public",
        params: { id: "number", status: { type: "enum", values: ["online", "offline"] } },
        async handler(ctx: Ctx<{ id: number; status: "online" | "offline" }>) {
          await UserModel.update({ status: ctx.params.status }, { where: { id: ctx.params.id } });
          return true;
        },
      },
      /** Creates a user without an authenticated caller (seed, tenant provisioning). */
      createInternal: {
        visibility: "public",
        params: {
          tenantId: "number",
          name: "string",
          email: "email",
          password: "string",
          profile: { type: "enum", values: ["user", "supervisor", "admin", "super"] },
          isMaster: { type: "boolean", optional: true },
          queues: { type: "array", items: "number", optional: true },
        },
        async handler(ctx: Ctx<{ tenantId: number; name: string; email: string; password: string; profile: Profile; isMaster?: boolean; queues?: number[] }>) {
          const p = ctx.params;
          const u = await UserModel.create({
            tenantId: p.tenantId,
            name: p.name,
            email: p.email.toLowerCase(),
            passwordHash: await hashPassword(p.password, deps.config.bcryptRounds),
            profile: p.profile,
            isMaster: !!p.isMaster,
            configs: {},
            loginHours: {},
          });
          const id = u.get("id") as number;
          if (p.queues?.length) await UserQueue.bulkCreate(p.queues.map((queueId) => ({ tenantId: p.tenantId, userId: id, queueId })));
          return { id };
        },
      },
      /** Drops every membership of a queue (called when the queue is deleted). */
      detachQueue: {
        visibility: "public",
        params: { tenantId: "number", queueId: "number" },
        async handler(ctx: Ctx<{ tenantId: number; queueId: number }>) {
          return UserQueue.destroy({ where: { tenantId: ctx.params.tenantId, queueId: ctx.params.queueId } });
        },
      },
      /** Names of the tenant's users among `ids`, deleted ones too (the dashboard's figures: their tickets still count). */
      names: {
        visibility: "public",
        params: { tenantId: "number", ids: { type: "array", items: "number", max: 1000 } },
        async handler(ctx: Ctx<{ tenantId: number; ids: number[] }>): Promise<UserName[]> {
          if (!ctx.params.ids.length) return [];
          const rows = await UserModel.findAll({ where: { tenantId: ctx.params.tenantId, id: { [Op.in]: ctx.params.ids } }, attributes: ["id", "name"] });
          return rows.map((r) => ({ id: r.get("id") as number, name: r.get("name") as string }));
        },
      },
      countInQueue: {
        visibility: "public",
        params: { tenantId: "number", queueId: "number" },
        async handler(ctx: Ctx<{ tenantId: number; queueId: number }>) {
          return UserQueue.count({ where: { tenantId: ctx.params.tenantId, queueId: ctx.params.queueId } });
        },
      },
    },
    methods: {
      async checkQueues(ctx: Ctx, tenantId: number, queues: number[]) {
        if (!queues.length) return;
        const found = (await ctx.call("queues.existing", { tenantId, ids: queues })) as number[];
        const missing = queues.filter((q) => !found.includes(q));
        if (missing.length) throw new AppError("ERR_QUEUE_NOT_FOUND", { field: "queues", ids: missing });
      },
      uniqueError(err: unknown) {
        if (err instanceof UniqueConstraintError) {
          const fields = Object.keys(err.fields ?? {}).join(",") + " " + (err.errors?.map((e) => e.path).join(",") ?? "");
          if (/phone/i.test(fields)) return new AppError("ERR_PHONE_ALREADY_REGISTERED", { field: "phoneNumber" });
          return new AppError("ERR_EMAIL_ALREADY_REGISTERED", { field: "email" });
        }
        return err;
      },
    },
  };
}
