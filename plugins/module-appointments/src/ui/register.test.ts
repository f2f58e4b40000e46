/**
 * What the UI registers with the shell's runtime. Beside the UI's sources: the root type check
 * has no JSX, the shell's (which covers plugins' src/ui) does. The pages themselves (FullCalendar
 * is ESM-only) are tested in Chromium (shell/test/appointments.browser.test.ts).
 */
import type { SettingsSectionDefinition, ShellRuntime, UiMenuItem, UiRoute } from "@openatende/plugin-sdk/ui";
import register from "./register";

describe("the appointments UI", () => {
  it("registers /agendamentos with its menu entry, the services' settings section for PREMIUM tenants, and its texts in every language", async () => {
    const routes: UiRoute[] = [];
    const menu: UiMenuItem[] = [];
    const sections: SettingsSectionDefinition[] = [];
    const added: Array<Record<string, unknown>> = [];
    const runtime = {
      tenant: { id: 1, name: "Clínica", tier: "PREMIUM" },
      addRoute: (r: UiRoute) => routes.push(r),
      addMenuItem: (m: UiMenuItem) => menu.push(m),
      addSettingsSection: (s: SettingsSectionDefinition) => sections.push(s),
      addTranslations: (x: Record<string, unknown>) => added.push(x),
    } as unknown as ShellRuntime;
    await register(runtime);
    expect(routes.map((r) => r.path)).toEqual(["agendamentos"]);
    expect(menu).toEqual([{ key: "agendamentos", path: "agendamentos", label: { "pt-BR": "Agendamentos", en: "Appointments", es: "Citas", ru: "Записи" }, icon: expect.stringMatching(/^data:image\/svg\+xml,/) }]);
    expect(sections.map((s) => [s.path, s.label["pt-BR"], s.label.ru])).toEqual([["servicos", "Serviços", "Услуги"]]);
    expect(Object.keys(added[0])).toEqual(["pt-BR", "en", "es", "ru"]);
    // A PLUS tenant has the calendar, not the services' settings (PREMIUM).
    sections.length = 0;
    routes.length = 0;
    await register({ ...runtime, tenant: { id: 2, name: "Consultório", tier: "PLUS" } } as ShellRuntime);
    expect(routes.map((r) => r.path)).toEqual(["agendamentos"]);
    expect(sections).toEqual([]);
  });
});
