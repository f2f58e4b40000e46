/**
 * What the UI registers with the shell's runtime. Beside the UI's sources: the root type check
 * has no JSX, the shell's (which covers plugins' src/ui) does.
 */
import type { ComposerActionDefinition, ContactPanelSectionDefinition, ShellRuntime, UiMenuItem, UiRoute } from "@openatende/plugin-sdk/ui";
import register from "./register";

describe("the scheduled messages UI", () => {
  it("registers /mensagem-agendadas and its menu entry, the composer's schedule button, the ticket's list, and its texts in every language", async () => {
    const routes: UiRoute[] = [];
    const menu: UiMenuItem[] = [];
    const added: Array<Record<string, unknown>> = [];
    const sections: ContactPanelSectionDefinition[] = [];
    const actions: ComposerActionDefinition[] = [];
    const runtime = {
      addRoute: (r: UiRoute) => routes.push(r),
      addMenuItem: (m: UiMenuItem) => menu.push(m),
      addTranslations: (x: Record<string, unknown>) => added.push(x),
      registerContactPanelSection: (s: ContactPanelSectionDefinition) => sections.push(s),
      registerComposerAction: (a: ComposerActionDefinition) => actions.push(a),
    } as unknown as ShellRuntime;
    await register(runtime);
    expect(routes.map((r) => r.path)).toEqual(["mensagem-agendadas"]);
    expect(menu).toEqual([{ key: "mensagem-agendadas", path: "mensagem-agendadas", label: { "pt-BR": "Mensagens agendadas", en: "Scheduled messages", es: "Mensajes programados", ru: "Запланированные сообщения" }, icon: expect.stringMatching(/^data:image\/svg\+xml,/) }]);
    expect(actions.map((a) => [a.key, a.label["pt-BR"], a.label.en])).toEqual([["schedule", "Agendar mensagem", "Schedule message"]]);
    expect(sections.map((s) => [s.key, s.label.ru])).toEqual([["scheduled", "Запланированные сообщения"]]);
    expect(Object.keys(added[0])).toEqual(["pt-BR", "en", "es", "ru"]);
  });
});
