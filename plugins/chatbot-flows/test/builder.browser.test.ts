/**
 * The chat-flow builder (/configuracoes/chat-flow) in the built shell, in Debian's Chromium,
 * against a real core: an admin creates a flow from the list and draws start → message → menu
 * with two options → transfer + end by dragging handles; a self link and a loop are refused
 * with the builder's notice and no edge is added; the automatic layouts move the nodes in their
 * direction; a file over 5 MB is refused before any upload and a small one is uploaded; the flow
 * is saved and a reload shows it again; the downloaded JSON imported from the list gives the
 * same flow (compared through the API), and a JSON with a loop is refused with the server's
 * text; a flow bound to a connection cannot be deleted (ERR_FLOW_IN_USE), and once unbound it can.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Browser, Page } from "playwright-core";
import { createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, notices, poll, screenErrors, screenshot, sessionLogin, shot, waitAttr, waitCount, waitText } from "../../../shell/test/browser";
import { addNode, drag, DRAWN, edgeCount, idOf, layout, nodeOf, pick, positions, shape, sourceHandle, still, targetHandle, usePage } from "./builder-kit";
import type { Flow, FlowExport, FlowRun } from "../src/model";

jest.setTimeout(420_000);

type P = Page & { errors: string[] };

const REMOTE = path.resolve(__dirname, "../dist/ui/remoteEntry.js");
let t: TestCore;
let f: TenantFixture;
/** A second admin for API checks: the browser login ends the fixture admin's API session. */
let api: Auth;
let browser: Browser;
let page: P;
const queues: Record<string, number> = {};
const flowName = `Atendimento ${uid()}`;
let flowId = 0;
/** The browser's language, so the server's error texts are the ones the page shows. */
const PT = { "accept-language": "pt-BR" };

async function ok<T = any>(p: Promise<{ status: number; body: T }>, status = 200): Promise<T> {
  const r = await p;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  if (!fs.existsSync(REMOTE)) throw new Error("this plugin's UI is not built: run `node scripts/build-ui.cjs` (npm test does)");
  t = await startCore({ env: { NAMESPACE: `cbf-builder-${uid()}` } });
  f = await createTenant(t, { tier: "PLUS", name: `Aurora ${uid()}` });
  await acceptTerms(t, f);
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: "Admin2", email, password: PASSWORD, profile: "admin" });
  api = await t.api.login(email);
  await poll(() => t.api.get("/chatbot-flows/flows", api), (r) => r.status === 200, "the plugin's routes", 30_000);
  for (const q of await ok<Array<{ id: number; name: string }>>(t.api.get("/queues", api))) queues[q.name] = q.id;
  browser = await launchBrowser();
  page = (await newPage(browser, { viewport: { width: 1440, height: 900 } })) as P;
  usePage(page);
  await sessionLogin(page, t.url, f.emails.admin, "/configuracoes/chat-flow");
  await page.waitForSelector("[data-testid=chat-flow-list]", { timeout: 60_000 });
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const apiFlow = async (id: number) => ok<Flow>(t.api.get(`/chatbot-flows/flows/one?id=${id}&kind=chat`, api));

// --- the tests ------------------------------------------------------------------------------

