/**
 * The SDK's generic conformance kit (definePlugin object, routes with access and params, off
 * the core's paths, only core events, a remote with register, texts in four languages), the
 * manifest, its error catalogue, its hooks and the texts. What the UI registers is tested
 * beside it (src/ui/register.test.ts).
 */
import { runPluginConformance, routesOf, validateManifest } from "@openatende/plugin-sdk";
import plugin from "../src/service";
import { texts } from "../src/ui/texts";
import pkg from "../package.json";

runPluginConformance({ plugin, texts });

describe("the NPS plugin", () => {
  it("is a FREE module (spec §6 gates no tier on it) declaring /configuracoes/nps, for supervisors and admins, named in four languages", () => {
    expect(validateManifest(pkg).ok).toBe(true);
    expect(plugin.manifest).toMatchObject({ id: "module-nps", kind: "module", tier: "FREE", ui: { routes: ["configuracoes/nps"] }, profiles: ["supervisor", "admin"] });
    expect(Object.keys(plugin.manifest.displayName).sort()).toEqual(["en", "es", "pt-BR", "ru"]);
  });

  it("hears ticket.closed and takes claimed inbound messages (the core's hook)", () => {
    const meta = (plugin.schema.metadata as { plugin?: { events?: string[]; hooks?: string[] } }).plugin;
    expect(meta?.events).toEqual(["ticket.closed"]);
    expect(meta?.hooks).toEqual(["onClaimedInbound"]);
  });

  it("has its settings for admins and its statistics and surveys for supervisors, under /nps", () => {
    expect(routesOf(plugin).map((r) => `${r.method} ${r.path} ${r.def.access}`).sort()).toEqual([
      "GET /nps/settings admin",
      "GET /nps/stats supervisor",
      "GET /nps/surveys supervisor",
      "GET /nps/surveys/one supervisor",
      "PUT /nps/settings admin",
    ]);
  });

  it("declares its ERR_NPS_* codes with a client status and a title and detail in four languages, placeholders kept", () => {
    const errors = plugin.manifest.errors ?? {};
    expect(Object.keys(errors).sort()).toEqual(["ERR_NPS_MESSAGE_REQUIRED", "ERR_NPS_RANGE_INVALID", "ERR_NPS_SCALE_INVALID", "ERR_NPS_SURVEY_NOT_FOUND", "ERR_NPS_TIMEOUT_INVALID"]);
    const vars = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
    for (const [code, def] of Object.entries(errors)) {
      expect({ code, client: def.status >= 400 && def.status < 500 }).toEqual({ code, client: true });
      for (const loc of ["pt-BR", "en", "es", "ru"] as const) {
        expect(def[loc].title.trim()).not.toBe("");
        expect(vars(def[loc].detail)).toEqual(vars(def["pt-BR"].detail));
      }
    }
    expect(errors.ERR_NPS_SURVEY_NOT_FOUND.status).toBe(404);
  });

  it("has every text in the four languages, placeholders kept", () => {
    const keys = Object.keys(texts["pt-BR"]).sort();
    for (const locale of ["en", "es", "ru"] as const) expect(Object.keys(texts[locale]).sort()).toEqual(keys);
    for (const locale of Object.keys(texts) as Array<keyof typeof texts>) {
      for (const [k, v] of Object.entries(texts[locale])) {
        expect(v.trim()).not.toBe("");
        expect((v.match(/\{\{\w+\}\}/g) ?? []).sort()).toEqual(((texts["pt-BR"] as Record<string, string>)[k].match(/\{\{\w+\}\}/g) ?? []).sort());
      }
    }
  });
});
