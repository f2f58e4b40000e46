import { PluginRegistry } from "../plugins/registry";
import { accessForPath, tierForPath } from "./gating";

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
    // The spec's gated names are no longer the shell's to know: without a plugin declaring them, no tier.
    expect(tierForPath("/campanhas", r)).toBeUndefined();
    expect(tierForPath("/home", r)).toBeUndefined();
    expect(tierForPath("/configuracoes/usuarios", r)).toBeUndefined();
  });

  it("keeps the profile gates of the core's routes", () => {
    expect(accessForPath("/configuracoes/canais")).toBe("admin");
    expect(accessForPath("/marketplace")).toBe("super");
    expect(accessForPath("/atendimento")).toBeUndefined();
  });
});
