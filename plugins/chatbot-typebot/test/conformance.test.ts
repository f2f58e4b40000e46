/**
 * The SDK's conformance kits run against the Typebot plugin: the chatbot kit (kind, the
 * chatbotMessage action, started and message inbounds acted on with calls the core accepts,
 * repeats skipped, tenants kept apart; a fake core, the plugin's own data on SQLite, a local
 * fake Typebot behind the outbound allow-list) and the generic kit (routes, texts in four
 * languages), plus what its UI registers.
 */
import * as path from "node:path";
import { loadPluginMigrations, openPluginDataAt, runChatbotConformance, runPluginConformance, runPluginMigrations, routesOf, testPluginDatabase, type ChatbotHarness, type TestPluginDatabase } from "@openatende/plugin-sdk";
import type { RegisterFn, SettingsSectionDefinition, ShellRuntime, FormSectionDefinition } from "@openatende/plugin-sdk/ui";
import plugin from "../src/service";
import { texts } from "../src/ui/texts";
import { startFakeTypebot, type FakeTypebot } from "./fake-typebot";

let fake: FakeTypebot;
let db: TestPluginDatabase;

/** The tenant's Typebot and its connection's section, saved through the plugin's own routes as that tenant's admin. */
async function configure(h: ChatbotHarness, tenantId: number): Promise<string> {
  const meta = { user: { id: h.core.world(tenantId).userId, tenantId, profile: "admin" } };
  const connectionId = h.core.world(tenantId).connectionId;
  await h.broker.call(`${h.service}.saveSettings`, { viewerUrl: fake.url, apiGeneration: "latest", sessionTimeoutMinutes: 30, queueId: h.core.world(tenantId).queueIds[1] }, { meta });
  await h.broker.call(`${h.service}.saveConnection`, { connectionId, enabled: true, publicId: "atendimento", restartKeyword: "#menu" }, { meta });
  return String(connectionId);
}

runChatbotConformance({
  plugin,
  ref: configure,
  answer: "1",
  opening: "Olá",
  async setup() {
    fake = await startFakeTypebot();
    db = await testPluginDatabase("sqlite");
    const data = await openPluginDataAt(db.address);
    await runPluginMigrations(data, loadPluginMigrations(path.join(__dirname, "..")));
    await data.close();
  },
  async teardown() {
    await fake?.stop();
    await db?.drop();
  },
  context: () => ({ database: db.address, outboundAllow: ["127.0.0.1"] }),
});

runPluginConformance({ plugin, texts });

describe("the Typebot plugin", () => {
  it("is a PLUS chatbot whose every route is an admin's, asks PLUS and lives under /typebot", () => {
    expect(plugin.manifest).toMatchObject({ id: "chatbot-typebot", kind: "chatbot", tier: "PLUS", ui: { routes: ["configuracoes/typebotapi"] }, profiles: ["admin"] });
    const routes = routesOf(plugin);
    expect(routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(["GET /typebot/connection", "GET /typebot/failures", "GET /typebot/settings", "POST /typebot/settings/test", "PUT /typebot/connection", "PUT /typebot/settings"]);
    for (const r of routes) expect({ access: r.def.access, tier: r.def.tier }).toEqual({ access: "admin", tier: "PLUS" });
  });

  it("registers /configuracoes/typebotapi and the connection form's Typebot section, with its texts in every language", async () => {
    const sections: SettingsSectionDefinition[] = [];
    const forms: FormSectionDefinition[] = [];
    const added: Array<Record<string, unknown>> = [];
    const runtime = { addSettingsSection: (s: SettingsSectionDefinition) => sections.push(s), registerConnectionFormSection: (s: FormSectionDefinition) => forms.push(s), addTranslations: (x: Record<string, unknown>) => added.push(x) } as unknown as ShellRuntime;
    // Required, not imported: the remote's React files are type-checked with the shell's settings (shell/tsconfig.json).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const register = (require("../src/ui/register") as { default: RegisterFn }).default;
    await register(runtime);
    expect(sections.map((s) => [s.path, s.label])).toEqual([["typebotapi", { "pt-BR": "Typebot", en: "Typebot", es: "Typebot", ru: "Typebot" }]]);
    expect(forms.map((f) => f.key)).toEqual(["typebot"]);
    expect(Object.keys(added[0])).toEqual(["pt-BR", "en", "es", "ru"]);
  });

  it("declares its own error code with texts in four languages", () => {
    expect(Object.keys(plugin.manifest.errors ?? {})).toEqual(["ERR_TYPEBOT_NOT_CONFIGURED"]);
    for (const loc of ["pt-BR", "en", "es", "ru"] as const) expect(plugin.manifest.errors!.ERR_TYPEBOT_NOT_CONFIGURED[loc].detail.trim()).not.toBe("");
  });
});
