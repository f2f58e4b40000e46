/**
 * The SDK's generic conformance kit (definePlugin object, routes with access, params and no
 * tier below PLUS, off the core's paths, only core events, a remote with register, texts in
 * four languages), and what its UI registers.
 */
import { runPluginConformance, routesOf } from "@openatende/plugin-sdk";
import type { RegisterFn, ShellRuntime, UiMenuItem, UiRoute } from "@openatende/plugin-sdk/ui";
import plugin from "../src/service";
import { texts } from "../src/ui/texts";

runPluginConformance({ plugin, texts });

describe("the kanban plugin", () => {
  it("is a PLUS module whose every route is a user's, asks PLUS and lives under /kanban", () => {
    expect(plugin.manifest).toMatchObject({ id: "module-kanban", kind: "module", tier: "PLUS", ui: { routes: ["kanban"] }, profiles: ["user", "supervisor", "admin"] });
    const routes = routesOf(plugin);
    expect(routes.length).toBeGreaterThanOrEqual(10);
    for (const r of routes) expect({ route: `${r.method} ${r.path}`, access: r.def.access, tier: r.def.tier }).toEqual({ route: expect.stringMatching(/^[A-Z]+ \/kanban\//), access: "user", tier: "PLUS" });
    // Ids travel in the body or the query, never the path (see the README).
    expect(routes.filter((r) => r.path.includes(":"))).toEqual([]);
  });

  it("declares its own error codes with texts in four languages", () => {
    expect(Object.keys(plugin.manifest.errors ?? {}).sort()).toEqual(["ERR_KANBAN_CARD_EXISTS", "ERR_KANBAN_CARD_NOT_FOUND", "ERR_KANBAN_COLUMN_NOT_EMPTY", "ERR_KANBAN_COLUMN_NOT_FOUND"]);
    expect(plugin.manifest.errors!.ERR_KANBAN_COLUMN_NOT_EMPTY.status).toBe(409);
    for (const def of Object.values(plugin.manifest.errors!)) for (const loc of ["pt-BR", "en", "es", "ru"] as const) expect(def[loc].title.trim()).not.toBe("");
  });

  it("registers the /kanban page and its menu entry, with its texts in every language", async () => {
    const routes: UiRoute[] = [];
    const menu: UiMenuItem[] = [];
    const added: Array<Record<string, unknown>> = [];
    const runtime = { addRoute: (r: UiRoute) => routes.push(r), addMenuItem: (m: UiMenuItem) => menu.push(m), addTranslations: (x: Record<string, unknown>) => added.push(x) } as unknown as ShellRuntime;
    // Required, not imported: the remote's React files are type-checked with the shell's settings (shell/tsconfig.json).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const register = (require("../src/ui/register") as { default: RegisterFn }).default;
    await register(runtime);
    expect(routes.map((r) => r.path)).toEqual(["kanban"]);
    expect(menu).toEqual([{ key: "kanban", path: "kanban", label: { "pt-BR": "Kanban", en: "Kanban", es: "Kanban", ru: "Канбан" }, icon: expect.stringMatching(/^data:image\/svg\+xml,/) }]);
    expect(Object.keys(added[0])).toEqual(["pt-BR", "en", "es", "ru"]);
  });
});
