import type { ServiceSchema } from "moleculer";
import Validator from "fastest-validator";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { forgetVisibility } from "../realtime/push";
import { broadcast, call } from "../bus/call";
import { defineSetting } from "./model";
import { GLOBAL_SCHEMAS, TENANT_SCHEMAS, TENANT_DEFAULTS, TENANT_CHECKS } from "./schemas";
import { wallpaperActions } from "./wallpaper";

const v = new Validator();

export { GLOBAL_SCHEMAS, TENANT_SCHEMAS, TENANT_DEFAULTS, AUTO_CLOSE_MINUTES } from "./schemas";

const SECRET_FIELDS = new Set(["password", "apiToken", "token", "apiKey"]);
const mask = (value: unknown): unknown => {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, x]) => [k, SECRET_FIELDS.has(k) && x ? "********" : x]));
};

function validate(schema: object, value: unknown): void {
  const check = v.compile(schema as never);
  const res = check(value as object);
  if (res !== true) {
    // The gateway's shape for validation errors ({ field, rule, expected }): no English
    // validator message and no echo of the submitted (possibly secret) value.
    const errors = (res as Array<{ field: string; type: string; expected?: unknown }>).map((e) => ({ field: e.field, rule: e.type, expected: e.expected }));
    const first = errors[0];
    throw new AppError("ERR_VALIDATION", { field: first?.field, rule: first?.rule, errors });
  }
}

/** Platform-wide and per-tenant settings; secrets are masked on the way out. */
export function createSettingsService(deps: CoreDeps): ServiceSchema {
  const model = defineSetting(deps.sequelize);

  async function upsert(tenantId: number, key: string, value: unknown) {
    const row = await model.findOne({ where: { tenantId, key } });
    if (row) await row.update({ value });
    else await model.create({ tenantId, key, value });
  }

  return {
    name: "settings",
    settings: { rest: "/" },
    actions: {
      getGlobal: {
        visibility: "public",
        params: { key: "string" },
        async handler(ctx: Ctx<{ key: string }>) {
          const row = await model.findOne({ where: { tenantId: 0, key: ctx.params.key } });
          return row ? row.get("value") : null;
        },
      },
      setGlobal: {
        visibility: "public",
        params: { key: "string", value: "any" },
        async handler(ctx: Ctx<{ key: string; value: unknown }>) {
          await upsert(0, ctx.params.key, ctx.params.value);
          void broadcast(ctx, "settings.globalChanged", { key: ctx.params.key });
          return true;
        },
      },
      global: {
        rest: "GET /settings/global",
        access: "super",
        // Spec §6: global settings are the top-level admin's, read as written (a super without
        // the master flag manages tenants, not the platform's keys).
        async handler(ctx: Ctx) {
          if (!ctx.meta.user!.isMaster) throw new AppError("ERR_NO_PERMISSION");
          const rows = await model.findAll({ where: { tenantId: 0 } });
          return Object.fromEntries(rows.filter((r) => (r.get("key") as string) in GLOBAL_SCHEMAS).map((r) => [r.get("key") as string, mask(r.get("value"))]));
        },
      },
      updateGlobal: {
        rest: "PUT /settings/global/:key",
        access: "super",
        resource: "own",
        params: { key: { type: "enum", values: Object.keys(GLOBAL_SCHEMAS) }, value: { type: "object" } },
        async handler(ctx: Ctx<{ key: keyof typeof GLOBAL_SCHEMAS; value: Record<string, unknown> }>) {
          if (!ctx.meta.user!.isMaster) throw new AppError("ERR_NO_PERMISSION");
          const { key } = ctx.params;
          const value = { ...ctx.params.value };
          // A masked secret sent back unchanged keeps the stored one.
          const prevRow = await model.findOne({ where: { tenantId: 0, key } });
          const prev = (prevRow?.get("value") ?? {}) as Record<string, unknown>;
          for (const f of SECRET_FIELDS) if (value[f] === "********") value[f] = prev[f];
          validate(GLOBAL_SCHEMAS[key], value);
          // The installation licence is verified like a tenant's: a refused token is not stored
          // (an empty token clears it).
          if (key === "licence" && value.token && value.token !== prev.token) {
            await call(ctx, "licence.verifyInstallation", { token: value.token as string });
          }
          await upsert(0, key, value);
          void broadcast(ctx, "settings.globalChanged", { key });
          return { key, value: mask(value) };
        },
      },
      /** A tenant's settings with defaults filled in, for other services. */
      forTenant: {
        visibility: "public",
        params: { tenantId: { type: "number", integer: true, positive: true } },
        async handler(ctx: Ctx<{ tenantId: number }>) {
          const rows = await model.findAll({ where: { tenantId: ctx.params.tenantId } });
          return { ...TENANT_DEFAULTS, ...Object.fromEntries(rows.map((r) => [r.get("key") as string, r.get("value")])) };
        },
      },
      list: {
        rest: "GET /settings",
        access: "user",
        async handler(ctx: Ctx) {
          const rows = await model.findAll({ where: { tenantId: ctx.meta.user!.tenantId } });
          return Object.fromEntries(rows.map((r) => [r.get("key"), r.get("value")]));
        },
      },
      update: {
        rest: "PUT /settings/:key",
        access: "admin",
        resource: "own",
        params: { key: { type: "string", max: 100 }, value: "any" },
        async handler(ctx: Ctx<{ key: string; value: unknown }>) {
          const schema = TENANT_SCHEMAS[ctx.params.key];
          if (!schema) throw new AppError("ERR_SETTING_NOT_FOUND", { key: ctx.params.key });
          validate(schema, { value: ctx.params.value });
          const broken = TENANT_CHECKS[ctx.params.key]?.(ctx.params.value as never);
          if (broken) throw new AppError("ERR_VALIDATION", { ...broken, errors: [broken] });
          await upsert(ctx.meta.user!.tenantId, ctx.params.key, ctx.params.value);
          forgetVisibility(ctx.meta.user!.tenantId);
          void broadcast(ctx, "settings.changed", { tenantId: ctx.meta.user!.tenantId, key: ctx.params.key });
          return { key: ctx.params.key, value: ctx.params.value };
        },
      },
      // POST and DELETE /settings/wallpaper/:theme (wallpaper.ts).
      ...wallpaperActions(deps, model, upsert),
    },
  };
}
