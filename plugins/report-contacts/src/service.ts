/**
 * The contact reports of spec §2, a plugin of kind "report" with three pages:
 *
 * - /relatorios/lista-contatos: every contact (name, number, e-mail, tags, created), by name;
 * - /relatorios/contatos-por-etiquetas: those with any of the chosen tags;
 * - /relatorios/contatos-por-estado: those in any of the chosen states.
 *
 * The last two need at least one choice: ERR_REPORT_CONTACTS_SELECTION_REQUIRED (400). Each
 * page serves rows (load more), summary (the total and a count per choice), export (Excel or
 * PDF, streamed) and rebuild under its apiBase, reading the plugin's projection of contacts and
 * their tags (projection.ts), filled lazily on a tenant's first query and kept by contact and
 * tag events. Supervisors and admins of a BASIC tenant; rebuild for admins.
 */
import type { Context } from "moleculer";
import { coreApi, definePlugin, openPluginData, PluginError, reportMetadata, type PlatformEventEnvelope, type PlatformTag, type ReportPageDef, type TenantData } from "@openatende/plugin-sdk";
import { answerDownload, formatDateTime, isTimeZone, Projection, streamPdf, streamXlsx, wallTime, type ExportCell } from "@openatende/report-kit";
import { contactsSource, forget, refreshContact, tagChanged, type ContactRow } from "./projection";
import { allOf, pageOf, statesOf, summaryOf, tagsOf, type Selection } from "./query";
import { exportTexts, fourLocales, type PageKey } from "./texts";

export const CODE_PREFIX = "ERR_REPORT_CONTACTS";
const BASE = "/relatorios/contatos";

type Meta = { user?: { id: number; tenantId: number; profile: string }; locale?: string };
type Ctx<P = Record<string, unknown>> = Context<P, Meta>;
interface Params {
  tagIds?: string;
  states?: string;
  tz?: string;
  page?: number;
  limit?: number;
}

const BR_STATES = ["AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO"];

/** The three pages: their child path, API base and what they must be given. */
export const PAGES: Record<PageKey, { path: string; api: string; filters: ReportPageDef["filters"] }> = {
  list: { path: "lista-contatos", api: `${BASE}/lista`, filters: [] },
  tags: { path: "contatos-por-etiquetas", api: `${BASE}/etiquetas`, filters: [{ key: "tagIds", type: "tags", required: true }] },
  // The choices are the states the tenant's contacts have (GET options); Brazil's are the usual ones.
  states: { path: "contatos-por-estado", api: `${BASE}/estados`, filters: [{ key: "states", type: "enum", options: BR_STATES, required: true }] },
};

const PARAMS = {
  tagIds: { type: "string", optional: true, max: 1000, pattern: /^(\d{1,10}(,\d{1,10})*)?$/ },
  states: { type: "string", optional: true, max: 2000 },
  tz: { type: "string", optional: true, max: 64 },
} as const;
const PAGING = { page: { type: "number", integer: true, min: 1, max: 100_000, convert: true, optional: true }, limit: { type: "number", integer: true, min: 1, max: 200, convert: true, optional: true } } as const;

interface Self {
  projection: Projection;
}
const self = (svc: unknown) => svc as Self;

function tenantOf(ctx: Ctx<unknown>): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw Object.assign(new Error("ERR_SESSION_REQUIRED"), { type: "ERR_SESSION_REQUIRED", code: 401, data: {} });
  return t;
}

/** A page's selection from its query; the tag and state pages refuse an empty one. */
export function selectionOf(kind: PageKey, p: Params): Selection {
  const required = (field: string) => new PluginError(`${CODE_PREFIX}_SELECTION_REQUIRED`, 400, { field });
  if (kind === "tags") {
    const tagIds = [...new Set((p.tagIds ?? "").split(",").filter(Boolean).map(Number))];
    if (!tagIds.length) throw required("tagIds");
    return { kind, tagIds };
  }
  if (kind === "states") {
    const states = [...new Set((p.states ?? "").split(",").map((s) => s.trim().slice(0, 64)).filter(Boolean))].slice(0, 100);
    if (!states.length) throw required("states");
    return { kind, states };
  }
  return { kind };
}

