/**
 * The SDK's generic conformance kit (definePlugin object, routes with access and params, off
 * the core's paths, only core events, a remote with register, texts in four languages), the
 * manifest, its error catalogue and the texts. What the UI registers is tested beside it
 * (src/ui/register.test.ts: the root type check has no JSX).
 */
import { runPluginConformance, routesOf, validateManifest } from "@openatende/plugin-sdk";
import plugin from "../src/service";
import { texts } from "../src/ui/texts";
import pkg from "../package.json";

runPluginConformance({ plugin, texts });

describe("the scheduled messages plugin", () => {
  it("is a FREE module (spec §6 gates no tier on it) declaring /mensagem-agendadas, named in four languages", () => {
    const r = validateManifest(pkg);
    expect(r.ok).toBe(true);
    expect(plugin.manifest).toMatchObject({ id: "module-scheduled-messages", kind: "module", tier: "FREE", ui: { routes: ["mensagem-agendadas"] }, profiles: ["user", "supervisor", "admin"] });
    expect(Object.keys(plugin.manifest.displayName).sort()).toEqual(["en", "es", "pt-BR", "ru"]);
  });

  it("has every route a user's, under /scheduled-messages, ids in the query or the body", () => {
    const routes = routesOf(plugin).map((r) => `${r.method} ${r.path} ${r.def.access}`);
    expect(routes.sort()).toEqual([
      "GET /scheduled-messages user",
      "GET /scheduled-messages/one user",
      "GET /scheduled-messages/options user",
      "PATCH /scheduled-messages user",
      "POST /scheduled-messages user",
      "POST /scheduled-messages/cancel user",
    ]);
  });

  it("declares its ERR_SCHEDULE_* codes with a client status and a title and detail in four languages, placeholders kept", () => {
    const errors = plugin.manifest.errors ?? {};
    expect(Object.keys(errors).every((c) => c.startsWith("ERR_SCHEDULE_"))).toBe(true);
    expect(Object.keys(errors).length).toBe(11);
    for (const [code, def] of Object.entries(errors)) {
      expect({ code, status: def.status >= 400 && def.status < 500 }).toEqual({ code, status: true });
      const vars = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
      for (const loc of ["pt-BR", "en", "es", "ru"] as const) {
        expect(def[loc].title.trim()).not.toBe("");
        expect(def[loc].detail.trim()).not.toBe("");
        expect(vars(def[loc].detail)).toEqual(vars(def["pt-BR"].detail));
      }
    }
    expect(errors.ERR_SCHEDULE_NOT_PENDING.status).toBe(409);
    expect(errors.ERR_SCHEDULE_MESSAGE_NOT_FOUND.status).toBe(404);
  });

  it("has every text in the four languages, placeholders kept", () => {
    const keys = Object.keys(texts["pt-BR"]).sort();
    for (const locale of ["en", "es", "ru"] as const) expect(Object.keys(texts[locale]).sort()).toEqual(keys);
    for (const locale of Object.keys(texts) as Array<keyof typeof texts>) {
      for (const [k, v] of Object.entries(texts[locale])) {
        expect(v.trim()).not.toBe("");
        expect(v.match(/\{\{\w+\}\}/g) ?? []).toEqual((texts["pt-BR"] as Record<string, string>)[k].match(/\{\{\w+\}\}/g) ?? []);
      }
    }
  });
});
