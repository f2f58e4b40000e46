/**
 * The report kind's contract: its declaration's rules, its routes, the download header, and the
 * kind's conformance check (a report plugin serves every operation under each page, hears the
 * events its projection names, declares its shell paths).
 */
import type { ServiceSchema } from "moleculer";
import { checkReportPlugin } from "./conformance/report";
import { definePlugin } from "./define-plugin";
import { attachmentDisposition, REPORT_ROUTE_OPS, reportDeclarationProblems, reportMetadata, reportRoute, type ReportDeclaration } from "./report-contract";

const text = { "pt-BR": "Relatório", en: "Report", es: "Informe", ru: "Отчёт" };
const decl: ReportDeclaration = {
  pages: [{ path: "relatorio-teste", apiBase: "/relatorios/teste", title: text, description: text, filters: [{ key: "search", type: "search" }, { key: "status", type: "enum", options: ["open", "closed"] }], exports: ["xlsx", "pdf"] }],
  projection: { events: ["ticket.created"], tables: ["rows"] },
};

const pkgJson = (kind: string, routes = ["relatorios", "relatorios/relatorio-teste"]) => ({
  name: "@x/report-test",
  version: "1.0.0",
  main: "src/service.ts",
  platform: { id: "report-test", kind, tier: "BASIC", coreApi: "^1.0.0", displayName: text, ui: { remoteEntry: "remoteEntry.js", exposes: ["register"], routes } },
});

function actions(skip: string[] = [], rebuildAccess = "admin"): NonNullable<ServiceSchema["actions"]> {
  const out: NonNullable<ServiceSchema["actions"]> = {};
  for (const op of Object.keys(REPORT_ROUTE_OPS) as Array<keyof typeof REPORT_ROUTE_OPS>) {
    if (skip.includes(op)) continue;
    const params = op === "export" ? { format: { type: "enum", values: ["xlsx", "pdf"] } } : { page: { type: "number", optional: true } };
    out[op] = { rest: reportRoute("/relatorios/teste", op), access: op === "rebuild" ? rebuildAccess : "user", params, handler: () => null } as unknown as NonNullable<ServiceSchema["actions"]>[string];
  }
  return out;
}

const plugin = (opts: { kind?: string; skip?: string[]; events?: boolean; routes?: string[]; rebuildAccess?: string } = {}) =>
  definePlugin({
    pkgJson: pkgJson(opts.kind ?? "report", opts.routes),
    service: { settings: { rest: "/" }, metadata: reportMetadata(decl), actions: actions(opts.skip, opts.rebuildAccess) },
    platformEvents: opts.events === false ? {} : { "ticket.created": () => undefined },
  });

describe("the report contract", () => {
  it("says each operation's route under a page's base", () => {
    expect(reportRoute("/relatorios/tickets", "rows")).toBe("GET /relatorios/tickets/rows");
    expect(reportRoute("relatorios/tickets/", "rebuild")).toBe("POST /relatorios/tickets/rebuild");
  });

  it("accepts a sound declaration and names what is wrong with a bad one", () => {
    expect(reportDeclarationProblems(decl)).toEqual([]);
    const bad = {
      pages: [
        { ...decl.pages[0], path: "Relatorio Teste", title: { ...text, ru: "" }, filters: [{ key: "x", type: "enum" }, { key: "x", type: "range" }], exports: ["csv"] },
      ],
      projection: { events: [], tables: [] },
    } as unknown as ReportDeclaration;
    const problems = reportDeclarationProblems(bad).join("\n");
    expect(problems).toMatch(/kebab-case/);
    expect(problems).toMatch(/title has no ru text/);
    expect(problems).toMatch(/enum filter x lists no options/);
    expect(problems).toMatch(/filter x declared twice/);
    expect(problems).toMatch(/unknown type "range"/);
    expect(problems).toMatch(/unknown export format "csv"/);
    expect(problems).toMatch(/projection must name the tables/);
    expect(reportDeclarationProblems({ pages: [], projection: decl.projection })).toEqual(["a report declares at least one page"]);
    expect(() => reportMetadata(bad)).toThrow(/invalid report declaration/);
  });

  it("names a download in UTF-8 with an ASCII fallback (Cyrillic, accents, quotes)", () => {
    expect(attachmentDisposition("Relatório de tickets.xlsx")).toBe(`attachment; filename="Relatorio de tickets.xlsx"; filename*=UTF-8''Relat%C3%B3rio%20de%20tickets.xlsx`);
    expect(attachmentDisposition("Отчёт.pdf")).toBe(`attachment; filename=".pdf"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82.pdf`);
    expect(attachmentDisposition(`a"b'(c).pdf`)).toBe(`attachment; filename="a_b'(c).pdf"; filename*=UTF-8''a%22b%27%28c%29.pdf`);
  });
});

describe("the report kind's conformance", () => {
  it("passes a plugin that serves every operation, hears its events and declares its paths", () => {
    expect(() => checkReportPlugin(plugin())).not.toThrow();
  });

  it("refuses a plugin of another kind, a missing operation, an unheard event, undeclared paths and a rebuild open to users", () => {
    expect(() => checkReportPlugin(plugin({ kind: "module" }))).toThrow(/kind must be "report"/);
    expect(() => checkReportPlugin(plugin({ skip: ["export"] }))).toThrow(/serves no export \(GET \/relatorios\/teste\/export\)/);
    expect(() => checkReportPlugin(plugin({ events: false }))).toThrow(/kept by ticket.created, which the plugin does not hear/);
    expect(() => checkReportPlugin(plugin({ routes: ["relatorios"] }))).toThrow(/must declare "relatorios\/relatorio-teste"/);
    expect(() => checkReportPlugin(plugin({ routes: ["relatorios/relatorio-teste"] }))).toThrow(/must declare "relatorios" \(the reports' menu page\)/);
    expect(() => checkReportPlugin(plugin({ rebuildAccess: "user" }))).toThrow(/admins only/);
  });

  it("refuses a plugin that declares no report", () => {
    const p = definePlugin({ pkgJson: pkgJson("report"), service: { settings: { rest: "/" }, actions: actions() } });
    expect(() => checkReportPlugin(p)).toThrow(/declares no report/);
  });
});
