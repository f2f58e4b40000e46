/**
 * The report kind: a plugin of kind "report" adds one or more pages under the shell's
 * /relatorios, each reading the plugin's own projection (denormalised rows it keeps from core
 * events, never core tables), filtered, paged and exported.
 *
 * What a report plugin declares (in its service's metadata, through `reportMetadata`):
 *
 *   definePlugin({
 *     pkgJson: require("../package.json"),
 *     service: {
 *       metadata: reportMetadata({
 *         pages: [{ path: "relatorio-tickets", apiBase: "/relatorios/tickets", title: {…4 locales},
 *                   filters: [{ key: "search", type: "search" }, { key: "from", type: "date" }, …],
 *                   exports: ["xlsx", "pdf"] }],
 *         projection: { events: ["ticket.created", …], tables: ["tickets"] },
 *       }),
 *       actions: { rows: { rest: "GET /relatorios/tickets/rows", … }, summary: …, export: …, rebuild: … },
 *     },
 *     platformEvents: { "ticket.created": …, … },
 *   });
 *
 * Every page serves the REPORT_ROUTE_OPS operations under its `apiBase` (reportRoute says the
 * route): `rows` one page of rows (1-based `page`, `limit`; the answer says `hasMore`, the UI's
 * "load more"), `summary` the page's cards over the same filters, `export` the whole filtered
 * set streamed as `format` (one of the page's `exports`), `rebuild` the tenant's projection
 * again from the core API (admins). Dates travel as `from`/`to` ("YYYY-MM-DD", inclusive) in
 * the time zone `tz` (IANA); with neither, a page covers the current month.
 *
 * How to extend: add optional members and new filter types only; never change what a route
 * answers.
 */
import type { PlatformEventName } from "./core-api/contract";

/** The shell's path the report pages live under (/relatorios/<page path>). */
export const REPORT_MENU_PATH = "relatorios";

export const REPORT_EXPORT_FORMATS = ["xlsx", "pdf"] as const;
export type ReportExportFormat = (typeof REPORT_EXPORT_FORMATS)[number];

export const REPORT_FILTER_TYPES = ["search", "date", "enum", "queues", "users", "tags"] as const;
export type ReportFilterType = (typeof REPORT_FILTER_TYPES)[number];

export const REPORT_LOCALES = ["pt-BR", "en", "es", "ru"] as const;
export type ReportText = Record<(typeof REPORT_LOCALES)[number], string>;

/** One filter of a page: its query parameter (`key`), what it selects, and for an enum its values. */
export interface ReportFilterDef {
  key: string;
  type: ReportFilterType;
  /** For "enum": the values it may take. */
  options?: readonly string[];
  /** At least one value must be chosen before the page queries (spec §5: reports by state or tag). */
  required?: boolean;
}

export interface ReportPageDef {
  /** The page's child path under /relatorios ("relatorio-tickets"). */
  path: string;
  /** The page's API routes' base ("/relatorios/tickets"): REPORT_ROUTE_OPS are served under it. */
  apiBase: string;
  title: ReportText;
  description: ReportText;
  filters: readonly ReportFilterDef[];
  exports: readonly ReportExportFormat[];
}

export interface ReportProjectionDef {
  /** The core events that keep the projection current. */
  events: readonly PlatformEventName[];
  /** The plugin's own tables the projection writes. */
  tables: readonly string[];
}

export interface ReportDeclaration {
  pages: readonly ReportPageDef[];
  projection: ReportProjectionDef;
}

/** The operations every report page serves under its apiBase, with their HTTP method. */
export const REPORT_ROUTE_OPS = {
  rows: "GET",
  summary: "GET",
  export: "GET",
  rebuild: "POST",
} as const;
export type ReportRouteOp = keyof typeof REPORT_ROUTE_OPS;

/** The route ("GET /relatorios/tickets/rows") of an operation of a page. */
export function reportRoute(apiBase: string, op: ReportRouteOp): string {
  return `${REPORT_ROUTE_OPS[op]} /${apiBase.replace(/^\/+|\/+$/g, "")}/${op}`;
}

/** What a report plugin puts in its service's `metadata`; readReportDeclaration reads it back. */
export function reportMetadata(declaration: ReportDeclaration): { report: ReportDeclaration } {
  const problems = reportDeclarationProblems(declaration);
  if (problems.length) throw new Error(`invalid report declaration: ${problems.join("; ")}`);
  return { report: declaration };
}

export function readReportDeclaration(metadata: unknown): ReportDeclaration | undefined {
  const r = (metadata as { report?: ReportDeclaration } | undefined)?.report;
  return r && typeof r === "object" ? r : undefined;
}

const PAGE_PATH = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const KEY = /^[a-zA-Z][a-zA-Z0-9]*$/;

/** What is wrong with a declaration (empty: nothing). */
export function reportDeclarationProblems(d: ReportDeclaration): string[] {
  const problems: string[] = [];
  if (!d || !Array.isArray(d.pages) || d.pages.length === 0) return ["a report declares at least one page"];
  const paths = new Set<string>();
  for (const p of d.pages) {
    const at = `page ${JSON.stringify(p?.path)}`;
    if (typeof p.path !== "string" || !PAGE_PATH.test(p.path)) problems.push(`${at}: path must be kebab-case (the child of /${REPORT_MENU_PATH})`);
    if (paths.has(p.path)) problems.push(`${at}: declared twice`);
    paths.add(p.path);
    if (typeof p.apiBase !== "string" || !/^\/[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(p.apiBase)) problems.push(`${at}: apiBase must be a path like /relatorios/tickets`);
    for (const field of ["title", "description"] as const) {
      for (const l of REPORT_LOCALES) if (!p[field] || typeof p[field][l] !== "string" || !p[field][l].trim()) problems.push(`${at}: ${field} has no ${l} text`);
    }
    const keys = new Set<string>();
    for (const f of p.filters ?? []) {
      if (!KEY.test(f.key ?? "")) problems.push(`${at}: filter key ${JSON.stringify(f.key)} is not a query parameter name`);
      if (keys.has(f.key)) problems.push(`${at}: filter ${f.key} declared twice`);
      keys.add(f.key);
      if (!(REPORT_FILTER_TYPES as readonly string[]).includes(f.type)) problems.push(`${at}: filter ${f.key} has unknown type ${JSON.stringify(f.type)}`);
      if (f.type === "enum" && !(f.options?.length ?? 0)) problems.push(`${at}: enum filter ${f.key} lists no options`);
    }
    for (const x of p.exports ?? []) if (!(REPORT_EXPORT_FORMATS as readonly string[]).includes(x)) problems.push(`${at}: unknown export format ${JSON.stringify(x)}`);
  }
  if (!d.projection || !Array.isArray(d.projection.events) || !Array.isArray(d.projection.tables)) problems.push("projection must list its events and tables");
  else if (!d.projection.tables.length) problems.push("projection must name the tables it writes");
  return problems;
}

/** `Content-Disposition` of a download whose name may hold any letter (RFC 6266/5987): an ASCII fallback and the UTF-8 name. */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.normalize("NFKD").replace(/[^\x20-\x7e]/g, "").replace(/["\\]/g, "_") || "report";
  const utf8 = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/** The MIME type of an export format. */
export const REPORT_EXPORT_MIME: Record<ReportExportFormat, string> = {
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pdf: "application/pdf",
};
