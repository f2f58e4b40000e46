import { Op, UniqueConstraintError } from "sequelize";
import { confirmsDeletion } from "@openatende/contracts/connections";
import { callChannel, type ChannelForResult } from "@openatende/plugin-sdk";
import type { ServiceSchema } from "moleculer";
import Validator from "fastest-validator";
import { randomBytes } from "node:crypto";
import { tenantDbMixin, type TenantDbMethods } from "../db/tenant-db.mixin";
import { AppError } from "../errors/app-error";
import { pluginPinActions } from "./plugin-pins";
import type { CoreDeps } from "../deps";
import { Ctx, isAdmin } from "../types";
import { assertWithinLimit } from "../licence/plans";
import { lockTenantRow } from "../db/row-locks";
import { call, defineService, emit } from "../bus/call";
import { Connection, ConnectionRow, defineConnection } from "./model";
import type { ConnectionInfo, ConnectionName, RankedConnection } from "./contract";
import { connectionLifecycle } from "./lifecycle";
import { assertOutboundSettings } from "../lib/url-policy";

export type { ConnectionRow };

const validator = new Validator();
const SECRET = /pass|secret|token|key/i;

const idParam = { id: { type: "number", integer: true, positive: true, convert: true } };
const fields = {
  name: { type: "string", min: 1, max: 100, trim: true },
  greeting: { type: "string", max: 5000, optional: true, nullable: true },
  farewell: { type: "string", max: 5000, optional: true, nullable: true },
  isDefault: { type: "boolean", optional: true, convert: true },
  queueId: { type: "number", integer: true, positive: true, optional: true, nullable: true, convert: true },
  settings: { type: "object", optional: true },
};

/**
 * Connections (the spec's Channel): generic in core — name, type, status, default flag,
 * greeting, farewell, token. What a type needs beyond that is the channel plugin's business:
 * its manifest's settings schema validates `settings`, and its service connects, sends and
 * tests. Core has no word of any particular channel.
 */
