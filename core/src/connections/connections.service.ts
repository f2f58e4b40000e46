import { DataTypes, Model, Op, Sequelize, UniqueConstraintError } from "sequelize";
import { confirmsDeletion } from "@openatende/contracts/connections";
import type { ServiceSchema } from "moleculer";
import Validator from "fastest-validator";
import { randomBytes } from "node:crypto";
import { tenantDbMixin } from "../db/tenant-db.mixin";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import { Ctx, isAdmin } from "../types";
import { jsonColumn } from "../db/json-column";
import { lockTenantRow } from "../db/row-locks";
import { PlanLimits, assertWithinLimit } from "../licence/plans";
import { pushRealtime } from "../realtime/push";
import { adminOnlyRoom } from "../realtime/push";
import { AVAILABILITY_ERRORS } from "../plugins/availability";
import type { IsEnabledResult } from "@openatende/plugin-sdk";

export interface ConnectionRow {
  id: number;
  tenantId: number;
  name: string;
  type: string;
  status: string;
  isDefault: boolean;
  greeting: string | null;
  farewell: string | null;
  token: string;
  queueId: number | null;
  settings: Record<string, unknown>;
  qrcode: string | null;
  retries: number;
  statusDetail: string | null;
  /** The major of the channel plugin the connection was made with: its traffic goes to "v<major>.<type>". Null: the newest (rows older than migration 0010). */
  pluginMajor: number | null;
  /** Why the platform stopped it (an error code: ERR_PLUGIN_DISABLED, ERR_PLUGIN_NOT_ALLOWED, ERR_LICENSE_TIER_REQUIRED, …); null when it did not. */
  inactiveReason: string | null;
  /** The status it had when stopped: re-enabling reconnects it unless it was disconnected. */
  resumeStatus: string | null;
  /** The admin wants it up: connected again at start and when its plugin comes back (outbox service). */
  keepConnected: boolean;
  createdAt?: Date;
  updatedAt?: Date;
}

class Connection extends Model<ConnectionRow, Partial<ConnectionRow>> {}

function defineConnection(sequelize: Sequelize): typeof Connection {
  if (!sequelize.models.Connection) {
    Connection.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        name: { type: DataTypes.STRING(100), allowNull: false },
        type: { type: DataTypes.STRING(64), allowNull: false },
        status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "disconnected" },
        isDefault: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        greeting: { type: DataTypes.TEXT, allowNull: true },
        farewell: { type: DataTypes.TEXT, allowNull: true },
        token: { type: DataTypes.STRING(64), allowNull: false },
        queueId: { type: DataTypes.INTEGER, allowNull: true },
        settings: jsonColumn<Record<string, unknown>>("settings", {}),
        qrcode: { type: DataTypes.TEXT, allowNull: true },
        retries: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        statusDetail: { type: DataTypes.STRING(255), allowNull: true },
        pluginMajor: { type: DataTypes.INTEGER, allowNull: true },
        inactiveReason: { type: DataTypes.STRING(64), allowNull: true },
        resumeStatus: { type: DataTypes.STRING(16), allowNull: true },
        keepConnected: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "Connection", tableName: "connections" },
    );
  }
  return sequelize.models.Connection as typeof Connection;
}

/** Words that confirm a deletion besides the connection's own name (spec §5: EXCLUIR / DELETE). */
interface ChannelPlugin {
  id: string;
  service: string;
  major: number;
  settingsSchema?: Record<string, unknown>;
}

