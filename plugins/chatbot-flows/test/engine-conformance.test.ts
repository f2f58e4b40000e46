/**
 * The SDK's chatbot conformance kit against chatbot-flows (a fake core that records every call
 * and refuses what the core refuses, the plugin's own data on SQLite): the plugin is a chatbot
 * with the contract's chatbotMessage action, acts on a "started" inbound (the flow's menu) and
 * on the customer's answer (the hand-off the option leads to) with calls the core accepts,
 * skips a repeated inbound and, for one tenant's ticket, calls the core for that tenant only.
 * Each tenant's bot is a chat flow saved through the plugin's own route as that tenant's admin.
 */
import * as path from "node:path";
import { loadPluginMigrations, openPluginDataAt, runChatbotConformance, runPluginMigrations, testPluginDatabase, type ChatbotHarness, type TestPluginDatabase } from "@openatende/plugin-sdk";
import plugin from "../src/service";
import type { Flow } from "../src/model";

let db: TestPluginDatabase;

async function menuFlow(h: ChatbotHarness, tenantId: number): Promise<string> {
  const world = h.core.world(tenantId);
  const meta = { user: { id: world.userId, tenantId, profile: "admin" } };
  const pos = { x: 0, y: 0 };
  const graph = {
    nodes: [
      { id: "start", type: "start", position: pos, data: { type: "start", name: "Início" } },
      { id: "menu", type: "menu", position: pos, data: { type: "menu", name: "Menu", style: "buttons", title: "Olá!", text: "Escolha uma opção", options: [{ id: "a", title: "Vendas" }, { id: "b", title: "Suporte" }], sections: [] } },
      { id: "go", type: "transfer", position: pos, data: { type: "transfer", name: "Vendas", queueId: world.queueIds[1], userId: null, message: "Transferindo." } },
    ],
    edges: [
      { id: "e1", source: "start", target: "menu", sourceHandle: null },
      { id: "e2", source: "menu", target: "go", sourceHandle: "a" },
    ],
  };
  const flow = (await h.broker.call(`${h.service}.createFlow`, { kind: "chat", name: "Menu", active: true, graph }, { meta })) as Flow;
  return String(flow.id);
}

runChatbotConformance({
  plugin,
  ref: menuFlow,
  answer: "1",
  opening: "Olá",
  async setup() {
    db = await testPluginDatabase("sqlite");
    const data = await openPluginDataAt(db.address);
    await runPluginMigrations(data, loadPluginMigrations(path.join(__dirname, "..")));
    await data.close();
  },
  async teardown() {
    await db?.drop();
  },
  context: () => ({ database: db.address }),
});