export function createConnectionsService(deps: CoreDeps): ServiceSchema {
  const model = defineConnection(deps.sequelize);
  const life = connectionLifecycle(deps, model);
  const { channelFor, markUnavailable } = life;

  function view(c: Connection, full: boolean) {
    const r = c.get({ plain: true }) as ConnectionRow;
    const base = { id: r.id, name: r.name, type: r.type, status: r.status, isDefault: !!r.isDefault, queueId: r.queueId, updatedAt: r.updatedAt, pluginMajor: r.pluginMajor ?? null, inactiveReason: r.inactiveReason ?? null };
    if (!full) return base;
    const settings = Object.fromEntries(Object.entries(r.settings ?? {}).map(([k, v]) => [k, SECRET.test(k) && v ? "********" : v]));
    return { ...base, greeting: r.greeting, farewell: r.farewell, token: r.token, settings, qrcode: r.qrcode, retries: r.retries, statusDetail: r.statusDetail, createdAt: r.createdAt };
  }

  async function validateSettings(plugin: ChannelForResult, settings: Record<string, unknown>) {
    if (!plugin.settingsSchema) return;
    const check = validator.compile({ $$strict: "remove", ...plugin.settingsSchema } as never);
    const res = check(settings);
    if (res !== true) {
      const first = (res as Array<{ field: string; type: string; expected?: unknown }>)[0];
      throw new AppError("ERR_VALIDATION", {
        field: `settings.${first.field}`,
        rule: first.type,
        errors: (res as Array<{ field: string; type: string; expected?: unknown }>).map((e) => ({ field: `settings.${e.field}`, rule: e.type, expected: e.expected })),
      });
    }
    // URLs and hosts the platform will call (`outbound` in the schema): never an internal address.
    await assertOutboundSettings(deps.config, plugin.settingsSchema, settings);
  }

  async function checkQueue(ctx: Ctx, tenantId: number, queueId: number | null | undefined) {
    if (!queueId) return;
    const found = await call(ctx, "queues.existing", { tenantId, ids: [queueId] });
    if (!found.length) throw new AppError("ERR_QUEUE_NOT_FOUND", { field: "queueId" });
  }

  const uniqueName = (err: unknown) => (err instanceof UniqueConstraintError ? new AppError("ERR_CONNECTION_NAME_IN_USE", { field: "name" }) : err);
  const plainRow = (c: Connection | null) => (c ? (c.get({ plain: true }) as ConnectionRow) : null);

  return defineService<TenantDbMethods<Connection>>({
    name: "connections",
    mixins: [tenantDbMixin(deps.sequelize, model)],
    settings: { rest: "/" },
    actions: {
      list: {
        rest: "GET /connections",
        access: "user",
        async handler(ctx: Ctx) {
          const tenantId = this.tenantOf(ctx);
          const rows = await model.findAll({ where: { tenantId }, order: [["name", "ASC"]] });
          return markUnavailable(ctx, tenantId, rows.map((r) => view(r, isAdmin(ctx.meta.user))));
        },
      },
      get: {
        rest: "GET /connections/:id",
        access: "user",
        resource: "connections",
        params: idParam,
        async handler(ctx: Ctx<{ id: number }>) {
          const c = await this.findOwned(ctx, ctx.params.id, "ERR_CONNECTION_NOT_FOUND");
          return (await markUnavailable(ctx, c.get("tenantId") as number, [view(c, isAdmin(ctx.meta.user))]))[0];
        },
      },
      create: {
        rest: "POST /connections",
        access: "admin",
        params: { ...fields, type: { type: "string", min: 1, max: 64 } },
        async handler(ctx: Ctx<Partial<ConnectionRow> & { type: string; name: string }>) {
          const tenantId = this.tenantOf(ctx);
          const p = ctx.params;
          const plugin = await channelFor(ctx, p.type, tenantId);
          const settings = { ...(p.settings ?? {}) };
          await validateSettings(plugin, settings);
          await checkQueue(ctx, tenantId, p.queueId);
          const limits = await call(ctx, "licence.limits", { tenantId });
          const created = await deps.sequelize.transaction(async (transaction) => {
            await lockTenantRow(deps.sequelize, tenantId, transaction);
            assertWithinLimit(limits, "connections", await model.count({ where: { tenantId }, transaction }));
            const first = (await model.count({ where: { tenantId }, transaction })) === 0;
            if (p.isDefault) await model.update({ isDefault: false }, { where: { tenantId }, transaction });
            try {
              return await model.create(
                {
                  tenantId,
                  name: p.name,
                  type: plugin.id,
                  status: "disconnected",
                  isDefault: p.isDefault ?? first,
                  greeting: p.greeting ?? null,
                  farewell: p.farewell ?? null,
                  queueId: p.queueId ?? null,
                  token: randomBytes(24).toString("base64url"),
                  settings,
                  // New connections use the newest major and stay on it.
                  pluginMajor: plugin.major,
                },
                { transaction },
              );
            } catch (err) {
              throw uniqueName(err);
            }
          });
          ctx.meta.$statusCode = 201;
          void emit(ctx, "connections.changed", { tenantId, connectionId: created.get("id") as number });
          return view(created, true);
        },
      },
      update: {
        rest: "PUT /connections/:id",
        access: "admin",
        resource: "connections",
        params: { ...idParam, ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { ...v, optional: true }])) },
        async handler(ctx: Ctx<Partial<ConnectionRow> & { id: number }>) {
          const c = await this.findOwned(ctx, ctx.params.id, "ERR_CONNECTION_NOT_FOUND");
          const row = c.get({ plain: true }) as ConnectionRow;
          const p = ctx.params;
          const patch: Partial<ConnectionRow> = {};
          for (const k of ["name", "greeting", "farewell", "queueId"] as const) if (p[k] !== undefined) (patch as Record<string, unknown>)[k] = p[k];
          if (p.queueId !== undefined) await checkQueue(ctx, row.tenantId, p.queueId);
          if (p.settings !== undefined) {
            const plugin = await channelFor(ctx, row.type, row.tenantId, row.pluginMajor);
            // Masked secrets sent back unchanged keep the stored value.
            const merged = { ...row.settings, ...Object.fromEntries(Object.entries(p.settings).filter(([, v]) => v !== "********")) };
            await validateSettings(plugin, merged);
            patch.settings = merged;
          }
          await deps.sequelize.transaction(async (transaction) => {
            if (p.isDefault === true) {
              await model.update({ isDefault: false }, { where: { tenantId: row.tenantId, id: { [Op.ne]: row.id } }, transaction });
              patch.isDefault = true;
            } else if (p.isDefault === false) patch.isDefault = false;
            try {
              await c.update(patch, { transaction });
            } catch (err) {
              throw uniqueName(err);
            }
          });
          void emit(ctx, "connections.changed", { tenantId: row.tenantId, connectionId: row.id });
          return view(c, true);
        },
      },
      remove: {
        rest: "DELETE /connections/:id",
        access: "admin",
        resource: "connections",
        params: { ...idParam, confirmation: { type: "string", optional: true, max: 100 } },
        async handler(ctx: Ctx<{ id: number; confirmation?: string }>) {
          const c = await this.findOwned(ctx, ctx.params.id, "ERR_CONNECTION_NOT_FOUND");
          const row = c.get({ plain: true }) as ConnectionRow;
          const typed = (ctx.params.confirmation ?? "").trim();
          if (!confirmsDeletion(typed, row.name)) {
            throw new AppError("ERR_CONNECTION_DELETE_CONFIRMATION", { field: "confirmation" });
          }
          // Stop the channel first; a plugin that is gone must not keep the row alive.
          try {
            await life.disconnectAtPlugin(ctx, row);
          } catch (err) {
            this.logger.warn(`connection ${row.id}: disconnect before delete failed: ${(err as Error).message}`);
          }
          await c.destroy();
          void emit(ctx, "connections.changed", { tenantId: row.tenantId, connectionId: row.id, deleted: true });
          return { id: row.id, deleted: true };
        },
      },
      connect: {
        rest: "POST /connections/:id/connect",
        access: "admin",
        resource: "connections",
        params: idParam,
        async handler(ctx: Ctx<{ id: number }>) {
          const c = await this.findOwned(ctx, ctx.params.id, "ERR_CONNECTION_NOT_FOUND");
          const row = c.get({ plain: true }) as ConnectionRow;
          const plugin = await channelFor(ctx, row.type, row.tenantId, row.pluginMajor);
          await life.connectWith(ctx, c, plugin);
          return view((await model.findByPk(row.id))!, true);
        },
      },
      disconnect: {
        rest: "POST /connections/:id/disconnect",
        access: "admin",
        resource: "connections",
        params: idParam,
        async handler(ctx: Ctx<{ id: number }>) {
          const c = await this.findOwned(ctx, ctx.params.id, "ERR_CONNECTION_NOT_FOUND");
          const row = c.get({ plain: true }) as ConnectionRow;
          const plugin = await channelFor(ctx, row.type, row.tenantId, row.pluginMajor);
          await c.update({ keepConnected: false });
          const res = await callChannel(ctx, plugin.service, "disconnect", { tenantId: row.tenantId, connectionId: row.id });
          await life.applyStatus(ctx, row.tenantId, row.id, res?.status ?? "disconnected");
          return view((await model.findByPk(row.id))!, true);
        },
      },
      test: {
        rest: "POST /connections/test",
        access: "admin",
        params: { type: { type: "string", min: 1, max: 64 }, settings: { type: "object" } },
        async handler(ctx: Ctx<{ type: string; settings: Record<string, unknown> }>) {
          const tenantId = this.tenantOf(ctx);
          const plugin = await channelFor(ctx, ctx.params.type, tenantId);
          await validateSettings(plugin, ctx.params.settings);
          return callChannel(ctx, plugin.service, "test", { tenantId, settings: ctx.params.settings });
        },
      },
      transfer: {
        rest: "POST /connections/transfer",
        access: "admin",
        params: {
          fromConnectionId: { type: "number", integer: true, positive: true, convert: true },
          toConnectionId: { type: "number", integer: true, positive: true, convert: true },
        },
        async handler(ctx: Ctx<{ fromConnectionId: number; toConnectionId: number }>) {
          const { fromConnectionId, toConnectionId } = ctx.params;
          if (fromConnectionId === toConnectionId) throw new AppError("ERR_CONNECTION_TRANSFER_SAME", { field: "toConnectionId" });
          const tenantId = this.tenantOf(ctx);
          await this.findOwned(ctx, fromConnectionId, "ERR_CONNECTION_NOT_FOUND");
          await this.findOwned(ctx, toConnectionId, "ERR_CONNECTION_NOT_FOUND");
          const moved = await call(ctx, "tickets.moveConnection", { tenantId, fromConnectionId, toConnectionId });
          return { fromConnectionId, toConnectionId, moved: moved.moved };
        },
      },

      // --- internal -------------------------------------------------------------------------
      ...pluginPinActions(model),
      getInternal: {
        visibility: "public",
        params: { id: { type: "number", integer: true, positive: true } },
        async handler(ctx: Ctx<{ id: number }>) {
          return plainRow(await model.findByPk(ctx.params.id));
        },
      },
      defaultFor: {
        visibility: "public",
        params: { tenantId: "number" },
        async handler(ctx: Ctx<{ tenantId: number }>) {
          return plainRow(
            (await model.findOne({ where: { tenantId: ctx.params.tenantId, isDefault: true } })) ??
              (await model.findOne({ where: { tenantId: ctx.params.tenantId }, order: [["id", "ASC"]] })),
          );
        },
      },
      byToken: {
        visibility: "public",
        params: { token: { type: "string", min: 10, max: 64 } },
        async handler(ctx: Ctx<{ token: string }>) {
          return plainRow(await model.findOne({ where: { token: ctx.params.token } }));
        },
      },
      /** Names and types of the tenant's connections among `ids` (the dashboard's figures). */
      names: {
        visibility: "public",
        params: { tenantId: "number", ids: { type: "array", items: "number", max: 1000 } },
        async handler(ctx: Ctx<{ tenantId: number; ids: number[] }>): Promise<ConnectionName[]> {
          if (!ctx.params.ids.length) return [];
          const rows = await model.findAll({ where: { tenantId: ctx.params.tenantId, id: { [Op.in]: ctx.params.ids } }, attributes: ["id", "name", "type"] });
          return rows.map((r) => ({ id: r.get("id") as number, name: r.get("name") as string, type: r.get("type") as string }));
        },
      },
      /**
       * The tenant's connections in the order a tenant-wide channel task tries them: connected
       * ones first, the default before the others (the contacts' number check).
       */
      ranked: {
        visibility: "public",
        params: { tenantId: "number", limit: { type: "number", integer: true, positive: true, max: 200, optional: true } },
        async handler(ctx: Ctx<{ tenantId: number; limit?: number }>): Promise<RankedConnection[]> {
          const rows = await model.findAll({ where: { tenantId: ctx.params.tenantId }, attributes: ["id", "type", "status", "pluginMajor", "isDefault"], order: [["id", "ASC"]] });
          const rank = (r: (typeof rows)[number]) => (r.get("status") === "connected" ? 0 : 2) + (r.get("isDefault") ? 0 : 1);
          return rows
            .map((r, i) => ({ r, i }))
            .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
            .slice(0, ctx.params.limit ?? 50)
            .map(({ r }) => ({ id: r.get("id") as number, type: r.get("type") as string, status: r.get("status") as string, pluginMajor: (r.get("pluginMajor") as number | null) ?? null }));
        },
      },
      /** Connects a connection again on the platform's behalf (the outbox service: at start, and when its plugin is back). */
      connectInternal: {
        visibility: "public",
        params: { id: { type: "number", integer: true, positive: true } },
        async handler(ctx: Ctx<{ id: number }>) {
          const c = await model.findByPk(ctx.params.id);
          if (!c) throw new AppError("ERR_CONNECTION_NOT_FOUND", { id: ctx.params.id });
          const row = c.get({ plain: true }) as ConnectionRow;
          const plugin = await channelFor(ctx, row.type, row.tenantId, row.pluginMajor);
          await life.connectWith(ctx, c, plugin);
          return { id: row.id, status: (await model.findByPk(row.id))?.get("status") as string | undefined };
        },
      },
      /** Every connection of a channel type, with what the outbox service needs. */
      byType: {
        visibility: "public",
        params: { type: { type: "string", min: 1, max: 64 } },
        async handler(ctx: Ctx<{ type: string }>): Promise<ConnectionInfo[]> {
          const rows = await model.findAll({ where: { type: ctx.params.type }, attributes: ["id", "tenantId", "type", "status", "keepConnected", "inactiveReason", "pluginMajor"], order: [["id", "ASC"]] });
          return rows.map((r) => ({
            id: r.get("id") as number,
            tenantId: r.get("tenantId") as number,
            type: r.get("type") as string,
            status: r.get("status") as string,
            pluginMajor: (r.get("pluginMajor") as number | null) ?? null,
            // Stopped by the platform (plugin disabled, …): the plugin switches bring it back, not this.
            keepConnected: !!r.get("keepConnected") && !r.get("inactiveReason"),
          }));
        },
      },
      setStatus: {
        visibility: "public",
        params: { tenantId: "number", connectionId: "number", status: "string", qrcode: { type: "string", optional: true }, detail: { type: "string", optional: true } },
        async handler(ctx: Ctx<{ tenantId: number; connectionId: number; status: string; qrcode?: string; detail?: string }>) {
          return life.applyStatus(ctx, ctx.params.tenantId, ctx.params.connectionId, ctx.params.status, ctx.params.qrcode, ctx.params.detail);
        },
      },
      /** Stops or brings back the tenant's connections after a plugin's availability changed (lifecycle.ts, reconcile). */
      reconcilePlugins: {
        visibility: "public",
        params: { tenantId: { type: "number", integer: true, positive: true }, pluginId: { type: "string", optional: true, max: 64 } },
        async handler(ctx: Ctx<{ tenantId: number; pluginId?: string }>) {
          return life.reconcile(ctx, this.logger, ctx.params.tenantId, ctx.params.pluginId);
        },
      },
    },
  });
}
