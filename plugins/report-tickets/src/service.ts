/**
 * The tickets/SLA report (spec §2 /relatorios/relatorio-tickets), a plugin of kind "report":
 * the tenant's tickets searched by protocol, name, ticket or phone and filtered by status,
 * queue, attendant and period (default: the current month), paged for "load more", with the
 * summary cards against the SLA thresholds of the general settings, a chat view, and the
 * whole selection exported as Excel or PDF, streamed.
 *
 * It reads its own projection (projection.ts), filled lazily for a tenant on its first report
 * query (the core tells a plugin of no install or enable) and kept by ticket and contact events.
 * Routes under /api/relatorios/tickets/… for supervisors and admins of a BASIC tenant; rebuild
 * for admins. The clock the SLA classes are counted at is `this.clock` (tests move it).
 */
import type { Context } from "moleculer";
import { coreApi, definePlugin, openPluginData, reportMetadata, type CoreApi, type PlatformEventEnvelope, type PlatformTicket, type TenantData } from "@openatende/plugin-sdk";
import { allRows, pageOf, type TicketFilters } from "./query";
import { summaryInSql } from "./summary-sql";
import { answerDownload, Projection, readSla, reportPeriod, streamPdf, streamXlsx } from "@openatende/report-kit";
import { contactChanged, eventRow, tombstone, TICKET_STATUSES, ticketsSource, ticketsTable, writeRows, type TicketStatus } from "./projection";
import { EXPORT_TEXTS, exportTexts } from "./texts";
import { exportColumns, exportRow, namesOf, viewOf } from "./view";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json") as { platform: { id: string } };

export const CODE_PREFIX = "ERR_REPORT_TICKETS";
const API_BASE = "/relatorios/tickets";

type Meta = { user?: { id: number; tenantId: number; profile: string }; locale?: string };
type Ctx<P = Record<string, unknown>> = Context<P, Meta>;

interface FilterParams {
  search?: string;
  status?: string;
  queueIds?: string;
  userIds?: string;
  from?: string;
  to?: string;
  tz?: string;
}

const idList = { type: "string", optional: true, max: 1000, pattern: /^(\d{1,10}(,\d{1,10})*)?$/ } as const;
const FILTER_PARAMS = {
  search: { type: "string", optional: true, trim: true, max: 100 },
  status: { type: "string", optional: true, max: 100, pattern: new RegExp(`^((${TICKET_STATUSES.join("|")})(,(${TICKET_STATUSES.join("|")}))*)?$`) },
  queueIds: idList,
  userIds: idList,
  from: { type: "string", optional: true, max: 10 },
  to: { type: "string", optional: true, max: 10 },
  tz: { type: "string", optional: true, max: 64 },
} as const;

const route = (op: string, method = "GET", access: "supervisor" | "admin" = "supervisor") => ({ rest: `${method} ${API_BASE}/${op}`, access, tier: "BASIC" as const });
const list = (s?: string) => (s ? s.split(",").map(Number) : undefined);

function tenantOf(ctx: Ctx<unknown>): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw Object.assign(new Error("ERR_SESSION_REQUIRED"), { type: "ERR_SESSION_REQUIRED", code: 401, data: {} });
  return t;
}

interface Self {
  projection: Projection;
  clock: { now(): number };
}
const me = (svc: unknown) => svc as Self;

/** The tickets a search names: its number as a ticket id, and what the core's search finds by name, number or protocol. */
async function searchIds(api: CoreApi, tenantId: number, q: string): Promise<number[]> {
  const ids = new Set<number>();
  if (/^\d{1,9}$/.test(q)) ids.add(Number(q));
  if (q.length >= 2) {
    for (let page = 1; page <= 10; page++) {
      const r = await api.tickets.list({ tenantId, search: q, status: [...TICKET_STATUSES], page, limit: 100 });
      for (const t of r.rows) ids.add(t.id);
      if (!r.hasMore) break;
    }
  }
  return [...ids];
}

async function filtersOf(ctx: Ctx<FilterParams>, tenantId: number, now: number): Promise<TicketFilters> {
  const p = ctx.params;
  const period = reportPeriod({ from: p.from, to: p.to, tz: p.tz }, now, CODE_PREFIX);
  const f: TicketFilters = { period, status: p.status ? (p.status.split(",") as TicketStatus[]) : undefined, queueIds: list(p.queueIds), userIds: list(p.userIds) };
  if (p.search) f.ids = await searchIds(coreApi(ctx), tenantId, p.search);
  return f;
}

