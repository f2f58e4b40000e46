import { Op, UniqueConstraintError, WhereOptions } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { tenantDbMixin, type TenantDbMethods } from "../db/tenant-db.mixin";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import { Ctx, Profile, isAdmin, isSuper } from "../types";
import { defineUserModels, User, UserRow, UserConfigs } from "./model";
import { normalisePhone } from "./contract";
import { hashPassword, isStrongPassword } from "../auth/password";
import { validLoginHours } from "../auth/login-hours";
import { containsCI } from "../db/search";
import { lockTenantRow } from "../db/row-locks";
import { assertWithinLimit } from "../licence/plans";
import { call, defineService, emit, serviceRunning } from "../bus/call";
import { usersInternalActions } from "./internal";
import { pushUserStatus, usersStatusActions } from "./status";
import { UserInput, idParam, nowToSecond, optional, validPhone, writableFields } from "./params";

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

  async function checkQueues(ctx: Ctx, tenantId: number, queues: number[]) {
    if (!queues.length) return;
    const found = await call(ctx, "queues.existing", { tenantId, ids: queues });
    const missing = queues.filter((q) => !found.includes(q));
    if (missing.length) throw new AppError("ERR_QUEUE_NOT_FOUND", { field: "queues", ids: missing });
  }

  function uniqueError(err: unknown) {
    if (err instanceof UniqueConstraintError) {
      const fields = Object.keys(err.fields ?? {}).join(",") + " " + (err.errors?.map((e) => e.path).join(",") ?? "");
      if (/phone/i.test(fields)) return new AppError("ERR_PHONE_ALREADY_REGISTERED", { field: "phoneNumber" });
      return new AppError("ERR_EMAIL_ALREADY_REGISTERED", { field: "email" });
    }
    return err;
  }

  return defineService<TenantDbMethods<User>>({
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
        async handler(ctx: Ctx<{ searchParam?: string; pageNumber?: number; pageSize?: number; profile?: Profile }>) {
          const tenantId = this.tenantOf(ctx);
          const { searchParam, pageNumber = 1, profile } = ctx.params;
          // Spec §3 "page size": the tenant's, when the caller names none.
          const pageSize = ctx.params.pageSize ?? (Number((await call(ctx, "settings.forTenant", { tenantId })).pageSize) || 50);
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
        async handler(ctx: Ctx<{ id: number }>) {
          const me = ctx.meta.user!;
          if (!isAdmin(me) && me.id !== ctx.params.id) throw new AppError("ERR_NO_PERMISSION");
          const u = await this.findOwned(ctx, ctx.params.id, "ERR_USER_NOT_FOUND", live);
          const qs = await queuesOf([ctx.params.id]);
          return view(u, qs.get(ctx.params.id) ?? [], true);
        },
      },

      create: {
        rest: "POST /users",
        access: "admin",
        params: { ...writableFields, profile: { ...writableFields.profile, optional: true } },
        async handler(ctx: Ctx<UserInput>) {
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
          await checkQueues(ctx, tenantId, queues);
          const passwordHash = await hashPassword(p.password!, deps.config.bcryptRounds);

          // Plan limits and the insert run under one tenant-row lock, so two admins racing
          // for the last seat cannot both get it.
          const limits = await call(ctx, "licence.limits", { tenantId });
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
              throw uniqueError(err);
            }
          });
          ctx.meta.$statusCode = 201;
          const id = created.get("id") as number;
          void emit(ctx, "users.created", { tenantId, userId: id });
          return view(created, queues.sort((a, b) => a - b), true);
        },
      },

      update: {
        rest: "PUT /users/:id",
        access: "user",
        resource: "users",
        params: { ...idParam, ...optional(writableFields) },
        async handler(ctx: Ctx<UserInput & { id: number }>) {
          const me = ctx.meta.user!;
          const self = me.id === ctx.params.id;
          if (!isAdmin(me) && !self) throw new AppError("ERR_NO_PERMISSION");
          const u = await this.findOwned(ctx, ctx.params.id, "ERR_USER_NOT_FOUND", live);
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
            // Their sessions end below: they are offline (and the team hears it).
            patch.status = "offline";
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
          if (queues) await checkQueues(ctx, tenantId, queues);
          await deps.sequelize.transaction(async (transaction) => {
            try {
              await u.update(patch, { transaction });
            } catch (err) {
              throw uniqueError(err);
            }
            if (queues) {
              await UserQueue.destroy({ where: { userId: row.id }, transaction });
              if (queues.length) await UserQueue.bulkCreate(queues.map((queueId) => ({ tenantId, userId: row.id, queueId })), { transaction });
            }
          });
          // A changed profile, password or a deactivation ends the user's other sessions.
          if (patch.profile || patch.isSupport !== undefined || patch.active === false || (patch.passwordHash && !self)) {
            await call(ctx, "auth.revokeUserSessions", { userId: row.id, reason: patch.active === false ? "user_inactive" : "credentials_changed" });
            if (patch.active === false) pushUserStatus(ctx, tenantId, row.id, "offline");
          } else if (patch.passwordHash && self) {
            await call(ctx, "auth.revokeUserSessions", { userId: row.id, reason: "credentials_changed", exceptSessionId: me.sessionId });
          }
          void emit(ctx, "users.updated", { tenantId, userId: row.id });
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
          /** The agent's name on their outgoing messages (messages/signature.ts), unless the tenant forces it. */
          signature: { type: "boolean", optional: true, convert: true },
          language: { type: "enum", values: ["pt-BR", "en", "es", "ru"], optional: true },
          $$strict: "remove",
        },
        async handler(ctx: Ctx<UserConfigs & { id: number }>) {
          const me = ctx.meta.user!;
          if (!isAdmin(me) && me.id !== ctx.params.id) throw new AppError("ERR_NO_PERMISSION");
          const u = await this.findOwned(ctx, ctx.params.id, "ERR_USER_NOT_FOUND", live);
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
        async handler(ctx: Ctx<{ id: number; accepted: boolean }>) {
          const me = ctx.meta.user!;
          // Consent is personal: nobody answers it for someone else.
          if (me.id !== ctx.params.id) {
            await this.findOwned(ctx, ctx.params.id, "ERR_USER_NOT_FOUND", live);
            throw new AppError("ERR_NO_PERMISSION");
          }
          const u = await this.findOwned(ctx, ctx.params.id, "ERR_USER_NOT_FOUND", live);
          await u.update({ lgpdAccepted: ctx.params.accepted, lgpdAcceptedAt: nowToSecond() });
          // Spec §4: refusing the consent deactivates the account (an admin can activate it again).
          if (!ctx.params.accepted) await call(ctx, "users.deactivate", { id: me.id, tenantId: me.tenantId });
          return { id: me.id, lgpdAccepted: ctx.params.accepted, lgpdAcceptedAt: u.get("lgpdAcceptedAt") };
        },
      },

      remove: {
        rest: "DELETE /users/:id",
        access: "admin",
        resource: "users",
        params: { ...idParam, newUserId: { type: "number", integer: true, positive: true, convert: true, optional: true } },
        async handler(ctx: Ctx<{ id: number; newUserId?: number }>) {
          const me = ctx.meta.user!;
          const u = await this.findOwned(ctx, ctx.params.id, "ERR_USER_NOT_FOUND", live);
          if (me.id === ctx.params.id) throw new AppError("ERR_CANNOT_DELETE_SELF");
          if ((u.get("profile") === "super" || u.get("isMaster")) && !isSuper(me)) throw new AppError("ERR_NO_PERMISSION");
          if (!ctx.params.newUserId) throw new AppError("ERR_NEW_USER_REQUIRED", { field: "newUserId" });
          if (ctx.params.newUserId === ctx.params.id) throw new AppError("ERR_VALIDATION", { field: "newUserId", rule: "any" });
          const heir = await this.findOwned(ctx, ctx.params.newUserId, "ERR_USER_NOT_FOUND", live);
          // Not ERR_USER_INACTIVE: that is a 401 session code, and would log the admin out.
          if (!heir.get("active")) throw new AppError("ERR_VALIDATION", { field: "newUserId", rule: "any", reason: "inactive" });
          const tenantId = u.get("tenantId") as number;
          // Hand the tickets over first (when the tickets service runs), then tombstone.
          if (serviceRunning(this.broker, "tickets")) {
            await call(ctx, "tickets.transferFromUser", { tenantId, fromUserId: ctx.params.id, toUserId: ctx.params.newUserId });
          }
          await deps.sequelize.transaction(async (transaction) => {
            await UserQueue.destroy({ where: { userId: ctx.params.id }, transaction });
            await u.update({ deletedAt: new Date(), active: false, status: "offline" }, { transaction });
          });
          await call(ctx, "auth.revokeUserSessions", { userId: ctx.params.id, reason: "user_deleted" });
          pushUserStatus(ctx, tenantId, ctx.params.id, "offline");
          void emit(ctx, "users.deleted", { tenantId, userId: ctx.params.id, newUserId: ctx.params.newUserId });
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

      ...usersStatusActions(UserModel),

      // --- internal actions (no REST): internal.ts -----------------------------------------
      ...usersInternalActions(deps, UserModel, UserQueue, queuesOf),
    },
  });
}
