/**
 * The SDK's generic conformance kit (definePlugin object, routes with access, params and no
 * tier below PLUS, off the core's paths, only core events, a remote with register, texts in
 * four languages), and what this plugin declares and registers.
 */
import { runPluginConformance, routesOf } from "@openatende/plugin-sdk";
import type { RegisterFn, SettingsSectionDefinition, ShellRuntime, UiMenuItem, UiRoute } from "@openatende/plugin-sdk/ui";
import plugin from "../src/service";
import { texts } from "../src/ui/texts";

runPluginConformance({ plugin, texts });

describe("the internal chat plugin", () => {
  it("is a PLUS module for every profile; chat routes are any user's, group routes an admin's, all under /chat-interno with ids off the path", () => {
    expect(plugin.manifest).toMatchObject({ id: "module-internal-chat", kind: "module", tier: "PLUS", ui: { routes: ["chat-interno", "configuracoes/grupos"] }, profiles: ["user", "supervisor", "admin"] });
    const routes = routesOf(plugin).map((r) => ({ route: `${r.method} ${r.path}`, access: r.def.access, tier: r.def.tier }));
    expect(routes.sort((x, y) => x.route.localeCompare(y.route))).toEqual(
      [
        ["GET /chat-interno/users", "user"],
        ["GET /chat-interno/conversations", "user"],
        ["GET /chat-interno/messages", "user"],
        ["POST /chat-interno/messages", "user"],
        ["POST /chat-interno/media", "user"],
        ["POST /chat-interno/read", "user"],
        ["GET /chat-interno/groups", "admin"],
        ["POST /chat-interno/groups", "admin"],
        ["PUT /chat-interno/groups", "admin"],
        ["DELETE /chat-interno/groups", "admin"],
        ["POST /chat-interno/groups/image", "admin"],
      ]
        .map(([route, access]) => ({ route, access, tier: "PLUS" }))
        .sort((x, y) => x.route.localeCompare(y.route)),
    );
  });

  it("declares its error codes with texts in four languages, and only 4xx statuses", () => {
    const errors = plugin.manifest.errors ?? {};
    expect(Object.keys(errors).sort()).toEqual([
      "ERR_INTERNAL_CHAT_AUDIO_TOO_SHORT",
      "ERR_INTERNAL_CHAT_FILE_TOO_LARGE",
      "ERR_INTERNAL_CHAT_FILE_TYPE",
      "ERR_INTERNAL_CHAT_GROUP_INACTIVE",
      "ERR_INTERNAL_CHAT_GROUP_NOT_FOUND",
      "ERR_INTERNAL_CHAT_INVALID_IMAGE_URL",
      "ERR_INTERNAL_CHAT_INVALID_MESSAGE",
    ]);
    expect(errors.ERR_INTERNAL_CHAT_GROUP_NOT_FOUND.status).toBe(404);
    for (const def of Object.values(errors)) {
      expect(def.status).toBeGreaterThanOrEqual(400);
      expect(def.status).toBeLessThan(500);
      for (const loc of ["pt-BR", "en", "es", "ru"] as const) expect(def[loc].title.trim()).not.toBe("");
    }
  });

  it("registers /chat-interno with its menu entry and the settings child grupos, with its texts in every language", async () => {
    const routes: UiRoute[] = [];
    const menu: UiMenuItem[] = [];
    const sections: SettingsSectionDefinition[] = [];
    const added: Array<Record<string, unknown>> = [];
    const runtime = {
      addRoute: (r: UiRoute) => routes.push(r),
      addMenuItem: (m: UiMenuItem) => menu.push(m),
      addSettingsSection: (s: SettingsSectionDefinition) => sections.push(s),
      addTranslations: (x: Record<string, unknown>) => added.push(x),
    } as unknown as ShellRuntime;
    // Required, not imported: the remote's React files are type-checked with the shell's settings (shell/tsconfig.json).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const register = (require("../src/ui/register") as { default: RegisterFn }).default;
    await register(runtime);
    expect(routes.map((r) => r.path)).toEqual(["chat-interno"]);
    expect(menu).toEqual([{ key: "chat-interno", path: "chat-interno", label: { "pt-BR": "Chat interno", en: "Internal chat", es: "Chat interno", ru: "Внутренний чат" }, icon: expect.stringMatching(/^data:image\/svg\+xml,/) }]);
    expect(sections.map((s) => [s.path, s.label["pt-BR"]])).toEqual([["grupos", "Grupos do chat interno"]]);
    expect(Object.keys(added[0])).toEqual(["pt-BR", "en", "es", "ru"]);
  });
});
