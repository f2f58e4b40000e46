/**
 * The service catalogue (spec §2 /configuracoes/servicos, §3 Service, §5; PREMIUM, admins):
 * name, description, duration in minutes, price (not negative), the users who provide it.
 * Under /api/appointments/services; the appointment form reads the services through
 * /appointments/options (PLUS), so a PLUS tenant books the services its admin set up.
 */
import type { Context } from "moleculer";
import { PluginError } from "@openatende/plugin-sdk";
import { coreApi } from "@openatende/plugin-sdk";
import { checkService, type ServiceInput } from "./rules";
import type { AppointmentStore } from "./store";
import { serviceView } from "./view";

type Ctx<P> = Context<P, { user?: { id: number; tenantId: number } ; $statusCode?: number }>;
const id = { type: "number", integer: true, positive: true, convert: true } as const;
const fields = {
  name: { type: "string", optional: true, nullable: true, max: 120 },
  description: { type: "string", optional: true, nullable: true, max: 2000 },
  duration: { type: "number", optional: true, nullable: true, convert: true },
  price: { type: "number", optional: true, nullable: true, convert: true },
  users: { type: "array", optional: true, nullable: true, max: 500, items: { ...id } },
} as const;
const admin = (rest: string) => ({ rest, access: "admin" as const, tier: "PREMIUM" as const });

function tenantOf(ctx: Ctx<unknown>): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw new PluginError("ERR_SESSION_REQUIRED", 401);
  return t;
}
const storeOf = (svc: unknown) => (svc as { store: AppointmentStore }).store;

/** The users are the tenant's (another tenant's: ERR_USER_NOT_FOUND, 404). */
async function checkUsers(ctx: Ctx<unknown>, tenantId: number, users: number[]): Promise<void> {
  const mine = new Set((await coreApi(ctx).users.list({ tenantId })).map((u) => u.id));
  const stranger = users.find((u) => !mine.has(u));
  if (stranger !== undefined) throw new PluginError("ERR_USER_NOT_FOUND", 404, { field: "users", id: stranger });
}

export const serviceActions = {
  servicesList: {
    ...admin("GET /appointments/services"),
    async handler(this: unknown, ctx: Ctx<unknown>) {
      return (await storeOf(this).listServices(tenantOf(ctx))).map(serviceView);
    },
  },
  servicesGet: {
    ...admin("GET /appointments/services/one"),
    params: { id },
    async handler(this: unknown, ctx: Ctx<{ id: number }>) {
      return serviceView(await storeOf(this).service(tenantOf(ctx), ctx.params.id));
    },
  },
  servicesCreate: {
    ...admin("POST /appointments/services"),
    params: fields,
    async handler(this: unknown, ctx: Ctx<ServiceInput>) {
      const tenantId = tenantOf(ctx);
      const f = checkService(ctx.params);
      await checkUsers(ctx, tenantId, f.users);
      ctx.meta.$statusCode = 201;
      return serviceView(await storeOf(this).createService(tenantId, f, Date.now()));
    },
  },
  servicesUpdate: {
    ...admin("PATCH /appointments/services"),
    params: { id, ...fields },
    async handler(this: unknown, ctx: Ctx<ServiceInput & { id: number }>) {
      const tenantId = tenantOf(ctx);
      const store = storeOf(this);
      const row = await store.service(tenantId, ctx.params.id);
      const { id: _id, ...changes } = ctx.params;
      const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      const f = checkService({ ...serviceView(row), ...given });
      await checkUsers(ctx, tenantId, f.users);
      await store.updateService(tenantId, row.id, f, Date.now());
      return serviceView(await store.service(tenantId, row.id));
    },
  },
  /** Deletes a service; appointments already booked with it keep their time (shown without its name). */
  servicesRemove: {
    ...admin("POST /appointments/services/delete"),
    params: { id },
    async handler(this: unknown, ctx: Ctx<{ id: number }>) {
      const tenantId = tenantOf(ctx);
      const store = storeOf(this);
      const row = await store.service(tenantId, ctx.params.id);
      await store.removeService(tenantId, row.id);
      return { id: row.id, deleted: true };
    },
  },
};