/** What every query of a tenant needs first: its projection filled, the names, the SLA thresholds. */
async function prepare(ctx: Ctx<FilterParams>) {
  const tenantId = tenantOf(ctx);
  const svc = me(ctx.service);
  const now = svc.clock.now();
  const api = coreApi(ctx);
  const [filters, , queues, users, settings] = await Promise.all([filtersOf(ctx, tenantId, now), svc.projection.ready(tenantId), api.queues.list({ tenantId }), api.users.list({ tenantId }), api.settings.get({ tenantId })]);
  return { tenantId, now, filters, names: namesOf(queues, users), sla: readSla(settings), table: ticketsTable(svc.projection.tenant(tenantId)) };
}

export const reportTicketsPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/" },
    metadata: reportMetadata({
      pages: [
        {
          path: "relatorio-tickets",
          apiBase: API_BASE,
          title: { "pt-BR": EXPORT_TEXTS["pt-BR"].title, en: EXPORT_TEXTS.en.title, es: EXPORT_TEXTS.es.title, ru: EXPORT_TEXTS.ru.title },
          description: {
            "pt-BR": "Tickets do período com SLA, tempos e exportação",
            en: "Tickets of the period with SLA, times and export",
            es: "Tickets del período con SLA, tiempos y exportación",
            ru: "Тикеты за период: SLA, время и экспорт",
          },
          filters: [
            { key: "search", type: "search" },
            { key: "status", type: "enum", options: TICKET_STATUSES },
            { key: "queueIds", type: "queues" },
            { key: "userIds", type: "users" },
            { key: "from", type: "date" },
            { key: "to", type: "date" },
          ],
          exports: ["xlsx", "pdf"],
        },
      ],
      projection: { events: ["ticket.created", "ticket.statusChanged", "ticket.transferred", "ticket.closed", "ticket.deleted", "contact.changed"], tables: ["tickets"] },
    }),
    async started() {
      const self = me(this);
      self.clock = self.clock ?? { now: () => Date.now() };
      const data = await openPluginData(this);
      self.projection = new Projection(data, ticketsSource, () => coreApi(this), { codePrefix: CODE_PREFIX, now: () => self.clock.now() });
    },
    actions: {
      /** One page of the report's rows, newest first (`hasMore`: the UI's "load more"). */
      rows: {
        ...route("rows"),
        params: { ...FILTER_PARAMS, page: { type: "number", integer: true, min: 1, max: 100_000, convert: true, optional: true }, limit: { type: "number", integer: true, min: 1, max: 200, convert: true, optional: true } },
        async handler(ctx: Ctx<FilterParams & { page?: number; limit?: number }>) {
          const q = await prepare(ctx);
          const page = ctx.params.page ?? 1;
          const r = await pageOf(q.table, q.filters, page, ctx.params.limit ?? 50);
          return { page, hasMore: r.hasMore, period: q.filters.period, rows: r.rows.map((row) => viewOf(row, q.names, q.sla, q.now)) };
        },
      },
      /** The summary cards over the same filters. */
      summary: {
        ...route("summary"),
        params: FILTER_PARAMS,
        async handler(ctx: Ctx<FilterParams>) {
          const q = await prepare(ctx);
          return { period: q.filters.period, ...(await summaryInSql(q.table, q.filters, q.sla, q.now)) };
        },
      },
      /** The whole selection as Excel or PDF, streamed. */
      export: {
        ...route("export"),
        params: { ...FILTER_PARAMS, format: { type: "enum", values: ["xlsx", "pdf"] } },
        async handler(ctx: Ctx<FilterParams & { format: "xlsx" | "pdf" }>) {
          const q = await prepare(ctx);
          const t = exportTexts(ctx.meta.locale);
          const p = q.filters.period;
          const rows = (async function* () {
            for await (const r of allRows(q.table, q.filters)) yield exportRow(viewOf(r, q.names, q.sla, q.now), t, p.timeZone);
          })();
          const spec = { title: t.title, subtitle: `${t.period}: ${p.from.split("-").reverse().join("/")} – ${p.to.split("-").reverse().join("/")}`, columns: exportColumns(t), rows };
          const stream = ctx.params.format === "xlsx" ? streamXlsx(spec) : streamPdf(spec, { pageLabel: t.page });
          answerDownload(ctx, ctx.params.format, `${t.title} ${p.from} ${p.to}.${ctx.params.format}`);
          return stream;
        },
      },
      /** Empties the tenant's projection and fills it again from the core (after a time the plugin was off). */
      rebuild: {
        ...route("rebuild", "POST", "admin"),
        params: {},
        async handler(ctx: Ctx) {
          return me(this).projection.rebuild(tenantOf(ctx));
        },
      },
      /** The chat view: a ticket's messages, through the core (another tenant's ticket: the core's not-found code). */
      messages: {
        ...route("messages"),
        params: { ticketId: { type: "number", integer: true, positive: true, convert: true }, page: { type: "number", integer: true, min: 1, max: 100_000, convert: true, optional: true } },
        async handler(ctx: Ctx<{ ticketId: number; page?: number }>) {
          const tenantId = tenantOf(ctx);
          const api = coreApi(ctx);
          const [ticket, page] = await Promise.all([api.tickets.get({ tenantId, id: ctx.params.ticketId }), api.messages.list({ tenantId, ticketId: ctx.params.ticketId, page: ctx.params.page ?? 1, limit: 50 })]);
          return { ticket: { id: ticket.id, protocol: ticket.protocol, status: ticket.status, contact: ticket.contact ?? null }, ...page };
        },
      },
      /** What the filters offer: the tenant's queues and attendants. */
      options: {
        ...route("options"),
        params: {},
        async handler(ctx: Ctx) {
          const tenantId = tenantOf(ctx);
          const api = coreApi(ctx);
          const [queues, users] = await Promise.all([api.queues.list({ tenantId }), api.users.list({ tenantId })]);
          return { statuses: TICKET_STATUSES, queues: queues.map((q) => ({ id: q.id, name: q.name, color: q.color })), users: users.map((u) => ({ id: u.id, name: u.name })) };
        },
      },
    },
  },
  platformEvents: {
    "ticket.created": (e: PlatformEventEnvelope<"ticket.created">, ctx: Context) => ticketChanged(ctx, e, e.data.ticket),
    "ticket.statusChanged": (e: PlatformEventEnvelope<"ticket.statusChanged">, ctx: Context) => ticketChanged(ctx, e, e.data.ticket),
    "ticket.transferred": (e: PlatformEventEnvelope<"ticket.transferred">, ctx: Context) => ticketChanged(ctx, e, e.data.ticket),
    "ticket.closed": (e: PlatformEventEnvelope<"ticket.closed">, ctx: Context) => ticketChanged(ctx, e, e.data.ticket),
    async "ticket.deleted"(e: PlatformEventEnvelope<"ticket.deleted">, ctx: Context) {
      await me(ctx.service).projection.onEvent(e, async (tx: TenantData) => {
        await tombstone(tx, e.data.ticketId);
      });
    },
    async "contact.changed"(e: PlatformEventEnvelope<"contact.changed">, ctx: Context) {
      if (e.data.change !== "updated" && e.data.change !== "merged") return;
      await me(ctx.service).projection.onEvent(e, (tx: TenantData) => contactChanged(coreApi(ctx), tx, e.tenantId, e.data.contactId));
    },
  },
});

/**
 * A ticket's event writes the ticket as the core has it now: events of one ticket may be handled
 * out of order and its updatedAt may not tell two changes of one second apart, so the version
 * guard alone could keep an older state; the core's current answer is the last word.
 */
async function ticketChanged(ctx: Context, e: PlatformEventEnvelope, ticket: PlatformTicket): Promise<void> {
  const api = coreApi(ctx);
  await me(ctx.service).projection.onEvent(e, async (tx: TenantData) => {
    const current = await api.tickets.get({ tenantId: e.tenantId, id: ticket.id }).catch((err: { code?: number }) => {
      if (err?.code === 404) return null;
      throw err;
    });
    if (current) await writeRows(ticketsTable(tx), [await eventRow(api, tx, current)]);
  });
}

export const PLUGIN_ID = pkg.platform.id;
export default reportTicketsPlugin;
