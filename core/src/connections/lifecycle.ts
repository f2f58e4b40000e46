import type { Service } from "moleculer";
import { callChannel, type ChannelForResult, type IsEnabledResult } from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { call, emit } from "../bus/call";
import { pushRealtime, adminOnlyRoom } from "../realtime/push";
import { AVAILABILITY_ERRORS } from "../plugins/contract";
import type { Connection, ConnectionRow } from "./model";
import type { StatusApplied } from "./contract";

/** Statuses a connection is running in (reconnected when its plugin is enabled again). */
const RUNNING = new Set(["connected", "connecting", "pairing", "qrcode", "timeout", "conflict"]);

/** What a connection's view carries that availability may change. */
type AvailabilityView = { type: string; status: string; pluginMajor: number | null; inactiveReason: string | null };

/**
 * A connection's life with its channel plugin: which plugin serves it, connecting it,
 * recording and pushing the statuses the plugin reports, and stopping or resuming it when
 * the tenant may no longer (or again) use the plugin.
 */
export function connectionLifecycle(deps: CoreDeps, model: typeof Connection) {
  /**
   * The channel plugin of a type for the tenant: the newest major, or `major` (a connection's
   * pinned one). Refused with the reason's code (ERR_PLUGIN_NOT_ALLOWED, ERR_PLUGIN_DISABLED,
   * ERR_LICENSE_TIER_REQUIRED, ERR_PLUGIN_VERSION_UNAVAILABLE…) when the tenant may not use it.
   */
  function channelFor(ctx: Ctx, type: string, tenantId: number, major?: number | null): Promise<ChannelForResult> {
    return call(ctx, "plugins.channelFor", { type, tenantId, major: major ?? undefined });
  }

  /**
   * Views of connections whose plugin the tenant may not use now show as inactive with the
   * reason, also when nothing stopped them yet (a licence that expired, a plugin gone).
   */
  async function markUnavailable<V extends AvailabilityView>(ctx: Ctx, tenantId: number, views: V[]): Promise<V[]> {
    const verdicts = new Map<string, Promise<IsEnabledResult | null>>();
    for (const v of views) {
      if (v.inactiveReason) continue;
      const key = `${v.type}@${v.pluginMajor ?? ""}`;
      if (!verdicts.has(key)) verdicts.set(key, call(ctx, "plugins.availability", { tenantId, id: v.type, major: v.pluginMajor ?? undefined }).catch(() => null));
      const verdict = await verdicts.get(key)!;
      if (verdict && !verdict.enabled) Object.assign(v, { status: "inactive", inactiveReason: AVAILABILITY_ERRORS[verdict.reason!] });
    }
    return views;
  }

  /** The tenant's admins hear a connection's status live. */
  function pushStatus(ctx: Ctx, tenantId: number, connectionId: number, status: string, qrcode?: string, detail?: string, inactiveReason?: string) {
    // Admins only (not supervisors): the event carries the QR code that links a session,
    // which the API shows to admins only.
    const payload = { action: "update", session: { id: connectionId, status, qrcode: status === "qrcode" ? qrcode : undefined, detail, inactiveReason: inactiveReason ?? null } };
    pushRealtime(ctx, { rooms: [adminOnlyRoom(tenantId)], event: `${tenantId}:connectionStatus`, payload });
    // The old, channel-named event: an alias until the shell moves (clients built before the rename).
    pushRealtime(ctx, { rooms: [adminOnlyRoom(tenantId)], event: `${tenantId}:whatsappSession`, payload });
  }

  /** Records a status and pushes it; with `onlyIf`, only while the row's status is still that one (checked in the UPDATE itself). */
  async function applyStatus(ctx: Ctx, tenantId: number, connectionId: number, status: string, qrcode?: string, detail?: string, onlyIf?: string): Promise<StatusApplied> {
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
      pushStatus(ctx, tenantId, connectionId, status, qrcode, detail);
      return { id: connectionId, status };
    }
    await c.update(values);
    pushStatus(ctx, tenantId, connectionId, status, qrcode, detail);
    return { id: connectionId, status };
  }

  /** Asks the plugin to connect `c` and records the answer; pins the major when the row has none yet. */
  async function connectWith(ctx: Ctx, c: Connection, plugin: ChannelForResult): Promise<void> {
    const row = c.get({ plain: true }) as ConnectionRow;
    await c.update({ status: "connecting", keepConnected: true, inactiveReason: null, resumeStatus: null, ...(row.pluginMajor == null ? { pluginMajor: plugin.major } : {}) });
    const res = await callChannel(ctx, plugin.service, "connect", {
      tenantId: row.tenantId,
      connectionId: row.id,
      settings: row.settings,
      token: row.token,
      publicUrl: deps.config.publicUrl,
      dataDir: deps.config.dataDir,
    });
    // The plugin may have reported a newer status while connect ran (a session that opened
    // at once, a QR already shown): its answer only stands while the row still says
    // "connecting", as set above, so a late answer never takes a live status back.
    await applyStatus(ctx, row.tenantId, row.id, res.status, res.qrcode, res.detail, "connecting");
    if (row.pluginMajor == null) void emit(ctx, "connections.changed", { tenantId: row.tenantId, connectionId: row.id });
  }

  /** Tells the connection's plugin (any major it may be on, the tenant's rights aside) to stop it. */
  async function disconnectAtPlugin(ctx: Ctx, row: Pick<ConnectionRow, "id" | "tenantId" | "type" | "pluginMajor">): Promise<void> {
    const plugin = await call(ctx, "plugins.channelFor", { type: row.type, major: row.pluginMajor ?? undefined });
    await callChannel(ctx, plugin.service, "disconnect", { tenantId: row.tenantId, connectionId: row.id });
  }

  /**
   * After a plugin's availability changed for a tenant (switched, allowed or disallowed, a
   * new licence): connections it may no longer use are told to stop and marked "inactive"
   * with the reason's code; connections stopped that way whose plugin is usable again
   * come back: reconnected when they were running, "disconnected" otherwise.
   */
  async function reconcile(ctx: Ctx, logger: Service["logger"], tenantId: number, pluginId?: string) {
    const rows = await model.findAll({ where: { tenantId, ...(pluginId ? { type: pluginId } : {}) }, order: [["id", "ASC"]] });
    const verdicts = new Map<string, IsEnabledResult>();
    const out = { stopped: [] as number[], resumed: [] as number[] };
    for (const c of rows) {
      const r = c.get({ plain: true }) as ConnectionRow;
      const key = `${r.type}@${r.pluginMajor ?? ""}`;
      if (!verdicts.has(key)) verdicts.set(key, await call(ctx, "plugins.availability", { tenantId, id: r.type, major: r.pluginMajor ?? undefined }));
      const verdict = verdicts.get(key)!;
      if (!verdict.enabled) {
        const reason = AVAILABILITY_ERRORS[verdict.reason!];
        if (r.inactiveReason === reason) continue;
        if (!r.inactiveReason) {
          // The plugin stops its side (polling, sockets) when it is still there to ask.
          try {
            await disconnectAtPlugin(ctx, r);
          } catch (err) {
            logger.warn(`connection ${r.id}: disconnect on ${reason} failed: ${(err as Error).message}`);
          }
        }
        await c.update({ status: "inactive", inactiveReason: reason, resumeStatus: r.inactiveReason ? r.resumeStatus : r.status, qrcode: null, statusDetail: null });
        pushStatus(ctx, tenantId, r.id, "inactive", undefined, undefined, reason);
        out.stopped.push(r.id);
      } else if (r.inactiveReason) {
        await c.update({ status: "disconnected", inactiveReason: null, resumeStatus: null, statusDetail: null });
        out.resumed.push(r.id);
        if (!RUNNING.has(r.resumeStatus ?? "")) {
          pushStatus(ctx, tenantId, r.id, "disconnected");
          continue;
        }
        try {
          const plugin = await channelFor(ctx, r.type, tenantId, r.pluginMajor);
          await connectWith(ctx, c, plugin);
        } catch (err) {
          logger.warn(`connection ${r.id}: reconnect failed: ${(err as Error).message}`);
          await applyStatus(ctx, tenantId, r.id, "disconnected", undefined, (err as Error).message);
        }
      }
    }
    return out;
  }

  return { channelFor, markUnavailable, pushStatus, applyStatus, connectWith, disconnectAtPlugin, reconcile };
}
