/**
 * The report kind's conformance kit on the plugin (its pages, projection, operations and events),
 * its error codes (the kit's under the plugin's prefix, in four languages), and its texts.
 */
import { routesOf, runReportConformance } from "@openatende/plugin-sdk";
import { reportKitErrors } from "@openatende/report-kit";
import plugin, { CODE_PREFIX } from "../src/service";
import { EXPORT_TEXTS } from "../src/texts";
import { LOCALES, texts } from "../src/ui/texts";

// The UI's texts and the exports' texts, each locale with every key of pt-BR.
runReportConformance({ plugin, texts: Object.fromEntries(LOCALES.map((l) => [l, { ...texts[l], export: { ...EXPORT_TEXTS[l] } }])) });

describe("the tickets report plugin", () => {
  it("is a BASIC report for supervisors and admins, under /relatorios/tickets", () => {
    expect(plugin.manifest).toMatchObject({ id: "report-tickets", kind: "report", tier: "BASIC", ui: { routes: ["relatorios", "relatorios/relatorio-tickets"] } });
    for (const r of routesOf(plugin)) {
      expect(r.path).toMatch(/^\/relatorios\/tickets\//);
      expect(r.def.tier).toBe("BASIC");
      expect(r.def.access).toBe(r.action === "rebuild" ? "admin" : "supervisor");
    }
  });

  it("declares the kit's error codes under its prefix", () => {
    expect(plugin.manifest.errors).toEqual(reportKitErrors(CODE_PREFIX));
  });
});
