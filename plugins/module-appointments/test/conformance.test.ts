/**
 * The SDK's conformance kit, the manifest (PLUS, /agendamentos and /configuracoes/servicos),
 * the routes with their access and tier (services PREMIUM and admin), the error catalogue and
 * the texts in four languages.
 */
import { runPluginConformance, routesOf, validateManifest } from "@openatende/plugin-sdk";
import plugin from "../src/service";
import { texts } from "../src/ui/texts";
import pkg from "../package.json";

runPluginConformance({ plugin, texts });

describe("the appointments plugin", () => {
  it("is a PLUS module declaring /agendamentos and /configuracoes/servicos (that route PREMIUM), named in four languages", () => {
    expect(validateManifest(pkg).ok).toBe(true);
    expect(plugin.manifest).toMatchObject({ id: "module-appointments", kind: "module", tier: "PLUS", ui: { routes: ["agendamentos", "configuracoes/servicos"], routeTiers: { "configuracoes/servicos": "PREMIUM" } } });
    expect(Object.keys(plugin.manifest.displayName).sort()).toEqual(["en", "es", "pt-BR", "ru"]);
  });

  it("has the appointments' routes for users and the services' for admins on PREMIUM", () => {
    const routes = routesOf(plugin).map((r) => `${r.method} ${r.path} ${r.def.access} ${r.def.tier ?? "-"}`);
    expect(routes.sort()).toEqual([
      "GET /appointments user -",
      "GET /appointments/ics user -",
      "GET /appointments/one user -",
      "GET /appointments/options user -",
      "GET /appointments/services admin PREMIUM",
      "GET /appointments/services/one admin PREMIUM",
      "GET /appointments/templates user -",
      "PATCH /appointments user -",
      "PATCH /appointments/services admin PREMIUM",
      "POST /appointments user -",
      "POST /appointments/attachment user -",
      "POST /appointments/delete user -",
      "POST /appointments/services admin PREMIUM",
      "POST /appointments/services/delete admin PREMIUM",
    ]);
  });

  it("declares its ERR_APPOINTMENT_* codes with a client status and texts in four languages, placeholders kept", () => {
    const errors = plugin.manifest.errors ?? {};
    expect(Object.keys(errors).length).toBe(11);
    for (const [code, def] of Object.entries(errors)) {
      expect(code.startsWith("ERR_APPOINTMENT_")).toBe(true);
      expect({ code, client: def.status >= 400 && def.status < 500 }).toEqual({ code, client: true });
      const vars = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
      for (const loc of ["pt-BR", "en", "es", "ru"] as const) {
        expect(def[loc].title.trim()).not.toBe("");
        expect(vars(def[loc].detail)).toEqual(vars(def["pt-BR"].detail));
      }
    }
  });

  it("has every text in the four languages, placeholders kept", () => {
    const keys = Object.keys(texts["pt-BR"]).sort();
    for (const locale of ["en", "es", "ru"] as const) expect(Object.keys(texts[locale]).sort()).toEqual(keys);
    for (const locale of Object.keys(texts) as Array<keyof typeof texts>) {
      for (const [k, v] of Object.entries(texts[locale] as Record<string, string>)) {
        expect(v.trim()).not.toBe("");
        expect(v.match(/\{\{\w+\}\}/g) ?? []).toEqual((texts["pt-BR"] as Record<string, string>)[k].match(/\{\{\w+\}\}/g) ?? []);
      }
    }
  });
});
