/**
 * The report kind's conformance kit on the plugin (three pages, each serving rows, summary,
 * export and rebuild), its error codes (the kit's under its prefix and its own selection code,
 * in four languages), the selection rule, and its texts.
 */
import { PluginError, routesOf, runReportConformance } from "@openatende/plugin-sdk";
import { reportKitErrors } from "@openatende/report-kit";
import plugin, { CODE_PREFIX, selectionOf } from "../src/service";
import { EXPORT_TEXTS } from "../src/texts";
import { LOCALES, texts } from "../src/ui/texts";

runReportConformance({ plugin, texts: Object.fromEntries(LOCALES.map((l) => [l, { ...texts[l], export: { ...EXPORT_TEXTS[l] } }])) });

describe("the contact reports plugin", () => {
  it("is a BASIC report with its three pages under /relatorios, for supervisors and admins", () => {
    expect(plugin.manifest).toMatchObject({ id: "report-contacts", kind: "report", tier: "BASIC", ui: { routes: ["relatorios", "relatorios/lista-contatos", "relatorios/contatos-por-etiquetas", "relatorios/contatos-por-estado"] } });
    const routes = routesOf(plugin);
    expect(routes).toHaveLength(13);
    for (const r of routes) {
      expect(r.path).toMatch(/^\/relatorios\/contatos\//);
      expect(r.def.access).toBe(r.action.endsWith("Rebuild") ? "admin" : "supervisor");
    }
  });

  it("declares the kit's codes and ERR_REPORT_CONTACTS_SELECTION_REQUIRED (400) in four languages", () => {
    const errors = plugin.manifest.errors as Record<string, Record<string, unknown>>;
    expect(Object.keys(errors).sort()).toEqual([...Object.keys(reportKitErrors(CODE_PREFIX)), "ERR_REPORT_CONTACTS_SELECTION_REQUIRED"].sort());
    const sel = errors.ERR_REPORT_CONTACTS_SELECTION_REQUIRED as Record<string, { title: string; detail: string }> & { status: number };
    expect(sel.status).toBe(400);
    for (const l of LOCALES) expect(sel[l].title.length * sel[l].detail.length).toBeGreaterThan(0);
  });

  it("asks the tag and state pages for at least one choice", () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return [(e as PluginError).type, (e as PluginError).code, (e as PluginError).data];
      }
      return null;
    };
    expect(code(() => selectionOf("tags", {}))).toEqual(["ERR_REPORT_CONTACTS_SELECTION_REQUIRED", 400, { field: "tagIds" }]);
    expect(code(() => selectionOf("states", { states: " , ," }))).toEqual(["ERR_REPORT_CONTACTS_SELECTION_REQUIRED", 400, { field: "states" }]);
    expect(selectionOf("states", { states: "SP, RJ,SP" })).toEqual({ kind: "states", states: ["SP", "RJ"] });
    expect(selectionOf("tags", { tagIds: "3,1,3" })).toEqual({ kind: "tags", tagIds: [3, 1] });
    expect(selectionOf("list", {})).toEqual({ kind: "list" });
  });
});
