import { Op, WhereOptions } from "sequelize";
import type { ServiceSchema } from "moleculer";
import type { Ctx, Profile } from "../types";
import { UniqueConstraintError } from "sequelize";
import { hashPassword, isStrongPassword } from "../auth/password";
import { AppError } from "../errors/app-error";
import { lockTenantRow } from "../db/row-locks";
import { assertWithinLimit } from "../licence/plans";
import { call, emit } from "../bus/call";
import type { CoreDeps } from "../deps";
import type { User, UserQueue as UserQueueModel } from "./model";
import { normalisePhone, type UserName, type UserRow, type UserWithQueues } from "./contract";
import { pushUserStatus, userStatusChanged } from "./status";

/**
 * The users service's actions for other services (no REST): logins look users up, auth
 * records sessions' effects, provisioning creates users, queues and the dashboard read
 * memberships and names. Declared in contract.ts (UsersActions).
 */
export function usersInternalActions(deps: CoreDeps, UserModel: typeof User, UserQueue: typeof UserQueueModel, queuesOf: (ids: number[]) => Promise<Map<number, number[]>>): NonNullable<ServiceSchema["actions"]> {
  const withQueues = async (u: User | null): Promise<UserWithQueues | null> => {
    if (!u) return null;
    const id = u.get("id") as number;
    const qs = await queuesOf([id]);
    return { ...(u.get({ plain: true }) as UserRow), queues: qs.get(id) ?? [] };
  };

  return {
    findForLogin: {
      visibility: "public",
      params: { email: { type: "string", optional: true }, phoneNumber: { type: "string", optional: true } },
      async handler(ctx: Ctx<{ email?: string; phoneNumber?: string }>) {
        const where: WhereOptions = ctx.params.email
          ? { email: ctx.params.email.trim().toLowerCase() }
          : { phoneNumber: normalisePhone(ctx.params.phoneNumber) ?? "" };
        return withQueues(await UserModel.findOne({ where }));
      },
    },
    getInternal: {
      visibility: "public",
      params: { id: { type: "number", integer: true, positive: true } },
      async handler(ctx: Ctx<{ id: number }>) {
        return withQueues(await UserModel.findByPk(ctx.params.id));
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
        const u = await UserModel.findByPk(ctx.params.id, { attributes: ["tenantId"] });
        if (u) userStatusChanged(ctx, u.get("tenantId") as number, ctx.params.id, "online");
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
        const [n] = await UserModel.update({ active: false, status: "offline" }, { where: { id, tenantId } });
        await call(ctx, "auth.revokeUserSessions", { userId: id, reason: "user_inactive" });
        if (n) pushUserStatus(ctx, tenantId, id, "offline");
        void emit(ctx, "users.updated", { tenantId, userId: id });
        return true;
      },
    },
    setStatus: {
      visibility: "public",
      params: { id: "number", status: { type: "enum", values: ["online", "offline"] } },
      async handler(ctx: Ctx<{ id: number; status: "online" | "offline" }>) {
        await UserModel.update({ status: ctx.params.status }, { where: { id: ctx.params.id } });
        const u = await UserModel.findByPk(ctx.params.id, { attributes: ["tenantId"] });
        if (u) userStatusChanged(ctx, u.get("tenantId") as number, ctx.params.id, ctx.params.status);
        return true;
      },
    },
    /**
     * A tenant's admin created by the platform level (a new tenant's first admin, or one more
     * later): the same rules as POST /users (strong password, unique e-mail, the tenant's
     * plan limit under the tenant-row lock), for a tenant the caller is not in.
     */
    createAdmin: {
      visibility: "public",
      params: { tenantId: "number", name: { type: "string", min: 1, max: 120, trim: true }, email: { type: "email", max: 190 }, password: { type: "string", max: 128 } },
      async handler(ctx: Ctx<{ tenantId: number; name: string; email: string; password: string }>) {
        const { tenantId, name, email, password } = ctx.params;
        if (!isStrongPassword(password)) throw new AppError("ERR_PASSWORD_WEAK", { field: "admin.password" });
        const passwordHash = await hashPassword(password, deps.config.bcryptRounds);
        const limits = await call(ctx, "licence.limits", { tenantId });
        const id = await deps.sequelize.transaction(async (transaction) => {
          await lockTenantRow(deps.sequelize, tenantId, transaction);
          const current = await UserModel.count({ where: { tenantId, deletedAt: null, isSupport: false }, transaction });
          assertWithinLimit(limits, "users", current);
          try {
            const u = await UserModel.create({ tenantId, name, email: email.toLowerCase(), passwordHash, profile: "admin", configs: {}, loginHours: {} }, { transaction });
            return u.get("id") as number;
          } catch (err) {
            if (err instanceof UniqueConstraintError) throw new AppError("ERR_EMAIL_ALREADY_REGISTERED", { field: "admin.email" });
            throw err;
          }
        });
        void emit(ctx, "users.created", { tenantId, userId: id });
        return { id, tenantId, name, email: email.toLowerCase(), profile: "admin" as const };
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
    /** The tenant's users that are not deleted (hidden ones too), by name, with their queues (the core API of plugins). */
    listInternal: {
      visibility: "public",
      params: { tenantId: "number" },
      async handler(ctx: Ctx<{ tenantId: number }>): Promise<UserWithQueues[]> {
        const rows = await UserModel.findAll({ where: { tenantId: ctx.params.tenantId, deletedAt: null }, order: [["name", "ASC"], ["id", "ASC"]], limit: 10_000 });
        const qs = await queuesOf(rows.map((r) => r.get("id") as number));
        return rows.map((r) => ({ ...(r.get({ plain: true }) as UserRow), queues: qs.get(r.get("id") as number) ?? [] }));
      },
    },
    countInQueue: {
      visibility: "public",
      params: { tenantId: "number", queueId: "number" },
      async handler(ctx: Ctx<{ tenantId: number; queueId: number }>) {
        return UserQueue.count({ where: { tenantId: ctx.params.tenantId, queueId: ctx.params.queueId } });
      },
    },
  };
}
