/**
 * The report kind's conformance (report-contract.ts), on top of the generic kit: a plugin of kind
 * "report" declares its pages and projection (reportMetadata); serves every REPORT_ROUTE_OPS
 * operation under each page's apiBase with `access` and validated params (`rebuild` for admins
 * only); declares /relatorios and each page's path in platform.ui.routes (the tier notice names
 * them); and hears every event its projection says keeps it current. A unit test: no services.
 *
 *   runReportConformance({ plugin, texts });
 */
import type { DefinedPlugin } from "../define-plugin";
import { readReportDeclaration, REPORT_MENU_PATH, REPORT_ROUTE_OPS, reportDeclarationProblems, reportRoute, type ReportRouteOp } from "../report-contract";
import { checkEvents, checkPluginDefinition, checkRoutes, checkTexts, checkUi, PluginConformanceError, routesOf } from "./generic";

export interface ReportConformanceOptions {
  plugin: DefinedPlugin;
  texts?: Partial<Record<string, Record<string, unknown>>>;
  name?: string;
}

/** The report kind's own rules: problems thrown as one PluginConformanceError. */
export function checkReportPlugin(plugin: DefinedPlugin): void {
  const problems: string[] = [];
  if (plugin.manifest.kind !== "report") problems.push(`manifest kind must be "report" (is "${plugin.manifest.kind}")`);
  const decl = readReportDeclaration(plugin.schema.metadata);
  if (!decl) throw new PluginConformanceError("declares no report: put reportMetadata({ pages, projection }) in the service's metadata");
  problems.push(...reportDeclarationProblems(decl));
  const uiRoutes = plugin.manifest.ui?.routes ?? [];
  if (!uiRoutes.includes(REPORT_MENU_PATH)) problems.push(`platform.ui.routes must declare "${REPORT_MENU_PATH}" (the reports' menu page)`);
  const served = new Map(routesOf(plugin).map((r) => [`${r.method} ${r.path.replace(/\/+$/, "")}`, r]));
  for (const page of decl.pages) {
    if (!uiRoutes.includes(`${REPORT_MENU_PATH}/${page.path}`)) problems.push(`platform.ui.routes must declare "${REPORT_MENU_PATH}/${page.path}"`);
    for (const op of Object.keys(REPORT_ROUTE_OPS) as ReportRouteOp[]) {
      const route = reportRoute(page.apiBase, op);
      const r = served.get(route);
      if (!r) {
        problems.push(`page ${page.path} serves no ${op} (${route})`);
        continue;
      }
      if (op === "rebuild" && r.def.access !== "admin" && r.def.access !== "super") problems.push(`${route} rebuilds a tenant's projection: admins only (access "admin")`);
      if (op !== "rebuild" && !r.def.params) problems.push(`${route} must validate its filters (params)`);
      if (op === "export" && !("format" in ((r.def.params ?? {}) as Record<string, unknown>))) problems.push(`${route} must take a validated format`);
    }
  }
  const events = ((plugin.schema.metadata as { plugin?: { events?: string[] } } | undefined)?.plugin?.events ?? []) as string[];
  for (const e of decl.projection.events) if (!events.includes(e)) problems.push(`the projection is kept by ${e}, which the plugin does not hear (platformEvents)`);
  if (problems.length) throw new PluginConformanceError(problems.join("\n"));
}

/** The generic kit plus the report kind's rules, as a jest suite (call it at the top level of a test file). */
export function runReportConformance(opts: ReportConformanceOptions): void {
  const { plugin } = opts;
  describe(opts.name ?? `report conformance: ${plugin?.id ?? "(not a definePlugin() object)"}`, () => {
    it("is a definePlugin() object with a valid manifest and routes that follow every plugin's rules", () => {
      checkPluginDefinition(plugin);
      checkRoutes(plugin);
      checkEvents(plugin);
      checkUi(plugin);
    });
    it("declares its pages and projection, serves rows, summary, export and rebuild under each page, and hears its projection's events", () => checkReportPlugin(plugin));
    const texts = opts.texts;
    if (texts) it("has every text in pt-BR, en, es and ru, none empty", () => checkTexts(texts));
  });
}