test("an admin draws a flow by dragging handles; self links and loops are refused; layouts move the nodes; save and reload keep it", async () => {
  await waitText(page.locator("[data-testid=chat-flow-list]"), "Chat flow");
  await page.click("[data-testid=chat-flow-new]");
  await page.fill("[data-testid=chat-flow-new-name]", flowName);
  await page.click("[data-testid=chat-flow-new-ok]");
  await page.waitForSelector("[data-testid=flow-builder]", { timeout: 30_000 });
  flowId = Number(await page.locator("[data-testid=flow-builder]").getAttribute("data-flow-id"));
  expect(page.url()).toContain(`#/configuracoes/chat-flow/builder/${flowId}`);
  await waitCount(nodeOf("start"), 1);
  await waitText(page.locator("[data-testid=flow-title]"), flowName);

  // The elements, each filled in its side panel.
  await addNode("message");
  await page.fill("[data-testid=flow-node-name-input]", "Boas-vindas");
  await page.fill("[data-testid=flow-text-input]", "Olá, {{name}}! Bem-vindo.");
  // A file over 5 MB is refused before any upload; a small one is uploaded.
  await page.click("[data-testid=flow-add-media]");
  const mediaInput = page.locator("[data-testid=flow-interaction-media-new] [data-testid=flow-media-input]");
  const uploads: string[] = [];
  page.on("request", (r) => r.url().includes("/chatbot-flows/media") && uploads.push(r.url()));
  await mediaInput.setInputFiles({ name: "grande.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 1) });
  await waitText(page.locator("[data-testid=flow-interaction-media-new] [role=alert]"), "grande.pdf passa de 5 MB");
  expect(uploads).toEqual([]);
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
  await mediaInput.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png });
  await waitText(page.locator("[data-testid=flow-interaction-media] [data-testid=flow-media-name]"), "logo.png", 20_000);
  expect(uploads.length).toBe(1);
  await shot(page, "chat-flow-message-panel");

  await addNode("menu");
  await page.fill("[data-testid=flow-node-name-input]", "Menu");
  await page.fill("[data-testid=flow-menu-text]", "Escolha uma opção");
  const titles = page.locator("[data-testid=flow-option-title]");
  await titles.nth(0).fill("Vendas");
  await titles.nth(1).fill("Suporte");

  await addNode("transfer");
  await page.fill("[data-testid=flow-node-name-input]", "Transferir");
  await pick(page.locator("[data-testid=flow-transfer-queue]"), "Vendas");

  await addNode("end");
  await page.fill("[data-testid=flow-node-name-input]", "Fim");
  await page.fill("[data-testid=flow-end-message]", "Até logo!");
  await page.click("[data-testid=flow-node-panel-close]");
  await waitCount(page.locator("[data-testid=flow-node-panel]"), 0);

  // Spread them out, then connect by dragging from output handles to input handles.
  // Without edges, top-bottom puts them all on one rank, side by side (centred on it; the
  // direction is already TB, so the positions say when it is done).
  await layout("dagre-tb");
  const oneRank = (p: Record<string, { x: number; y: number }>) => {
    const ys = Object.values(p).map((v) => v.y);
    return Object.keys(p).length === 5 && new Set(Object.values(p).map((v) => v.x)).size === 5 && Math.max(...ys) - Math.min(...ys) < 40;
  };
  await poll(positions, oneRank, "one rank");
  const [start, msg, menu, transfer, end] = await Promise.all(["start", "message", "menu", "transfer", "end"].map(idOf));
  const options = await nodeOf("menu").locator("[data-testid=flow-node-output]").evaluateAll((els: any[]) => els.map((e) => e.getAttribute("data-handle") as string));
  expect(options).toHaveLength(2);
  await still();
  await screenshot(page, "chat-flow-before-connect");
  await drag(sourceHandle(start), targetHandle(msg));
  await poll(edgeCount, (n) => n === 1, "the first edge");
  await drag(sourceHandle(msg), targetHandle(menu));
  await drag(sourceHandle(menu, options[0]), targetHandle(transfer));
  await drag(sourceHandle(menu, options[1]), targetHandle(end));
  await poll(edgeCount, (n) => n === 4, "four edges");
  await waitCount(page.locator(".react-flow__edge"), 4);

  // A self link: the menu's output dropped on its own input.
  await drag(sourceHandle(menu, options[0]), targetHandle(menu));
  await waitAttr(page.locator("[data-testid=flow-notice]"), "data-code", "ERR_FLOW_SELF_LINK");
  await waitText(page.locator("[data-testid=flow-notice]"), "não pode se ligar a si mesmo");
  expect(await edgeCount()).toBe(4);
  await shot(page, "chat-flow-self-link-refused");
  // A loop: the menu's output back to the message before it.
  await drag(sourceHandle(menu, options[0]), targetHandle(msg));
  await waitAttr(page.locator("[data-testid=flow-notice]"), "data-code", "ERR_FLOW_LOOP");
  await waitText(page.locator("[data-testid=flow-notice]"), "criaria um laço");
  expect(await edgeCount()).toBe(4);
  await waitCount(page.locator(".react-flow__edge"), 4);
  await shot(page, "chat-flow-loop-refused");

  // Layouts, now with the edges: top-bottom puts each level below the one before, left-right to
  // its right, elk's layered downwards below again.
  await layout("dagre-tb");
  await poll(positions, (p) => p.menu.y > p.message.y && p.message.y > p.start.y && p.transfer.y > p.menu.y, "a top-bottom layout");
  // An edge removed with its × and drawn again.
  await page.click(`[data-testid=flow-edge-delete][data-source="${menu}"][data-handle="${options[1]}"]`);
  await poll(edgeCount, (n) => n === 3, "the edge removed");
  await drag(sourceHandle(menu, options[1]), targetHandle(end));
  await poll(edgeCount, (n) => n === 4, "the edge drawn again");
  // A webhook without its URL is pending until it is deleted.
  await addNode("webhook");
  await waitText(page.locator("[data-testid=flow-problems]"), "1 pendência");
  // Saved anyway, the server refuses it and the shell's notice says which element and field.
  await page.click("[data-testid=flow-save]");
  await page.locator(".oa-notice[data-kind=error]", { hasText: "Elemento incompleto" }).waitFor();
  await waitText(page.locator(".oa-notice[data-kind=error]"), "“Webhook”");
  await screenshot(page, "chat-flow-save-refused");
  expect(await page.locator("[data-testid=flow-dirty]").count()).toBe(1);
  expect((await apiFlow(flowId)).graph!.nodes.map((n) => n.type)).toEqual(["start"]);
  await page.click("[data-testid=flow-node-delete]");
  await waitCount(nodeOf("webhook"), 0);
  await waitCount(page.locator("[data-testid=flow-problems]"), 0);

  await layout("dagre-lr");
  await waitAttr(page.locator("[data-testid=flow-builder]"), "data-direction", "LR");
  const lr = await poll(positions, (p) => p.menu.x > p.message.x && p.message.x > p.start.x, "a left-right layout");
  expect(lr.transfer.x).toBeGreaterThan(lr.menu.x);
  expect(Math.abs(lr.transfer.y - lr.end.y)).toBeGreaterThan(50);
  await shot(page, "chat-flow-layout-lr");
  await layout("elk-down");
  await waitAttr(page.locator("[data-testid=flow-builder]"), "data-direction", "TB");
  await poll(positions, (p) => p.menu.y > p.message.y && p.message.y > p.start.y && p.end.y > p.menu.y, "an elk downward layout");
  await waitCount(page.locator("[data-testid=flow-problems]"), 0);
  await shot(page, "chat-flow-drawn");

  // Leaving with unsaved changes asks first; staying keeps the drawing.
  await page.click("[data-testid=flow-back]");
  await page.click("[data-testid=flow-leave-cancel]");
  await page.locator("[data-testid=flow-leave-cancel]").waitFor({ state: "hidden" });
  expect(page.url()).toContain(`/builder/${flowId}`);
  expect(await edgeCount()).toBe(4);

  // Save: the server has the drawn graph; a reload draws it again.
  await page.click("[data-testid=flow-save]");
  await waitCount(page.locator("[data-testid=flow-dirty]"), 0);
  const saved = await apiFlow(flowId);
  expect(shape(saved.graph!)).toEqual({ nodes: ["end:Fim", "menu:Menu", "message:Boas-vindas", "start:Início", "transfer:Transferir"], edges: DRAWN });
  const message = saved.graph!.nodes.find((n) => n.type === "message")!.data;
  expect(message.type === "message" && message.interactions.map((i) => i.type)).toEqual(["text", "media"]);
  const transferData = saved.graph!.nodes.find((n) => n.type === "transfer")!.data;
  expect(transferData.type === "transfer" && transferData.queueId).toBe(queues.Vendas);
  await page.reload();
  await page.waitForSelector("[data-testid=flow-builder]", { timeout: 60_000 });
  await waitCount(page.locator(".react-flow__node"), 5, 20_000);
  await waitCount(page.locator(".react-flow__edge"), 4);
  expect(await page.locator("[data-testid=flow-node-name]").allInnerTexts()).toEqual(expect.arrayContaining(["Boas-vindas", "Menu", "Transferir", "Fim"]));
  expect(await positions()).toEqual(Object.fromEntries(saved.graph!.nodes.map((n) => [n.type, n.position])));
  await shot(page, "chat-flow-reloaded");
  // The shell's dark theme reaches the canvas's nodes.
  const nodeBg = () => page.locator("[data-testid=flow-node]").first().evaluate((el: any) => (globalThis as any).getComputedStyle(el).backgroundColor as string);
  expect(await nodeBg()).toBe("rgb(255, 255, 255)");
  await page.click("[data-testid=theme-toggle]");
  await poll(nodeBg, (c) => c !== "rgb(255, 255, 255)", "dark nodes");
  await shot(page, "chat-flow-dark");
  await page.click("[data-testid=theme-toggle]");
  await poll(nodeBg, (c) => c === "rgb(255, 255, 255)", "light nodes again");
  expect(screenErrors(page)).toEqual([]);
});

