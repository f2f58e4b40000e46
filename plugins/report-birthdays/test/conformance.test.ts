/**
 * The SDK's generic conformance kit (definePlugin object, routes with access and params, off
 * the core's paths, only core events, a remote with register, texts in four languages), the
 * manifest and its error catalogue. Not the report kind's projection kit: this page reads the
 * contacts live through the core API (their birthday month), it keeps no projection.
 */
import { runPluginConformance, routesOf, validateManifest } from "@openatende/plugin-sdk";
import plugin from "../src/service";
import { texts } from "../src/ui/texts";
import pkg from "../package.json";

runPluginConformance({ plugin, texts });

describe("the birthdays report plugin", () => {
  it("is a BASIC report for supervisors and admins declaring /relatorios/aniversariantes-do-mes", () => {
    expect(validateManifest(pkg).ok).toBe(true);
    expect(plugin.manifest).toMatchObject({ id: "report-birthdays", kind: "report", tier: "BASIC", ui: { routes: ["relatorios", "relatorios/aniversariantes-do-mes"] }, profiles: ["supervisor", "admin"] });
    const routes = routesOf(plugin).map((r) => `${r.method} ${r.path} ${r.def.access} ${r.def.tier}`);
    expect(routes.sort()).toEqual([
      "GET /relatorios/aniversariantes/contacts supervisor BASIC",
      "GET /relatorios/aniversariantes/export supervisor BASIC",
      "GET /relatorios/aniversariantes/scheduled supervisor BASIC",
      "GET /relatorios/aniversariantes/sends supervisor BASIC",
      "GET /relatorios/aniversariantes/sends/one supervisor BASIC",
      "POST /relatorios/aniversariantes/schedule supervisor BASIC",
      "POST /relatorios/aniversariantes/scheduled/cancel supervisor BASIC",
      "POST /relatorios/aniversariantes/send supervisor BASIC",
    ]);
  });

  it("declares its ERR_REPORT_BIRTHDAYS_* codes with a client status, a title and a detail in four languages, the same placeholders in each", () => {
    const errors = plugin.manifest.errors ?? {};
    expect(Object.keys(errors).length).toBe(8);
    const vars = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
    for (const [code, def] of Object.entries(errors)) {
      expect(code.startsWith("ERR_REPORT_BIRTHDAYS_")).toBe(true);
      expect(def.status >= 400 && def.status < 500).toBe(true);
      const d = def as unknown as Record<string, { title: string; detail: string }>;
      for (const l of ["en", "es", "ru"]) expect({ code, l, vars: vars(d[l].detail) }).toEqual({ code, l, vars: vars(d["pt-BR"].detail) });
    }
  });
});
