/**
 * Per-user service statistics (spec §2 /relatorios/estatisticas-atendimentos-usuarios), a
 * plugin of kind "report": for each attendant, over the tickets opened in the period (default
 * the current month in the reader's zone) and the chosen queues, how many are pending, in
 * service and resolved, the total, and the shortest, longest and average service time in
 * minutes; exported as Excel or PDF, streamed.
 *
 * It reads its own projection (projection.ts: one row per ticket), filled lazily on a tenant's
 * first query (the core tells a plugin of no install or enable) and kept by ticket events.
 * Routes under /api/relatorios/usuarios/… for supervisors and admins of a BASIC tenant.
 */
import type { Context } from "moleculer";
import { coreApi, definePlugin, openPluginData, reportMetadata, type PlatformEventEnvelope, type TenantData } from "@openatende/plugin-sdk";
import { answerDownload, Projection, reportPeriod, streamPdf, streamXlsx, type ExportCell } from "@openatende/report-kit";
import { markDeleted, refreshTicket, ticketRows, userTicketsSource } from "./projection";
import { type StatsFilters, type UserStats } from "./stats";
import { statsInSql } from "./stats-sql";
import { EXPORT_TEXTS, exportTexts, type ExportTexts } from "./texts";

export const CODE_PREFIX = "ERR_REPORT_USERS";
export const API_BASE = "/relatorios/usuarios";

type Meta = { user?: { id: number; tenantId: number; profile: string }; locale?: string };
type Ctx<P = Record<string, unknown>> = Context<P, Meta>;
interface FilterParams {
  queueIds?: string;
  from?: string;
  to?: string;
  tz?: string;
}

const FILTER_PARAMS = {
  queueIds: { type: "string", optional: true, max: 1000, pattern: /^(\d{1,10}(,\d{1,10})*)?$/ },
  from: { type: "string", optional: true, max: 10 },
  to: { type: "string", optional: true, max: 10 },
  tz: { type: "string", optional: true, max: 64 },
} as const;

const route = (op: string, method = "GET", access: "supervisor" | "admin" = "supervisor") => ({ rest: `${method} ${API_BASE}/${op}`, access, tier: "BASIC" as const });

interface Self {
  projection: Projection;
  clock: { now(): number };
}
const self = (svc: unknown) => svc as Self;

function tenantOf(ctx: Ctx<unknown>): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw Object.assign(new Error("ERR_SESSION_REQUIRED"), { type: "ERR_SESSION_REQUIRED", code: 401, data: {} });
  return t;
}

/** The figures of a query: its period (a bad one: ERR_REPORT_USERS_PERIOD_INVALID), the projection filled, a line per user. */
async function statsOf(ctx: Ctx<FilterParams>, t: ExportTexts) {
  const tenantId = tenantOf(ctx);
  const svc = self(ctx.service);
  const p = ctx.params;
  const filters: StatsFilters = { period: reportPeriod({ from: p.from, to: p.to, tz: p.tz }, svc.clock.now(), CODE_PREFIX), queueIds: p.queueIds ? p.queueIds.split(",").map(Number) : undefined };
  const [users] = await Promise.all([coreApi(ctx).users.list({ tenantId }), svc.projection.ready(tenantId)]);
  const b = await statsInSql(ticketRows(svc.projection.tenant(tenantId)), filters);
  return { period: filters.period, rows: b.rows(users, t.unassigned), totals: b.totals() };
}

const minutesOf = (ms: number | null) => (ms === null ? null : Math.round((ms / 60_000) * 1000) / 1000);

function exportLine(name: string, s: Omit<UserStats, "userId" | "name">): Record<string, ExportCell> {
  return { user: name, pending: s.pending, open: s.open, closed: s.closed, total: s.total, shortest: minutesOf(s.shortestMs), longest: minutesOf(s.longestMs), average: minutesOf(s.averageMs) };
}

