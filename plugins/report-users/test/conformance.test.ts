/** The report kind's conformance kit on the plugin, its error codes (the kit's, under its prefix) and its texts in four languages. */
import { routesOf, runReportConformance } from "@openatende/plugin-sdk";
import { reportKitErrors } from "@openatende/report-kit";
import plugin, { CODE_PREFIX } from "../src/service";
import { EXPORT_TEXTS } from "../src/texts";
import { LOCALES, texts } from "../src/ui/texts";

runReportConformance({ plugin, texts: Object.fromEntries(LOCALES.map((l) => [l, { ...texts[l], export: { ...EXPORT_TEXTS[l] } }])) });

describe("the per-user statistics plugin", () => {
  it("is a BASIC report for supervisors and admins, under /relatorios/usuarios", () => {
    expect(plugin.manifest).toMatchObject({ id: "report-users", kind: "report", tier: "BASIC", ui: { routes: ["relatorios", "relatorios/estatisticas-atendimentos-usuarios"] } });
    for (const r of routesOf(plugin)) {
      expect(r.path).toMatch(/^\/relatorios\/usuarios\//);
      expect(r.def.access).toBe(r.action === "rebuild" ? "admin" : "supervisor");
    }
  });

  it("declares the kit's error codes under its prefix", () => {
    expect(plugin.manifest.errors).toEqual(reportKitErrors(CODE_PREFIX));
  });
});