test("full screen, help and the bot settings; the downloaded JSON imported from the list is the same flow; a JSON with a loop is refused", async () => {
  await page.click("[data-testid=flow-fullscreen]");
  await poll(() => page.evaluate(() => (globalThis as any).document.fullscreenElement?.getAttribute("data-testid") ?? null), (v) => v === "flow-builder", "full screen");
  await page.click("[data-testid=flow-help]");
  await waitText(page.locator("[data-testid=flow-help-rules]"), "Laços não são permitidos");
  await shot(page, "chat-flow-help-fullscreen");
  // Escape closes the help (and may leave full screen too); the toggle leaves it otherwise.
  await page.keyboard.press("Escape");
  await page.locator("[data-testid=flow-help-rules]").waitFor({ state: "hidden" });
  if (await page.evaluate(() => (globalThis as any).document.fullscreenElement !== null)) await page.click("[data-testid=flow-fullscreen]");
  await poll(() => page.evaluate(() => (globalThis as any).document.fullscreenElement !== null), (v) => v === false, "full screen left");

  // Bot settings: attempts and distribution, saved with the graph.
  await page.click("[data-testid=flow-settings]");
  await page.fill("input[data-testid=flow-settings-attempts], [data-testid=flow-settings-attempts] input", "5");
  await page.locator("[data-testid=flow-settings-distribute] label", { hasText: "Equilibrada" }).click();
  await shot(page, "chat-flow-settings");
  await page.locator(".ant-drawer-open .ant-drawer-close").click();
  await page.locator(".ant-drawer-open").waitFor({ state: "detached" }).catch(() => page.locator(".ant-drawer-open").waitFor({ state: "hidden" }));
  await page.click("[data-testid=flow-save]");
  await poll(() => apiFlow(flowId), (fl) => fl.settings.maxAttempts === 5 && fl.settings.distribute === "balance", "the saved settings");

  // Download JSON: the builder's file is the server's export of the saved flow.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=flow-download]")]);
  const file = await download.path();
  const doc = JSON.parse(fs.readFileSync(file!, "utf8")) as FlowExport;
  const exported = await ok<FlowExport>(t.api.get(`/chatbot-flows/flows/export?id=${flowId}&kind=chat`, api));
  expect(doc.format).toBe("openatende-flow");
  expect({ ...doc.flow, graph: { nodes: doc.flow.graph!.nodes, edges: doc.flow.graph!.edges } }).toEqual({ ...exported.flow, graph: { nodes: exported.flow.graph!.nodes, edges: exported.flow.graph!.edges } });

  // Back to the list, import that file: a new flow, the same as the first.
  await page.click("[data-testid=flow-back]");
  await page.waitForSelector("[data-testid=chat-flow-list]");
  const rows = page.locator("[data-testid=chat-flow-row]");
  await waitCount(rows, 1);
  await page.locator("[data-testid=chat-flow-import-input]").setInputFiles(file!);
  await waitCount(rows, 2, 20_000);
  const all = await ok<Flow[]>(t.api.get("/chatbot-flows/flows?kind=chat", api));
  const imported = all.find((x) => x.id !== flowId)!;
  const original = await apiFlow(flowId);
  const same = (x: Flow) => ({ kind: x.kind, name: x.name, description: x.description, settings: x.settings, testPhone: x.testPhone, nodes: x.graph!.nodes, edges: x.graph!.edges });
  expect(same(imported)).toEqual(same(original));
  expect(imported.active).toBe(false);

  // The copy opened: its menu as a list keeps both options' edges; a new section adds an output.
  await page.locator(`[data-testid=chat-flow-row][data-id="${imported.id}"] [data-testid=chat-flow-open]`).click();
  await page.waitForSelector("[data-testid=flow-builder]");
  await waitCount(page.locator(".react-flow__edge"), 4, 20_000);
  await still();
  await nodeOf("menu").locator("[data-testid=flow-node-name]").click();
  await page.locator("[data-testid=flow-menu-style] label", { hasText: "Lista" }).click();
  await waitCount(page.locator("[data-testid=flow-menu-section]"), 1);
  expect(await edgeCount()).toBe(4);
  await page.click("[data-testid=flow-add-section]");
  await page.locator("[data-testid=flow-menu-section]").nth(1).locator("[data-testid=flow-option-title]").fill("Financeiro");
  await poll(() => nodeOf("menu").locator("[data-testid=flow-node-output]").allInnerTexts(), (o) => o.join() === "Vendas,Suporte,Financeiro", "the list's three outputs");
  await shot(page, "chat-flow-menu-list");
  // Leaving unsaved asks; leaving drops the change.
  await page.click("[data-testid=flow-back]");
  await page.click("[data-testid=flow-leave-ok]");
  await page.waitForSelector("[data-testid=chat-flow-list]");
  expect((await apiFlow(imported.id)).graph!.nodes.find((n) => n.type === "menu")!.data).toMatchObject({ style: "buttons" });

  // A file that is not JSON, and one whose graph has a loop: clear errors in place, nothing imported.
  await page.locator("[data-testid=chat-flow-import-input]").setInputFiles({ name: "notas.json", mimeType: "application/json", buffer: Buffer.from("{ nope") });
  await waitText(page.locator("[data-testid=chat-flow-import-error]"), "notas.json não é um JSON válido");
  const loop = JSON.parse(JSON.stringify(doc)) as FlowExport;
  const ids = Object.fromEntries(loop.flow.graph!.nodes.map((n) => [n.type, n.id]));
  const toTransfer = loop.flow.graph!.edges.find((e) => e.target === ids.transfer)!;
  toTransfer.target = ids.message;
  loop.flow.name = "Com laço";
  await page.locator("[data-testid=chat-flow-import-input]").setInputFiles({ name: "laco.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(loop)) });
  const refused = await t.api.post("/chatbot-flows/flows/import?kind=chat", loop, api, PT);
  expect(refused.body.error).toBe("ERR_FLOW_LOOP");
  await waitText(page.locator("[data-testid=chat-flow-import-error]"), refused.body.title);
  await shot(page, "chat-flow-import-refused");
  expect(await rows.count()).toBe(2);
  expect(screenErrors(page)).toEqual([]);
});

test("a visitor's conversation shows as a run with its nodes' states; a flow in use cannot be deleted; duplicated and unbound, flows are deleted", async () => {
  const conn = await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", settings: {} }, api), 201);
  await ok(t.api.post(`/connections/${conn.id}/connect`, {}, api));
  const rows = page.locator("[data-testid=chat-flow-row]");
  const row = page.locator(`[data-testid=chat-flow-row][data-id="${flowId}"]`);
  // A flow is bound only while active: the list's switch activates it.
  await row.locator("[data-testid=chat-flow-active]").click();
  await poll(() => apiFlow(flowId), (fl) => fl.active, "the flow active");
  await waitAttr(row.locator("[data-testid=chat-flow-active]"), "aria-checked", "true");
  await ok(t.api.put("/chatbot-flows/bindings", { scope: "connection", targetId: conn.id, entryFlowId: flowId, closureFlowId: null }, api));

  // A visitor writes: the flow greets and asks the menu, where it waits.
  const visitor = (await ok(t.api.post(`/webchat/${conn.token}/session`, { name: "Paula Reis" }))).visitorId as string;
  await ok(t.api.post(`/webchat/${conn.token}/messages`, { visitorId: visitor, body: "Oi", name: "Paula Reis" }), 201);
  const runs = () => ok<FlowRun[]>(t.api.get(`/chatbot-flows/flows/runs?id=${flowId}`, api));
  const menuId = (await apiFlow(flowId)).graph!.nodes.find((n) => n.type === "menu")!.id;
  await poll(runs, (r) => r.length === 1 && r[0].steps.some((st) => st.nodeId === menuId && st.state === "running"), "the run waiting at the menu", 30_000);

  // In the builder, the run is listed; chosen, it colours the nodes it went through.
  await row.locator("[data-testid=chat-flow-open]").click();
  await page.waitForSelector("[data-testid=flow-builder]");
  await page.click("[data-testid=flow-runs]");
  const run = page.locator("[data-testid=flow-run]", { hasText: "Paula Reis" });
  await run.locator("button").first().click();
  await waitAttr(nodeOf("menu").locator("[data-testid=flow-node]"), "data-run-state", "running");
  await waitAttr(nodeOf("start").locator("[data-testid=flow-node]"), "data-run-state", "success");
  expect(await nodeOf("end").locator("[data-testid=flow-node]").getAttribute("data-run-state")).toBe("");
  await waitText(run.locator("[data-testid=flow-run-steps]"), "Menu");
  await shot(page, "chat-flow-run-states");
  await page.click("[data-testid=flow-back]");
  await page.waitForSelector("[data-testid=chat-flow-list]");

  // Bound (and running): the delete is refused with the server's notice, the flow stays.
  const refused = await t.api.del(`/chatbot-flows/flows?id=${flowId}&kind=chat`, api, PT);
  expect(refused.body.error).toBe("ERR_FLOW_IN_USE");
  await row.locator("[data-testid=chat-flow-delete]").click();
  await page.click("[data-testid=chat-flow-delete-ok]");
  await page.locator(".oa-notice[data-kind=error]", { hasText: refused.body.title }).waitFor();
  await screenshot(page, "chat-flow-delete-in-use");
  expect((await notices(page)).filter((x) => x.kind === "error").map((x) => x.title)).toEqual([refused.body.title]);
  expect(await rows.count()).toBe(2);

  await row.locator("[data-testid=chat-flow-duplicate]").click();
  await waitCount(rows, 3, 20_000);
  await waitText(page.locator("[data-testid=chat-flow-list]"), `${flowName} (cópia)`);

  // The visitor picks "Suporte": the flow ends; unbound, the flow can go.
  await ok(t.api.post(`/webchat/${conn.token}/messages`, { visitorId: visitor, body: "2", name: "Paula Reis" }), 201);
  await poll(runs, (r) => r[0].status !== "running", "the run ended", 30_000);
  await ok(t.api.put("/chatbot-flows/bindings", { scope: "connection", targetId: conn.id, entryFlowId: null, closureFlowId: null }, api));
  await row.locator("[data-testid=chat-flow-delete]").click();
  await page.click("[data-testid=chat-flow-delete-ok]");
  await waitCount(row, 0, 20_000);
  await waitCount(rows, 2);
  expect((await t.api.get(`/chatbot-flows/flows/one?id=${flowId}&kind=chat`, api)).body.error).toBe("ERR_FLOW_NOT_FOUND");
  await shot(page, "chat-flow-list");
  expect(screenErrors(page)).toEqual([]);
});
