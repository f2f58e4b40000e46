/**
 * The live service panel (spec §2 /painel-atendimentos), a plugin of kind "report": a wall-board
 * of the tenant's queues — per queue the tickets waiting (pending) and in service (open), the
 * longest wait, and the agents online — for supervisors and admins of a BASIC tenant.
 *
 * It reads its own projection (projection.ts: the waiting and in-service tickets), filled lazily
 * on the tenant's first read and kept by ticket events; who is online comes from the core's users
 * at read time. Each change (a ticket event, a user going online or offline) is pushed to the
 * tenant's admins and supervisors as `plugin:report-panel:board.changed`; the open panels read the
 * board again. It is not a /relatorios page (it has its own route and menu entry), so it declares
 * no report pages: GET /painel-atendimentos/board and POST /painel-atendimentos/rebuild.
 */
import type { Context } from "moleculer";
import { coreApi, definePlugin, openPluginData, type PlatformEventEnvelope, type TenantData } from "@openatende/plugin-sdk";
import { Projection } from "@openatende/report-kit";
import { buildBoard } from "./board";
import { liveTickets, fromDb, liveTicketsSource, LIVE_STATUSES, refresh, tombstone } from "./projection";

export const CODE_PREFIX = "ERR_REPORT_PANEL";
export const API_BASE = "/painel-atendimentos";
export const BOARD_CHANGED = "board.changed";

type Meta = { user?: { id: number; tenantId: number; profile: string } };
type Ctx = Context<Record<string, unknown>, Meta>;

interface Self {
  projection: Projection;
  clock: { now(): number };
}
const self = (svc: unknown) => svc as Self;

function tenantOf(ctx: Ctx): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw Object.assign(new Error("ERR_SESSION_REQUIRED"), { type: "ERR_SESSION_REQUIRED", code: 401, data: {} });
  return t;
}

/** Tells the tenant's open panels to read the board again (a lost push only delays a figure). */
async function announce(ctx: Context, tenantId: number): Promise<void> {
  await coreApi(ctx)
    .realtime.push({ tenantId, event: BOARD_CHANGED, payload: {}, to: { admins: true } })
    .catch((err: Error) => ctx.service?.logger.warn(`panel push for tenant ${tenantId}: ${err.message}`));
}

export const reportPanelPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/" },
    async started() {
      const s = self(this);
      s.clock = s.clock ?? { now: () => Date.now() };
      const data = await openPluginData(this);
      // A wall-board asks again every few seconds while its projection fills: it is told at once how far.
      s.projection = new Projection(data, liveTicketsSource, () => coreApi(this), { codePrefix: CODE_PREFIX, now: () => s.clock.now(), waitMs: 2000 });
    },
    actions: {
      /** Per queue and in total: waiting, in service, the longest wait (and since when), agents online. */
      board: {
        rest: `GET ${API_BASE}/board`,
        access: "supervisor",
        tier: "BASIC",
        params: {},
        async handler(ctx: Ctx) {
          const tenantId = tenantOf(ctx);
          const svc = self(this);
          const api = coreApi(ctx);
          const [queues, users] = await Promise.all([api.queues.list({ tenantId }), api.users.list({ tenantId }), svc.projection.ready(tenantId)]);
          const rows = await liveTickets(svc.projection.tenant(tenantId)).find({ deleted: false, status: [...LIVE_STATUSES] });
          return buildBoard(queues, users, rows.map(fromDb), svc.clock.now());
        },
      },
      /** Empties the tenant's projection and fills it again from the core (after a time the plugin was off). */
      rebuild: {
        rest: `POST ${API_BASE}/rebuild`,
        access: "admin",
        tier: "BASIC",
        params: {},
        async handler(ctx: Ctx) {
          const tenantId = tenantOf(ctx);
          // The open panels read again when it starts (they show "rebuilding… x%") and when it is done.
          const state = await self(this).projection.rebuild(tenantId, () => announce(ctx, tenantId));
          await announce(ctx, tenantId);
          return state;
        },
      },
    },
  },
  platformEvents: {
    "ticket.created": (e: PlatformEventEnvelope<"ticket.created">, ctx: Context) => ticketEvent(ctx, e, e.data.ticket.id),
    "ticket.statusChanged": (e: PlatformEventEnvelope<"ticket.statusChanged">, ctx: Context) => ticketEvent(ctx, e, e.data.ticket.id),
    "ticket.transferred": (e: PlatformEventEnvelope<"ticket.transferred">, ctx: Context) => ticketEvent(ctx, e, e.data.ticket.id),
    "ticket.closed": (e: PlatformEventEnvelope<"ticket.closed">, ctx: Context) => ticketEvent(ctx, e, e.data.ticket.id),
    async "ticket.deleted"(e: PlatformEventEnvelope<"ticket.deleted">, ctx: Context) {
      const r = await self(ctx.service).projection.onEvent(e, (tx: TenantData) => tombstone(tx, e.data.ticketId));
      if (r === "applied") await announce(ctx, e.tenantId);
    },
    /** A user online or offline (or their queues changed): the online figures are read at each board read. */
    async "user.changed"(e: PlatformEventEnvelope<"user.changed">, ctx: Context) {
      await announce(ctx, e.tenantId);
    },
  },
});

async function ticketEvent(ctx: Context, e: PlatformEventEnvelope, ticketId: number): Promise<void> {
  const api = coreApi(ctx);
  const r = await self(ctx.service).projection.onEvent(e, (tx: TenantData) => refresh(api, tx, ticketId));
  if (r === "applied") await announce(ctx, e.tenantId);
}

export default reportPanelPlugin;
