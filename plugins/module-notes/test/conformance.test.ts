/**
 * The SDK's generic conformance kit (definePlugin object, routes with access and no tier below
 * PLUS, off the core's paths, a remote with register, texts in four languages). What the UI
 * registers is tested beside it (src/ui/register.test.ts: the root type check has no JSX).
 */
import { runPluginConformance, routesOf } from "@openatende/plugin-sdk";
import plugin from "../src/service";
import { texts } from "../src/ui/texts";

runPluginConformance({ plugin, texts });

describe("the notes plugin", () => {
  it("is a PLUS module whose every route is a user's GET under /notes asking PLUS", () => {
    expect(plugin.manifest).toMatchObject({ id: "module-notes", kind: "module", tier: "PLUS", ui: { routes: ["notas"] } });
    const routes = routesOf(plugin).map((r) => ({ route: `${r.method} ${r.path}`, access: r.def.access, tier: r.def.tier }));
    expect(routes.sort((x, y) => x.route.localeCompare(y.route))).toEqual([
      { route: "GET /notes", access: "user", tier: "PLUS" },
      { route: "GET /notes/export", access: "user", tier: "PLUS" },
      { route: "GET /notes/options", access: "user", tier: "PLUS" },
    ]);
  });
});
