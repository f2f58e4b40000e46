/**
 * The SDK's generic conformance kit (definePlugin object, routes with access, params, off the
 * core's paths, only core events, a remote with register, texts in four languages), the hook
 * it declares, its codes, and what its UI registers.
 */
import { runPluginConformance, routesOf, TICKET_BEFORE_CLOSE_ACTION } from "@openatende/plugin-sdk";
import type { ClosingDialogDefinition, RegisterFn, SettingsSectionDefinition, ShellRuntime, UiMenuItem, UiRoute } from "@openatende/plugin-sdk/ui";
import plugin from "../src/service";
import { texts } from "../src/ui/texts";

runPluginConformance({ plugin, texts });

describe("the closure questionnaires plugin", () => {
  it("is a FREE module: settings routes for admins, the ticket's questions and answers for any user, the report for supervisors (BASIC, as every report)", () => {
    expect(plugin.manifest).toMatchObject({ id: "module-closure-questionnaires", kind: "module", tier: "FREE", ui: { routes: ["configuracoes/closure-questionnaires", "relatorios", "relatorios/relatorio-closure-questionnaires"] } });
    const routes = Object.fromEntries(routesOf(plugin).map((r) => [`${r.method} ${r.path}`, r.def.access]));
    expect(routesOf(plugin).filter((r) => r.def.tier).map((r) => [r.path, r.def.tier])).toEqual([
      ["/relatorios/closure-questionnaires", "BASIC"],
      ["/relatorios/closure-questionnaires/export", "BASIC"],
    ]);
    expect(routesOf(plugin).filter((r) => r.path.includes(":"))).toEqual([]);
    expect(routes).toEqual({
      "GET /closure-questionnaires": "admin",
      "POST /closure-questionnaires": "admin",
      "PUT /closure-questionnaires": "admin",
      "DELETE /closure-questionnaires": "admin",
      "GET /closure-questionnaires/ticket": "user",
      "POST /closure-questionnaires/answers": "user",
      "GET /closure-questionnaires/closures": "user",
      "GET /relatorios/closure-questionnaires": "supervisor",
      "GET /relatorios/closure-questionnaires/export": "supervisor",
    });
  });

  it("hooks the core's close and hears ticket.closed", () => {
    const meta = (plugin.schema.metadata as { plugin: { hooks?: string[]; events?: string[] } }).plugin;
    expect(meta.hooks).toEqual(["beforeClose"]);
    expect(meta.events).toEqual(["ticket.closed"]);
    expect(plugin.schema.actions).toHaveProperty(TICKET_BEFORE_CLOSE_ACTION);
  });

  it("declares its own error codes with texts in four languages", () => {
    const errors = plugin.manifest.errors ?? {};
    expect(Object.keys(errors).sort()).toEqual([
      "ERR_CLOSURE_ANSWERS_REQUIRED",
      "ERR_CLOSURE_ANSWER_INVALID",
      "ERR_CLOSURE_QUESTIONNAIRE_NOT_FOUND",
      "ERR_CLOSURE_QUESTION_INVALID",
      "ERR_CLOSURE_QUEUE_NOT_FOUND",
      "ERR_CLOSURE_REPORT_PERIOD_INVALID",
      "ERR_CLOSURE_TICKET_CLOSED",
    ]);
    expect(errors.ERR_CLOSURE_ANSWERS_REQUIRED.status).toBe(422);
    for (const def of Object.values(errors)) for (const loc of ["pt-BR", "en", "es", "ru"] as const) expect(def[loc].title.trim()).not.toBe("");
  });

  it("registers its settings section, its closing dialog and its report on /relatorios, with its texts in every language", async () => {
    const routes: UiRoute[] = [];
    const menu: UiMenuItem[] = [];
    const sections: SettingsSectionDefinition[] = [];
    const dialogs: ClosingDialogDefinition[] = [];
    const added: Array<Record<string, unknown>> = [];
    const runtime = {
      pluginId: plugin.id,
      locale: "pt-BR",
      tenant: { id: 1, name: "Loja", tier: "BASIC" },
      addRoute: (r: UiRoute) => routes.push(r),
      addMenuItem: (m: UiMenuItem) => menu.push(m),
      addTranslations: (x: Record<string, unknown>) => added.push(x),
      addSettingsSection: (s: SettingsSectionDefinition) => sections.push(s),
      registerClosingDialog: (d: ClosingDialogDefinition) => dialogs.push(d),
    } as unknown as ShellRuntime;
    // Required, not imported: the remote's React files are type-checked with the shell's settings (shell/tsconfig.json).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const register = (require("../src/ui/register") as { default: RegisterFn }).default;
    await register(runtime);
    expect(sections.map((s) => [s.path, s.label["pt-BR"]])).toEqual([["closure-questionnaires", "Questionários de encerramento"]]);
    expect(dialogs.map((d) => d.key)).toEqual(["questionnaire"]);
    expect(routes.map((r) => [r.path, r.access])).toEqual([
      ["relatorios/relatorio-closure-questionnaires", "supervisor"],
      ["relatorios", "supervisor"],
    ]);
    expect(menu.map((m) => m.key)).toEqual(["relatorios"]);
    expect(Object.keys(added[0])).toEqual(["pt-BR", "en", "es", "ru"]);
    // A FREE tenant has no reports: its settings and dialog only.
    routes.length = 0;
    await register({ ...runtime, tenant: { id: 2, name: "Livre", tier: "FREE" } } as ShellRuntime);
    expect(routes).toEqual([]);
    expect(sections).toHaveLength(2);
  });
});