function zoneOf(p: Params): string {
  const tz = p.tz || "America/Sao_Paulo";
  if (!isTimeZone(tz)) throw new PluginError(`${CODE_PREFIX}_PERIOD_INVALID`, 400, { field: "tz", reason: "zone" });
  return tz;
}

/** What a query needs: the selection checked, the projection filled, the tenant's tags by id. */
async function prepare(ctx: Ctx<Params>, kind: PageKey) {
  const tenantId = tenantOf(ctx);
  const sel = selectionOf(kind, ctx.params);
  const timeZone = zoneOf(ctx.params);
  const svc = self(ctx.service);
  const [tags] = await Promise.all([coreApi(ctx).tags.list({ tenantId }), svc.projection.ready(tenantId)]);
  return { sel, timeZone, tenant: svc.projection.tenant(tenantId), tags: new Map(tags.map((t) => [t.id, t])) };
}

function viewOf(r: ContactRow, tagIds: number[], tags: Map<number, PlatformTag>) {
  return { id: r.id, name: r.name, number: r.number, email: r.email, state: r.state, tags: tagIds.flatMap((id) => (tags.has(id) ? [tags.get(id)!] : [])), createdAt: new Date(r.createdAt).toISOString() };
}

function pageActions(kind: PageKey) {
  const { api } = PAGES[kind];
  const route = (op: string, method = "GET", access: "supervisor" | "admin" = "supervisor") => ({ rest: `${method} ${api}/${op}`, access, tier: "BASIC" as const });
  return {
    [`${kind}Rows`]: {
      ...route("rows"),
      params: { ...PARAMS, ...PAGING },
      async handler(ctx: Ctx<Params>) {
        const q = await prepare(ctx, kind);
        const page = ctx.params.page ?? 1;
        const r = await pageOf(q.tenant, q.sel, page, ctx.params.limit ?? 50);
        const links = await tagsOf(q.tenant, r.rows.map((x) => x.id));
        return { page, hasMore: r.hasMore, rows: r.rows.map((x) => viewOf(x, links.get(x.id) ?? [], q.tags)) };
      },
    },
    [`${kind}Summary`]: {
      ...route("summary"),
      params: PARAMS,
      async handler(ctx: Ctx<Params>) {
        const q = await prepare(ctx, kind);
        const s = await summaryOf(q.tenant, q.sel);
        // A tag's name from the core (groups of the tag report are keyed by tag id).
        return { total: s.total, groups: s.groups.map((g) => ({ ...g, label: kind === "tags" ? (q.tags.get(Number(g.key))?.name ?? `#${g.key}`) : g.key })) };
      },
    },
    [`${kind}Export`]: {
      ...route("export"),
      params: { ...PARAMS, format: { type: "enum", values: ["xlsx", "pdf"] } },
      async handler(ctx: Ctx<Params & { format: "xlsx" | "pdf" }>) {
        const q = await prepare(ctx, kind);
        const t = exportTexts(ctx.meta.locale);
        const rows = (async function* () {
          let batch: ContactRow[] = [];
          const flush = async function* () {
            const links = await tagsOf(q.tenant, batch.map((x) => x.id));
            for (const r of batch) {
              const names = (links.get(r.id) ?? []).flatMap((id) => (q.tags.has(id) ? [q.tags.get(id)!.name] : []));
              yield { name: r.name, number: r.number ?? "", email: r.email ?? "", state: r.state ?? "", tags: names.join(", "), createdAt: new Date(wallTime(r.createdAt, q.timeZone)) } as Record<string, ExportCell>;
            }
            batch = [];
          };
          for await (const r of allOf(q.tenant, q.sel)) {
            batch.push(r);
            if (batch.length === 500) yield* flush();
          }
          yield* flush();
        })();
        const chosen = q.sel.kind === "tags" ? q.sel.tagIds.map((id) => q.tags.get(id)?.name ?? `#${id}`) : q.sel.kind === "states" ? q.sel.states : [];
        const columns = [
          { key: "name", header: t.columns.name, width: 30, weight: 1.6 },
          { key: "number", header: t.columns.number, width: 18, weight: 1.1 },
          { key: "email", header: t.columns.email, width: 28, weight: 1.5 },
          { key: "state", header: t.columns.state, width: 10, weight: 0.6 },
          { key: "tags", header: t.columns.tags, width: 30, weight: 1.4 },
          { key: "createdAt", header: t.columns.createdAt, width: 18, weight: 1, numFmt: "dd/mm/yyyy hh:mm", text: (v: ExportCell) => (v instanceof Date ? formatDateTime(v.getTime(), "UTC") : "") },
        ];
        const subtitle = q.sel.kind === "list" ? undefined : `${t.selection[q.sel.kind]}: ${chosen.join(", ")}`;
        const spec = { title: t.titles[kind], subtitle, columns, rows };
        const stream = ctx.params.format === "xlsx" ? streamXlsx(spec) : streamPdf(spec, { pageLabel: t.page });
        answerDownload(ctx, ctx.params.format, `${t.titles[kind]}.${ctx.params.format}`);
        return stream;
      },
    },
    [`${kind}Rebuild`]: {
      ...route("rebuild", "POST", "admin"),
      params: {},
      async handler(ctx: Ctx) {
        return self(ctx.service).projection.rebuild(tenantOf(ctx));
      },
    },
  };
}

