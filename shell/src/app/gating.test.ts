import { PluginRegistry, routeMatches } from "../plugins/registry";
import { accessForPath, isMasterAdmin, masterOnlyPath, tierForPath } from "./gating";

describe("gating", () => {
  it("takes a plugin route's tier from its manifest: a declared route, or one an enabled remote registered", () => {
    const r = new PluginRegistry();
    r.setRouteTiers([
      { path: "kanban", pluginId: "module-kanban", tier: "PLUS" },
      { path: "configuracoes/prompt", pluginId: "ai-prompt", tier: "PREMIUM" },
    ]);
    r.setEnabled([{ id: "report-nps", kind: "report", version: "1.0.0", tier: "BASIC", displayName: { "pt-BR": "NPS" }, ui: null }]);
    r.addRoute({ pluginId: "report-nps", path: "/relatorios/nps", load: async () => ({ default: () => null }) } as never);
    expect(tierForPath("/kanban", r)).toBe("PLUS");
    expect(tierForPath("/configuracoes/prompt", r)).toBe("PREMIUM");
    expect(tierForPath("/relatorios/nps", r)).toBe("BASIC");
    expect(tierForPath("/home", r)).toBeUndefined();
    expect(tierForPath("/configuracoes/usuarios", r)).toBeUndefined();
  });

  it("names the spec's tier of a gated feature no plugin has claimed yet, and lets a plugin's manifest decide once it does", () => {
    const r = new PluginRegistry();
    expect(tierForPath("/campanhas", r)).toBe("BASIC");
    expect(tierForPath("/chat-interno", r)).toBe("PLUS");
    expect(tierForPath("/campanhasms", r)).toBe("PREMIUM");
    expect(tierForPath("/configuracoes/typebotapi", r)).toBe("PLUS");
    expect(tierForPath("/configuracoes/importacao-zpro", r)).toBe("PREMIUM");
    // A plugin that claims a path decides its tier, even against the table.
    r.setRouteTiers([{ path: "campanhas", pluginId: "campaign-basic", tier: "PLUS" }]);
    expect(tierForPath("/campanhas", r)).toBe("PLUS");
    // A declared parametrised route ("campanhaswaba/:id") answers for each of its paths.
    r.setRouteTiers([{ path: "campanhaswaba/:id", pluginId: "campaign-waba", tier: "PLUS" }]);
    expect(tierForPath("/campanhaswaba/7", r)).toBe("PLUS");
    expect(tierForPath("/campanhaswaba/7/x", r)).toBe("PREMIUM");
    expect(routeMatches("campanhas/:id", "/campanhas/12/")).toBe(true);
    expect(routeMatches("campanhas/:id", "/campanhas")).toBe(false);
    expect(routeMatches("campanhas/:id", "/campanhasms/1")).toBe(false);
  });

  it("keeps the profile gates of the core's routes", () => {
    expect(accessForPath("/configuracoes/canais")).toBe("admin");
    expect(accessForPath("/marketplace")).toBe("super");
    expect(accessForPath("/atendimento")).toBeUndefined();
  });

  it("keeps global settings for the master admin: a super with the master flag", () => {
    expect(masterOnlyPath("/configuracoes/globais")).toBe(true);
    expect(masterOnlyPath("/configuracoes/geral")).toBe(false);
    expect(masterOnlyPath("/globais")).toBe(false);
    const who = (profile: "admin" | "super", isMaster: boolean) => ({ session: { isMaster }, can: (a: string) => a !== "super" || profile === "super" });
    expect(isMasterAdmin(who("super", true))).toBe(true);
    expect(isMasterAdmin(who("super", false))).toBe(false);
    expect(isMasterAdmin(who("admin", true))).toBe(false);
  });
});
