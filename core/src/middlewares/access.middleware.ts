import type { Middleware, Service, ActionSchema, ActionHandler, Context } from "moleculer";
import { AppError } from "../errors/app-error";
import { Access, Meta, isAdmin, isSuper } from "../types";

export function hasAccess(access: Access, meta: Meta): boolean {
  const u = meta.user;
  switch (access) {
    case "public":
      return true;
    case "user":
      return !!u;
    case "supervisor":
      return !!u && (u.profile === "supervisor" || isAdmin(u));
    case "admin":
      return isAdmin(u);
    case "super":
      return isSuper(u);
  }
}

/**
 * Enforces `access` on the action the gateway calls. Nested calls between services are
 * trusted: the flag is cleared once checked, so a service may call internal actions on a
 * user's behalf.
 */
export const AccessMiddleware: Middleware = {
  name: "Access",
  localAction(next: ActionHandler, action: ActionSchema): ActionHandler {
    const access: Access = action.access ?? "user";
    return function accessCheck(this: Service, ctx: Context<unknown, Meta>) {
      if (ctx.meta.$api) {
        ctx.meta.$api = false;
        if (!ctx.meta.user && access !== "public") {
          return Promise.reject(new AppError("ERR_SESSION_REQUIRED"));
        }
        if (!hasAccess(access, ctx.meta)) {
          return Promise.reject(new AppError("ERR_NO_PERMISSION", { required: access }));
        }
      }
      return next.call(this, ctx);
    };
  },
};