export const reportContactsPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/" },
    metadata: reportMetadata({
      pages: (Object.keys(PAGES) as PageKey[]).map((k) => ({
        path: PAGES[k].path,
        apiBase: PAGES[k].api,
        title: fourLocales((t) => t.titles[k]),
        description: fourLocales((t) => t.descriptions[k]),
        filters: PAGES[k].filters,
        exports: ["xlsx", "pdf"] as const,
      })),
      projection: { events: ["contact.changed", "tags.changed"], tables: ["contacts", "contact_tags"] },
    }),
    async started() {
      const data = await openPluginData(this);
      self(this).projection = new Projection(data, contactsSource, () => coreApi(this), { codePrefix: CODE_PREFIX });
    },
    actions: {
      ...pageActions("list"),
      ...pageActions("tags"),
      ...pageActions("states"),
      /** The filters' choices: the tenant's tags, and the states its contacts have (with how many). */
      options: {
        rest: `GET ${BASE}/options`,
        access: "supervisor",
        tier: "BASIC",
        params: {},
        async handler(ctx: Ctx) {
          const tenantId = tenantOf(ctx);
          const svc = self(this);
          const [tags] = await Promise.all([coreApi(ctx).tags.list({ tenantId }), svc.projection.ready(tenantId)]);
          return { tags: tags.map((t) => ({ id: t.id, name: t.name, color: t.color })), states: await statesOf(svc.projection.tenant(tenantId)) };
        },
      },
    },
  },
  platformEvents: {
    async "contact.changed"(e: PlatformEventEnvelope<"contact.changed">, ctx: Context) {
      const api = coreApi(ctx);
      await self(ctx.service).projection.onEvent(e, async (tx: TenantData) => {
        for (const id of e.data.removedIds ?? []) await forget(tx, id);
        if (e.data.change === "deleted") await forget(tx, e.data.contactId);
        else await refreshContact(api, tx, e.data.contactId);
      });
    },
    async "tags.changed"(e: PlatformEventEnvelope<"tags.changed">, ctx: Context) {
      const api = coreApi(ctx);
      await self(ctx.service).projection.onEvent(e, (tx: TenantData) => tagChanged(api, tx, e.data.tagId));
    },
  },
});

export default reportContactsPlugin;