/** Statuses a connection is running in (reconnected when its plugin is enabled again). */
const RUNNING = new Set(["connected", "connecting", "pairing", "qrcode", "timeout", "conflict"]);

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

  function view(c: Connection, full: boolean) {
    const r = c.get({ plain: true }) as ConnectionRow;
    const base = { id: r.id, name: r.name, type: r.type, status: r.status, isDefault: !!r.isDefault, queueId: r.queueId, updatedAt: r.updatedAt, pluginMajor: r.pluginMajor ?? null, inactiveReason: r.inactiveReason ?? null };
    if (!full) return base;
    const settings = Object.fromEntries(Object.entries(r.settings ?? {}).map(([k, v]) => [k, SECRET.test(k) && v ? "********" : v]));
    return { ...base, greeting: r.greeting, farewell: r.farewell, token: r.token, settings, qrcode: r.qrcode, retries: r.retries, statusDetail: r.statusDetail, createdAt: r.createdAt };
  }

  /**
   * The channel plugin of a type for the tenant: the newest major, or `major` (a connection's
   * pinned one). Refused with the reason's code (ERR_PLUGIN_NOT_ALLOWED, ERR_PLUGIN_DISABLED,
   * ERR_LICENSE_TIER_REQUIRED, ERR_PLUGIN_VERSION_UNAVAILABLE…) when the tenant may not use it.
   */
  async function channelFor(ctx: Ctx, type: string, tenantId: number, major?: number | null): Promise<ChannelPlugin> {
    return (await ctx.call("plugins.channelFor", { type, tenantId, major: major ?? undefined })) as ChannelPlugin;
  }

  /**
   * Views of connections whose plugin the tenant may not use now show as inactive with the
   * reason, also when nothing stopped them yet (a licence that expired, a plugin gone).
   */
  async function markUnavailable(ctx: Ctx, tenantId: number, views: Array<{ type: string; status: string; pluginMajor: number | null; inactiveReason: string | null }>) {
    const verdicts = new Map<string, Promise<IsEnabledResult | null>>();
    for (const v of views) {
      if (v.inactiveReason) continue;
      const key = `${v.type}@${v.pluginMajor ?? ""}`;
      if (!verdicts.has(key)) {
        verdicts.set(key, (ctx.call("plugins.availability", { tenantId, id: v.type, major: v.pluginMajor ?? undefined }) as Promise<IsEnabledResult>).catch(() => null));
      }
      const verdict = await verdicts.get(key)!;
      if (verdict && !verdict.enabled) Object.assign(v, { status: "inactive", inactiveReason: AVAILABILITY_ERRORS[verdict.reason!] });
    }
    return views;
  }

  function validateSettings(plugin: ChannelPlugin, settings: Record<string, unknown>) {
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
  }

  async function checkQueue(ctx: Ctx, tenantId: number, queueId: number | null | undefined) {
    if (!queueId) return;
    const found = (await ctx.call("queues.existing", { tenantId, ids: [queueId] })) as number[];
    if (!found.length) throw new AppError("ERR_QUEUE_NOT_FOUND", { field: "queueId" });
  }

  const uniqueName = (err: unknown) => (err instanceof UniqueConstraintError ? new AppError("ERR_CONNECTION_NAME_IN_USE", { field: "name" }) : err);

  return {
    name: "connections",
    mixins: [tenantDbMixin(deps.sequelize, model)],
    settings: { rest: "/" },
    actions: {
      list: {
        rest: "GET /connections",
        access: "user",
        async handler(this: any, ctx: Ctx) {
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
        async handler(this: any, ctx: Ctx<{ id: number }>) {
          const c: Connection = await this.findOwned(ctx, ctx.params.id, "ERR_CONNECTION_NOT_FOUND");
          return (await markUnavailable(ctx, c.get("tenantId") as number, [view(c, isAdmin(ctx.meta.user))]))[0];
        },
      },
      create: {
        rest: "POST /connections",
        access: "admin",
        params: { ...fields, type: { type: "string", min: 1, max: 64 } },
        async handler(this: any, ctx: Ctx<Partial<ConnectionRow> & { type: string; name: string }>) {
          const tenantId = this.tenantOf(ctx);
          const p = ctx.params;
          const plugin = await channelFor(ctx, p.type, tenantId);
          const settings = { ...(p.settings ?? {}) };
          validateSettings(plugin, settings);
          await checkQueue(ctx, tenantId, p.queueId);
          const limits = (await ctx.call("licence.limits", { tenantId })) as PlanLimits;
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
          ctx.emit("connections.changed", { tenantId, connectionId: created.get("id") });
          return view(created, true);
        },
      },
      update: {
        rest: "PUT /connections/:id",
        access: "admin",
        resource: "connections",
        params: { ...idParam, ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { ...v, optional: true }])) },
        async handler(this: any, ctx: Ctx<Partial<ConnectionRow> & { id: number }>) {
          const c: Connection = await this.findOwned(ctx, ctx.params.id, "ERR_CONNECTION_NOT_FOUND");
          const row = c.get({ plain: true }) as ConnectionRow;
          const p = ctx.params;
          const patch: Partial<ConnectionRow> = {};
          for (const k of ["name", "greeting", "farewell", "queueId"] as const) if (p[k] !== undefined) (patch as Record<string, unknown>)[k] = p[k];
          if (p.queueId !== undefined) await checkQueue(ctx, row.tenantId, p.queueId);
          if (p.settings !== undefined) {
            const plugin = await channelFor(ctx, row.type, row.tenantId, row.pluginMajor);
            // Masked secrets sent back unchanged keep the stored value.
            const merged = { ...row.settings, ...Object.fromEntries(Object.entries(p.settings).filter(([, v]) => v !== "********")) };
            validateSettings(plugin, merged);
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
          ctx.emit("connections.changed", { tenantId: row.tenantId, connectionId: row.id });
          return view(c, true);
        },
      },
      remove: {
        rest: "DELETE /connections/:id",
        access: "admin",
        resource: "connections",
        params: { ...idParam, confirmation: { type: "string", optional: true, max: 100 } },
        async handler(this: any, ctx: Ctx<{ id: number; confirmation?: string }>) {
          const c: Connection = await this.findOwned(ctx, ctx.params.id, "ERR_CONNECTION_NOT_FOUND");
          const row = c.get({ plain: true }) as ConnectionRow;
          const typed = (ctx.params.confirmation ?? "").trim();
          if (!confirmsDeletion(typed, row.name)) {
            throw new AppError("ERR_CONNECTION_DELETE_CONFIRMATION", { field: "confirmation" });
          }
          // Stop the channel first; a plugin that is gone must not keep the row alive.
          try {
            const plugin = (await ctx.call("plugins.channelFor", { type: row.type, major: row.pluginMajor ?? undefined })) as ChannelPlugin;
            await ctx.call(`${plugin.service}.disconnect`, { tenantId: row.tenantId, connectionId: row.id });
          } catch (err) {
            this.logger.warn(`connection ${row.id}: disconnect before delete failed: ${(err as Error).message}`);
          }
          await c.destroy();
          ctx.emit("connections.changed", { tenantId: row.tenantId, connectionId: row.id, deleted: true });
          return { id: row.id, deleted: true };
        },
      },
      connect: {
        rest: "POST /connections/:id/connect",
        access: "admin",
        resource: "connections",
        params: idParam,
        async handler(this: any, ctx: Ctx<{ id: number }>) {
          const c: Connection = await this.findOwned(ctx, ctx.params.id, "ERR_CONNECTION_NOT_FOUND");
          const row = c.get({ plain: true }) as ConnectionRow;
          const plugin = await channelFor(ctx, row.type, row.tenantId, row.pluginMajor);
          await this.connectWith(ctx, c, plugin);
          return view((await model.findByPk(row.id))!, true);
        },
      },
      disconnect: {
        rest: "POST /connections/:id/disconnect",
        access: "admin",
        resource: "connections",
        params: idParam,
        async handler(this: any, ctx: Ctx<{ id: number }>) {
          const c: Connection = await this.findOwned(ctx, ctx.params.id, "ERR_CONNECTION_NOT_FOUND");
          const row = c.get({ plain: true }) as ConnectionRow;
          const plugin = await channelFor(ctx, row.type, row.tenantId, row.pluginMajor);
          await c.update({ keepConnected: false });
          const res = (await ctx.call(`${plugin.service}.disconnect`, { tenantId: row.tenantId, connectionId: row.id })) as { status?: string };
          await this.applyStatus(ctx, row.tenantId, row.id, res?.status ?? "disconnected");
          return view((await model.findByPk(row.id))!, true);
        },
      },
      test: {
        rest: "POST /connections/test",
        access: "admin",
        params: { type: { type: "string", min: 1, max: 64 }, settings: { type: "object" } },
        async handler(this: any, ctx: Ctx<{ type: string; settings: Record<string, unknown> }>) {
          const tenantId = this.tenantOf(ctx);
          const plugin = await channelFor(ctx, ctx.params.type, tenantId);
          validateSettings(plugin, ctx.params.settings);
          return ctx.call(`${plugin.service}.test`, { tenantId, settings: ctx.params.settings });
        },
      },
      transfer: {
        rest: "POST /connections/transfer",
        access: "admin",
        params: {
          fromConnectionId: { type: "number", integer: true, positive: true, convert: true },
          toConnectionId: { type: "number", integer: true, positive: true, convert: true },
        },
        async handler(this: any, ctx: Ctx<{ fromConnectionId: number; toConnectionId: number }>) {
          const { fromConnectionId, toConnectionId } = ctx.params;
          if (fromConnectionId === toConnectionId) throw new AppError("ERR_CONNECTION_TRANSFER_SAME", { field: "toConnectionId" });
          const tenantId = this.tenantOf(ctx);
          await this.findOwned(ctx, fromConnectionId, "ERR_CONNECTION_NOT_FOUND");
          await this.findOwned(ctx, toConnectionId, "ERR_CONNECTION_NOT_FOUND");
          const moved = (await ctx.call("tickets.moveConnection", { tenantId, fromConnectionId, toConnectionId })) as { moved: number };
          return { fromConnectionId, toConnectionId, moved: moved.moved };
        },
      },

      // --- internal -------------------------------------------------------------------------
      getInternal: {
        visibility: "public",
        params: { id: { type: "number", integer: true, positive: true } },
        async handler(ctx: Ctx<{ id: number }>) {
          const c = await model.findByPk(ctx.params.id);
          return c ? (c.get({ plain: true }) as ConnectionRow) : null;
        },
      },
      defaultFor: {
        visibility: "public",
        params: { tenantId: "number" },
        async handler(ctx: Ctx<{ tenantId: number }>) {
          const c =
            (await model.findOne({ where: { tenantId: ctx.params.tenantId, isDefault: true } })) ??
            (await model.findOne({ where: { tenantId: ctx.params.tenantId }, order: [["id", "ASC"]] }));
          return c ? (c.get({ plain: true }) as ConnectionRow) : null;
        },
      },
      byToken: {
        visibility: "public",
        params: { token: { type: "string", min: 10, max: 64 } },
        async handler(ctx: Ctx<{ token: string }>) {
          const c = await model.findOne({ where: { token: ctx.params.token } });
          return c ? (c.get({ plain: true }) as ConnectionRow) : null;
        },
      },
      /** Connects a connection again on the platform's behalf (the outbox service: at start, and when its plugin is back). */
      connectInternal: {
        visibility: "public",
        params: { id: { type: "number", integer: true, positive: true } },
        async handler(this: any, ctx: Ctx<{ id: number }>) {
          const c = await model.findByPk(ctx.params.id);
          if (!c) throw new AppError("ERR_CONNECTION_NOT_FOUND", { id: ctx.params.id });
          const row = c.get({ plain: true }) as ConnectionRow;
          const plugin = await channelFor(ctx, row.type, row.tenantId, row.pluginMajor);
          await this.connectWith(ctx, c, plugin);
          return { id: row.id, status: (await model.findByPk(row.id))?.get("status") };
        },
      },
      /** Every connection of a channel type, with what the outbox service needs. */
      byType: {
        visibility: "public",
        params: { type: { type: "string", min: 1, max: 64 } },
        async handler(ctx: Ctx<{ type: string }>) {
          const rows = await model.findAll({ where: { type: ctx.params.type }, attributes: ["id", "tenantId", "type", "status", "keepConnected", "inactiveReason", "pluginMajor"], order: [["id", "ASC"]] });
          return rows.map((r) => ({
            id: r.get("id"),
            tenantId: r.get("tenantId"),
            type: r.get("type"),
            status: r.get("status"),
            pluginMajor: r.get("pluginMajor") ?? null,
            // Stopped by the platform (plugin disabled, …): the plugin switches bring it back, not this.
            keepConnected: !!r.get("keepConnected") && !r.get("inactiveReason"),
          }));
        },
      },
      setStatus: {
        visibility: "public",
        params: { tenantId: "number", connectionId: "number", status: "string", qrcode: { type: "string", optional: true }, detail: { type: "string", optional: true } },
        async handler(this: any, ctx: Ctx<{ tenantId: number; connectionId: number; status: string; qrcode?: string; detail?: string }>) {
          return this.applyStatus(ctx, ctx.params.tenantId, ctx.params.connectionId, ctx.params.status, ctx.params.qrcode, ctx.params.detail);
        },
      },
      /**
       * After a plugin's availability changed for a tenant (switched, allowed or disallowed, a
       * new licence): connections it may no longer use are told to stop and marked "inactive"
       * with the reason's code; connections stopped that way whose plugin is usable again
       * come back: reconnected when they were running, "disconnected" otherwise.
       */
      reconcilePlugins: {
        visibility: "public",
        params: { tenantId: { type: "number", integer: true, positive: true }, pluginId: { type: "string", optional: true, max: 64 } },
        async handler(this: any, ctx: Ctx<{ tenantId: number; pluginId?: string }>) {
          const { tenantId, pluginId } = ctx.params;
          const rows = await model.findAll({ where: { tenantId, ...(pluginId ? { type: pluginId } : {}) }, order: [["id", "ASC"]] });
          const verdicts = new Map<string, IsEnabledResult>();
          const out = { stopped: [] as number[], resumed: [] as number[] };
          for (const c of rows) {
            const r = c.get({ plain: true }) as ConnectionRow;
            const key = `${r.type}@${r.pluginMajor ?? ""}`;
            if (!verdicts.has(key)) verdicts.set(key, (await ctx.call("plugins.availability", { tenantId, id: r.type, major: r.pluginMajor ?? undefined })) as IsEnabledResult);
            const verdict = verdicts.get(key)!;
            if (!verdict.enabled) {
              const reason = AVAILABILITY_ERRORS[verdict.reason!];
              if (r.inactiveReason === reason) continue;
              if (!r.inactiveReason) {
                // The plugin stops its side (polling, sockets) when it is still there to ask.
                try {
                  const plugin = (await ctx.call("plugins.channelFor", { type: r.type, major: r.pluginMajor ?? undefined })) as ChannelPlugin;
                  await ctx.call(`${plugin.service}.disconnect`, { tenantId, connectionId: r.id });
                } catch (err) {
                  this.logger.warn(`connection ${r.id}: disconnect on ${reason} failed: ${(err as Error).message}`);
                }
              }
              await c.update({ status: "inactive", inactiveReason: reason, resumeStatus: r.inactiveReason ? r.resumeStatus : r.status, qrcode: null, statusDetail: null });
              this.pushStatus(ctx, tenantId, r.id, "inactive", undefined, undefined, reason);
              out.stopped.push(r.id);
            } else if (r.inactiveReason) {
              await c.update({ status: "disconnected", inactiveReason: null, resumeStatus: null, statusDetail: null });
              out.resumed.push(r.id);
              if (!RUNNING.has(r.resumeStatus ?? "")) {
                this.pushStatus(ctx, tenantId, r.id, "disconnected");
                continue;
              }
              try {
                const plugin = await channelFor(ctx, r.type, tenantId, r.pluginMajor);
                await this.connectWith(ctx, c, plugin);
              } catch (err) {
                this.logger.warn(`connection ${r.id}: reconnect failed: ${(err as Error).message}`);
                await this.applyStatus(ctx, tenantId, r.id, "disconnected", undefined, (err as Error).message);
              }
            }
          }
          return out;
        },
      },
    },
    methods: {
      /** Asks the plugin to connect `c` and records the answer; pins the major when the row has none yet. */
      async connectWith(this: any, ctx: Ctx, c: Connection, plugin: ChannelPlugin) {
        const row = c.get({ plain: true }) as ConnectionRow;
        await c.update({ status: "connecting", keepConnected: true, inactiveReason: null, resumeStatus: null, ...(row.pluginMajor == null ? { pluginMajor: plugin.major } : {}) });
        const res = (await ctx.call(`${plugin.service}.connect`, {
          tenantId: row.tenantId,
          connectionId: row.id,
          settings: row.settings,
          token: row.token,
          publicUrl: deps.config.publicUrl,
          dataDir: deps.config.dataDir,
        })) as {
          status: string;
          qrcode?: string;
          detail?: string;
        };
        // The plugin may have reported a newer status while connect ran (a session that opened
        // at once, a QR already shown): its answer only stands while the row still says
        // "connecting", as set above, so a late answer never takes a live status back.
        await this.applyStatus(ctx, row.tenantId, row.id, res.status, res.qrcode, res.detail, "connecting");
        if (row.pluginMajor == null) ctx.emit("connections.changed", { tenantId: row.tenantId, connectionId: row.id });
      },
      /** The tenant's admins hear a connection's status live. */
      pushStatus(ctx: Ctx, tenantId: number, connectionId: number, status: string, qrcode?: string, detail?: string, inactiveReason?: string) {
        // Admins only (not supervisors): the event carries the QR code that links a session,
        // which the API shows to admins only.
        const payload = { action: "update", session: { id: connectionId, status, qrcode: status === "qrcode" ? qrcode : undefined, detail, inactiveReason: inactiveReason ?? null } };
        pushRealtime(ctx, { rooms: [adminOnlyRoom(tenantId)], event: `${tenantId}:connectionStatus`, payload });
        // The old, channel-named event: an alias until the shell moves (clients built before the rename).
        pushRealtime(ctx, { rooms: [adminOnlyRoom(tenantId)], event: `${tenantId}:whatsappSession`, payload });
      },
      /** Records a status and pushes it; with `onlyIf`, only while the row's status is still that one (checked in the UPDATE itself). */
      async applyStatus(this: any, ctx: Ctx, tenantId: number, connectionId: number, status: string, qrcode?: string, detail?: string, onlyIf?: string) {
        // Found first: MariaDB counts only changed rows, and a repeated status changes none.
        const c = await model.findOne({ where: { id: connectionId, tenantId } });
        if (!c) throw new AppError("ERR_CONNECTION_NOT_FOUND", { id: connectionId });
        // Stopped by the platform: the plugin's late reports do not bring it back.
        if (c.get("inactiveReason")) return { id: connectionId, status: c.get("status") as string, ignored: true };
        const values = { status, qrcode: status === "qrcode" ? (qrcode ?? null) : null, statusDetail: detail?.slice(0, 255) ?? null };
        if (onlyIf !== undefined) {
          if (c.get("status") !== onlyIf) return { id: connectionId, status: c.get("status") as string, ignored: true };
          const [n] = await model.update(values, { where: { id: connectionId, tenantId, status: onlyIf } });
          const now = n ? null : await model.findOne({ where: { id: connectionId, tenantId }, attributes: ["status"] });
          if (now && now.get("status") !== status) return { id: connectionId, status: now.get("status") as string, ignored: true };
          this.pushStatus(ctx, tenantId, connectionId, status, qrcode, detail);
          return { id: connectionId, status };
        }
        await c.update(values);
        this.pushStatus(ctx, tenantId, connectionId, status, qrcode, detail);
        return { id: connectionId, status };
      },
    },
  };
}