export const reportUsersPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/" },
    metadata: reportMetadata({
      pages: [
        {
          path: "estatisticas-atendimentos-usuarios",
          apiBase: API_BASE,
          title: { "pt-BR": EXPORT_TEXTS["pt-BR"].title, en: EXPORT_TEXTS.en.title, es: EXPORT_TEXTS.es.title, ru: EXPORT_TEXTS.ru.title },
          description: {
            "pt-BR": "Pendentes, em atendimento, resolvidos e tempos por usuário",
            en: "Pending, in service, resolved and times per user",
            es: "Pendientes, en atención, resueltos y tiempos por usuario",
            ru: "Ожидающие, в работе, решённые и время по пользователям",
          },
          filters: [
            { key: "queueIds", type: "queues" },
            { key: "from", type: "date" },
            { key: "to", type: "date" },
          ],
          exports: ["xlsx", "pdf"],
        },
      ],
      projection: { events: ["ticket.created", "ticket.statusChanged", "ticket.transferred", "ticket.closed", "ticket.deleted"], tables: ["tickets"] },
    }),
    async started() {
      const s = self(this);
      s.clock = s.clock ?? { now: () => Date.now() };
      const data = await openPluginData(this);
      s.projection = new Projection(data, userTicketsSource, () => coreApi(this), { codePrefix: CODE_PREFIX, now: () => s.clock.now() });
    },
    actions: {
      /** A line per user (every user of the tenant, then tickets nobody took). */
      rows: {
        ...route("rows"),
        params: FILTER_PARAMS,
        async handler(ctx: Ctx<FilterParams>) {
          const s = await statsOf(ctx, exportTexts(ctx.meta.locale));
          return { page: 1, hasMore: false, period: s.period, rows: s.rows };
        },
      },
      /** The figures over every user (the table's total line). */
      summary: {
        ...route("summary"),
        params: FILTER_PARAMS,
        async handler(ctx: Ctx<FilterParams>) {
          const s = await statsOf(ctx, exportTexts(ctx.meta.locale));
          return { period: s.period, ...s.totals };
        },
      },
      /** The lines and the total as Excel or PDF, in the caller's language. */
      export: {
        ...route("export"),
        params: { ...FILTER_PARAMS, format: { type: "enum", values: ["xlsx", "pdf"] } },
        async handler(ctx: Ctx<FilterParams & { format: "xlsx" | "pdf" }>) {
          const t = exportTexts(ctx.meta.locale);
          const s = await statsOf(ctx, t);
          const rows = (async function* () {
            for (const r of s.rows) yield exportLine(r.name, r);
            yield exportLine(t.total, s.totals);
          })();
          const num = { width: 14, numFmt: "#,##0.00" };
          const columns = [
            { key: "user", header: t.columns.user, width: 28, weight: 2 },
            ...(["pending", "open", "closed", "total"] as const).map((k) => ({ key: k, header: t.columns[k], width: 14 })),
            ...(["shortest", "longest", "average"] as const).map((k) => ({ key: k, header: t.columns[k], ...num })),
          ];
          const p = s.period;
          const spec = { title: t.title, subtitle: `${t.period}: ${p.from.split("-").reverse().join("/")} – ${p.to.split("-").reverse().join("/")}`, columns, rows };
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
          return self(this).projection.rebuild(tenantOf(ctx));
        },
      },
      /** The queues the filter offers. */
      options: {
        ...route("options"),
        params: {},
        async handler(ctx: Ctx) {
          const queues = await coreApi(ctx).queues.list({ tenantId: tenantOf(ctx) });
          return { queues: queues.map((q) => ({ id: q.id, name: q.name, color: q.color })) };
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
      await self(ctx.service).projection.onEvent(e, (tx: TenantData) => markDeleted(tx, e.data.ticketId));
    },
  },
});

async function ticketEvent(ctx: Context, e: PlatformEventEnvelope, ticketId: number): Promise<void> {
  const api = coreApi(ctx);
  await self(ctx.service).projection.onEvent(e, (tx: TenantData) => refreshTicket(api, tx, ticketId));
}

export default reportUsersPlugin;
