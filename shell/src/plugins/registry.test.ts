import { PluginRegistry, type EnabledPlugin } from "./registry";

const plugin = (id: string): EnabledPlugin => ({ id, kind: "module", version: "1.0.0", tier: "PLUS", displayName: { "pt-BR": id }, ui: { remoteEntry: null, exposes: [] } });
const entry = (pluginId: string, key: string) => ({ pluginId, key, path: `/${key}`, label: { "pt-BR": key } });

describe("plugin menu entries", () => {
  it("follow the enabled plugins' order, whichever remote registered first", () => {
    const r = new PluginRegistry();
    r.setEnabled([plugin("module-kanban"), plugin("module-notes")]);
    // The notes remote finished loading first this time.
    r.addMenuItem(entry("module-notes", "notas"));
    r.addMenuItem(entry("module-kanban", "kanban"));
    r.addMenuItem(entry("module-kanban", "kanban-board"));
    expect(r.menu.map((m) => m.key)).toEqual(["kanban", "kanban-board", "notas"]);
    // An entry registered again moves behind its own plugin's entries, never behind another plugin's.
    r.addMenuItem(entry("module-notes", "notas"));
    r.addMenuItem(entry("module-kanban", "kanban"));
    expect(r.menu.map((m) => m.key)).toEqual(["kanban-board", "kanban", "notas"]);
  });

  it("puts entries of a plugin the core did not list last", () => {
    const r = new PluginRegistry();
    r.setEnabled([plugin("module-notes")]);
    r.addMenuItem(entry("module-x", "x"));
    r.addMenuItem(entry("module-notes", "notas"));
    expect(r.menu.map((m) => m.key)).toEqual(["notas", "x"]);
  });
});
