import type { ServiceSchema } from "moleculer";
import { REALTIME_EVENTS, type UserStatusEvent } from "@openatende/contracts/realtime";
import { rooms } from "@openatende/contracts/visibility";
import { emit, type Emitter } from "../bus/call";
import { AppError } from "../errors/app-error";
import { pushRealtime } from "../realtime/push";
import { isAdmin, type Ctx } from "../types";
import type { User } from "./model";

export type UserStatus = UserStatusEvent["status"];

/** Tells the tenant's sockets (the team's views, the user's other tabs) that a user went online or offline. */
export function pushUserStatus(ctx: Emitter, tenantId: number, id: number, status: UserStatus): void {
  const payload: UserStatusEvent = { id, status };
  pushRealtime(ctx, { rooms: [rooms.tenant(tenantId)], event: REALTIME_EVENTS.userStatus(tenantId), payload });
}

/**
 * A change of the online status alone (a login, a logout, the user's own switch): told to the
 * sockets and to plugins (users.updated: their user.changed; the live panel counts who is
 * online). A deactivation or a deletion goes offline too, but is told as what it is.
 */
export function userStatusChanged(ctx: Emitter, tenantId: number, id: number, status: UserStatus): void {
  pushUserStatus(ctx, tenantId, id, status);
  void emit(ctx, "users.updated", { tenantId, userId: id });
}

/**
 * Spec §4: users toggle themselves online or offline (a login makes them online, a logout
 * offline). Personal, like the privacy consent: nobody, not even an admin, switches someone
 * else. Another tenant's user is 404, as everywhere.
 */
export function usersStatusActions(UserModel: typeof User): NonNullable<ServiceSchema["actions"]> {
  return {
    setOwnStatus: {
      rest: "PUT /users/:id/status",
      access: "user",
      resource: "users",
      params: { id: { type: "number", integer: true, positive: true, convert: true }, status: { type: "enum", values: ["online", "offline"] } },
      async handler(ctx: Ctx<{ id: number; status: UserStatus }>) {
        const me = ctx.meta.user!;
        const u = await UserModel.findOne({ where: { id: ctx.params.id, tenantId: me.tenantId, deletedAt: null } });
        if (!u) throw new AppError("ERR_USER_NOT_FOUND");
        if (me.id !== ctx.params.id) throw new AppError("ERR_NO_PERMISSION");
        if (u.get("status") !== ctx.params.status) await u.update({ status: ctx.params.status });
        userStatusChanged(ctx, me.tenantId, me.id, ctx.params.status);
        return { id: me.id, status: ctx.params.status };
      },
    },

    /**
     * Spec §7 GET /users/chat-interno/: who a user can talk to in the internal chat — the
     * tenant's active users (hidden ones only for admins, as in GET /users), with what the chat
     * shows of them: name, profile, online status and picture. Any user may ask; nothing private.
     */
    internalChat: {
      rest: "GET /users/chat-interno",
      access: "user",
      async handler(ctx: Ctx) {
        const me = ctx.meta.user!;
        const where = { tenantId: me.tenantId, deletedAt: null, active: true, ...(isAdmin(me) ? {} : { isHidden: false }) };
        const rows = await UserModel.findAll({ where, attributes: ["id", "name", "profile", "status", "image"], order: [["name", "ASC"], ["id", "ASC"]], limit: 5000 });
        return { users: rows.map((r) => ({ id: r.get("id") as number, name: r.get("name") as string, profile: r.get("profile") as string, status: r.get("status") as UserStatus, image: (r.get("image") as string | null) ?? null })) };
      },
    },
  };
}
