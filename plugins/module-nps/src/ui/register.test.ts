/**
 * What the UI registers with the shell's runtime. Beside the UI's sources: the root type check
 * has no JSX, the shell's (which covers plugins' src/ui) does.
 */
import type { DashboardBlockDefinition, SettingsSectionDefinition, ShellRuntime } from "@openatende/plugin-sdk/ui";
import register from "./register";

describe("the NPS UI", () => {
  it("registers the settings child /configuracoes/nps, the /home block for supervisors, and its texts in every language", async () => {
    const sections: SettingsSectionDefinition[] = [];
    const blocks: DashboardBlockDefinition[] = [];
    const added: Array<Record<string, unknown>> = [];
    const runtime = {
      addTranslations: (x: Record<string, unknown>) => added.push(x),
      addSettingsSection: (s: SettingsSectionDefinition) => sections.push(s),
      addDashboardBlock: (b: DashboardBlockDefinition) => blocks.push(b),
    } as unknown as ShellRuntime;
    await register(runtime);
    expect(sections.map((s) => [s.path, s.label])).toEqual([["nps", { "pt-BR": "NPS", en: "NPS", es: "NPS", ru: "NPS" }]]);
    expect(blocks.map((b) => [b.key, b.access, b.title["pt-BR"]])).toEqual([["nps", "supervisor", "NPS"]]);
    expect(Object.keys(added[0])).toEqual(["pt-BR", "en", "es", "ru"]);
  });
});
