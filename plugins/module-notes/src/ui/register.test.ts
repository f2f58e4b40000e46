/**
 * What the notes UI registers with the shell's runtime. Beside the UI's sources: the root
 * type check has no JSX, the shell's (which covers plugins' src/ui) does.
 */
import type { ContactPanelSectionDefinition, ShellRuntime, UiMenuItem, UiRoute } from "@openatende/plugin-sdk/ui";
import register from "./register";

describe("the notes UI", () => {
  it("registers the /notas page, its menu entry with an icon, the contact panel's notes section, and its texts in every language", async () => {
    const routes: UiRoute[] = [];
    const menu: UiMenuItem[] = [];
    const added: Array<Record<string, unknown>> = [];
    const sections: ContactPanelSectionDefinition[] = [];
    const runtime = {
      addRoute: (r: UiRoute) => routes.push(r),
      addMenuItem: (m: UiMenuItem) => menu.push(m),
      addTranslations: (x: Record<string, unknown>) => added.push(x),
      registerContactPanelSection: (s: ContactPanelSectionDefinition) => sections.push(s),
    } as unknown as ShellRuntime;
    await register(runtime);
    expect(routes.map((r) => r.path)).toEqual(["notas"]);
    expect(menu).toEqual([{ key: "notas", path: "notas", label: { "pt-BR": "Notas", en: "Notes", es: "Notas", ru: "Заметки" }, icon: expect.stringMatching(/^data:image\/svg\+xml,/) }]);
    expect(sections.map((s) => [s.key, s.label])).toEqual([["notes", { "pt-BR": "Notas", en: "Notes", es: "Notas", ru: "Заметки" }]]);
    expect(Object.keys(added[0])).toEqual(["pt-BR", "en", "es", "ru"]);
  });
});
