/**
 * Step 8 end to end: a third party's MODULE plugin, from `plugin-sdk create --kind module` to a
 * tenant's screens, running in a node of its own (installed from the marketplace), with only
 * the SDK: its own tables (migrated on install, out of the core's process), routes the core's
 * gateway gates by tier and tenant, its error codes in the catalogue, realtime pushes between
 * two agents, the core's events (ticket.closed) kept in its projection, and its UI in every
 * kind of slot the shell offers — page and menu entry, dashboard block, settings section,
 * contact-panel section, queue-form section, composer action and closing dialog. A FREE
 * tenant is refused at the API and in the shell with the notice naming PLUS.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Browser } from "playwright-core";
import { createSuper, createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, poll, screenErrors, sessionLogin, shot, waitCount, waitText } from "./browser";
import { createToEnabled } from "../../marketplace/test/publish-path";

jest.setTimeout(900_000);

const id = `module-acme-${uid().slice(0, 6)}`;
const route = id.replace(/^module-/, "");
const code = `ERR_${route.toUpperCase().replace(/-/g, "_")}_ITEM_NOT_FOUND`;

let t: TestCore;
let sup: Auth;
let a: TenantFixture;
let b: TenantFixture;
let free: TenantFixture;
/** A's second admin, for API checks only: a browser login ends that user's API session. */
let apiA: Auth;
let browser: Browser;
let parent: string;

/** What the author adds to the scaffold's register(): one entry in each slot the shell offers. */
const SLOTS = `
import { Modal } from "antd";
import { useEffect } from "react";

export function registerSlots(runtime: Parameters<Parameters<typeof defineUi>[0]>[0]) {
  const label = (pt: string) => ({ "pt-BR": pt, en: pt, es: pt, ru: pt });
  runtime.addSettingsSection({
    path: "${route}-ajustes",
    label: label("Ajustes Acme"),
    load: async () => ({ default: () => createElement("div", { "data-testid": "acme-settings" }, "Ajustes da Acme") }),
  });
  runtime.registerContactPanelSection({
    key: "info",
    label: label("Acme"),
    component: ({ contactId }) => createElement("div", { "data-testid": "acme-contact" }, "Contato " + contactId),
  });
  runtime.registerQueueFormSection({
    key: "bot",
    label: label("Robô Acme"),
    component: ({ value, onChange }) =>
      createElement("input", { "data-testid": "acme-queue-input", value: String(value.greeting ?? ""), onChange: (e: { target: { value: string } }) => onChange({ greeting: e.target.value }) }),
    save: async (queueId, value, rt) => {
      await rt.api.post("/${route}/items", { title: "fila " + queueId + ": " + String(value.greeting ?? "") });
    },
  });
  runtime.registerComposerAction({
    key: "sign",
    label: label("Assinar Acme"),
    component: function Sign({ text, setText, onClose }) {
      useEffect(() => {
        setText(text + " — equipe Acme");
        onClose();
      }, []);
      return null;
    },
  });
  runtime.registerClosingDialog({
    key: "survey",
    component: ({ ticket, done, cancel }) =>
      createElement(Modal, { open: true, title: "Pesquisa Acme #" + ticket.id, onOk: done, onCancel: cancel, okText: "Encerrar", cancelText: "Voltar", "data-testid": "acme-survey" } as never, "O cliente ficou satisfeito?"),
  });
}
`;

function addSlots(folder: string) {
  // A route that says what of the caller's request reached the plugin.
  const service = path.join(folder, "src/service.ts");
  fs.writeFileSync(
    service,
    fs.readFileSync(service, "utf8").replace(
      "const actions = {",
      `const actions = {\n  whoami: { rest: "GET /${route}/whoami", access: "user" as const, handler: (ctx: Ctx) => ({ meta: Object.keys(ctx.meta).sort(), tenantId: ctx.meta.user.tenantId }) },`,
    ),
  );
  const ui = path.join(folder, "src/ui");
  fs.writeFileSync(path.join(ui, "slots.tsx"), `import { createElement } from "react";\nimport type { defineUi } from "@openatende/plugin-sdk/ui";\n${SLOTS}`);
  const reg = path.join(ui, "register.tsx");
  const src = fs.readFileSync(reg, "utf8");
  fs.writeFileSync(reg, src.replace('import { texts } from "./texts";', 'import { texts } from "./texts";\nimport { registerSlots } from "./slots";').replace("runtime.addTranslations(texts);", "runtime.addTranslations(texts);\n  registerSlots(runtime);"));
}

beforeAll(async () => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), "oa-e2e-module-"));
  t = await startCore({ env: { PLUGIN_INSTALLS: "true", NAMESPACE: `e2e-${uid()}` } });
  sup = await createSuper(t);
  a = await createTenant(t, { tier: "PLUS", name: `Aurora ${uid()}` });
  b = await createTenant(t, { tier: "PLUS", name: `Boreal ${uid()}` });
  free = await createTenant(t, { tier: "FREE", name: `Livre ${uid()}` });
  for (const f of [a, b, free]) await acceptTerms(t, f);
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: a.tenantId, name: "Admin Dois", email, password: PASSWORD, profile: "admin", queues: a.queueIds });
  apiA = await t.api.login(email);
  browser = await launchBrowser();
  const pub = await t.api.post("/marketplace/publishers", { name: "Acme Módulos", email: `dev-${uid()}@acme.test` }, sup);
  await createToEnabled({ id, kind: "module", edit: addSlots, parent, url: t.url, api: t.api, superAuth: sup, publisherToken: pub.body.token, tenantId: a.tenantId });
  // Allowed for B and the FREE tenant too: what refuses the FREE one is its tier alone.
  for (const f of [b, free]) expect((await t.api.put(`/plugins/${id}/tenants/${f.tenantId}`, { allowed: true }, sup)).status).toBe(200);
  // The gateway learns the plugin's routes when its node's services reach it.
  await poll(async () => (await t.api.get(`/${route}/items`, apiA)).status, (s) => s === 200, "the plugin's routes", 60_000);
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
  if (parent) fs.rmSync(parent, { recursive: true, force: true });
});

test("its routes answer a tenant that has it, another tenant's ids are its own error code in the caller's language, and a FREE tenant is refused naming PLUS", async () => {
  const made = await t.api.post(`/${route}/items`, { title: "Conferir estoque" }, a.agent);
  expect(made.status).toBe(200);
  expect((await t.api.get(`/${route}/items`, a.supervisor)).body.items.map((i: { title: string }) => i.title)).toContain("Conferir estoque");
  expect((await t.api.get(`/${route}/items`, b.agent)).body.items).toEqual([]);
  const other = await t.api.put(`/${route}/items/${made.body.id}`, { done: true }, b.agent);
  expect(other.status).toBe(404);
  expect(other.body).toMatchObject({ error: code, title: "Item não encontrado" });
  const bad = await t.api.post(`/${route}/items`, { title: "" }, a.agent);
  expect([bad.status, bad.body.error, bad.body.data.field]).toEqual([400, "ERR_VALIDATION", "title"]);
  const refused = await t.api.get(`/${route}/items`, free.agent);
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ error: "ERR_LICENSE_TIER_REQUIRED", data: { requiredTier: "PLUS" } });
  // The plugin learns who is calling, never the caller's credentials.
  const who = await t.api.get(`/${route}/whoami`, a.agent);
  expect(who.body.tenantId).toBe(a.tenantId);
  expect(who.body.meta).toContain("user");
  expect(who.body.meta).not.toContain("rawToken");
  expect(who.body.meta).not.toContain("sessionHeader");
  // The catalogue the shell downloads carries the plugin's code in four languages.
  const cat = (await t.api.get("/errors/catalogue", a.agent)).body;
  expect(cat.errors.ru[code].title).toBe("Элемент не найден");
});

test("two agents on its page: what one adds, the other sees live; its dashboard block counts the tickets closed (the core's events, in its own node)", async () => {
  const agent = await newPage(browser);
  const sup2 = await newPage(browser);
  try {
    await sessionLogin(agent, t.url, a.emails.agent, `/${route}`);
    await sessionLogin(sup2, t.url, a.emails.supervisor, "/home");
    await sup2.waitForSelector("[data-testid=main-menu]");
    await sup2.click(`[data-testid=main-menu] >> text=${id.replace(/^module-/, "").split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ")}`);
    await sup2.waitForSelector(`[data-testid=${id}-page]`);
    // The agent opened the route directly: its remote loads with the first page (slow on a loaded machine).
    await agent.waitForSelector(`[data-testid=${id}-page]`, { timeout: 60_000 });
    await agent.fill(`[data-testid=${id}-page] input`, "Ligar para a transportadora");
    await agent.keyboard.press("Enter");
    await waitText(sup2.locator(`[data-testid=${id}-page]`), "Ligar para a transportadora", 15_000);
    await shot(sup2, "module-sdk-live");

    // A ticket closes: the core delivers ticket.closed to the plugin's node, which counts it.
    const conn = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: a.queueIds[0], settings: { title: "Loja" } }, apiA);
    await t.api.post(`/connections/${conn.body.id}/connect`, {}, apiA);
    const inbound = (await t.core.broker.call("channels.inbound", { tenantId: a.tenantId, connectionId: conn.body.id, providerMessageId: `m-${uid()}`, timestamp: Date.now(), from: { externalId: `v-${uid()}`, name: "Cliente Acme" }, body: "Olá" })) as { ticketId: number };
    expect((await t.api.put(`/tickets/${inbound.ticketId}`, { status: "closed" }, apiA)).status).toBe(200);
    await poll(async () => (await t.api.get(`/${route}/items`, apiA)).body.ticketsClosed as number, (n) => n === 1, "ticket.closed counted", 30_000);
    // B's projection saw nothing of A's ticket.
    expect((await t.api.get(`/${route}/items`, b.agent)).body.ticketsClosed).toBe(0);
    await sup2.evaluate(() => (window.location.hash = "#/home"));
    await waitText(sup2.locator(`[data-testid=${id}-closed]`), "1", 15_000);
    await shot(sup2, "module-sdk-dashboard-block");
    expect(screenErrors(agent)).toEqual([]);
    expect(screenErrors(sup2)).toEqual([]);
  } finally {
    await agent.context().close();
    await sup2.context().close();
  }
});

test("its settings section, queue-form section, contact-panel section, composer action and closing dialog", async () => {
  // Wide enough for the contact panel to sit beside the chat rather than over its header.
  const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
  try {
    await sessionLogin(page, t.url, a.emails.admin, "/configuracoes/usuarios");
    await page.click(`[data-testid=settings-tab-${route}-ajustes]`);
    await page.waitForSelector("[data-testid=acme-settings]");
    // The queue form: the plugin's section is saved by the plugin once the queue exists.
    // The plugin's tab is at the end of a strip now wider than the page: the strip scrolled there, so the
    // queues' tab is reached by its address, as the strip's overflow menu would.
    await page.evaluate(() => (window.location.hash = "#/configuracoes/filas"));
    await page.click("[data-testid=named-rows-new]").catch(() => page.click("text=Nova fila"));
    await page.fill("[data-testid=queue-name]", "Pós-venda");
    await page.fill("[data-testid=acme-queue-input]", "Bem-vindo");
    await page.click("[data-testid=queue-modal] .ant-btn-primary");
    await poll(async () => (await t.api.get(`/${route}/items`, apiA)).body.items.map((i: { title: string }) => i.title).join("|"), (s) => /fila \d+: Bem-vindo/.test(s), "queue section saved");

    // The attendance screen: contact panel, composer action, closing dialog.
    const conn = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: a.queueIds[0], settings: { title: "Loja" } }, apiA);
    await t.api.post(`/connections/${conn.body.id}/connect`, {}, apiA);
    const inbound = (await t.core.broker.call("channels.inbound", { tenantId: a.tenantId, connectionId: conn.body.id, providerMessageId: `m-${uid()}`, timestamp: Date.now(), from: { externalId: `v-${uid()}`, name: "Cliente Painel" }, body: "Oi" })) as { ticketId: number };
    await t.api.put(`/tickets/${inbound.ticketId}`, { status: "open", userId: a.admin.userId }, apiA);
    await page.evaluate((tid) => (window.location.hash = `#/atendimento/${tid}`), inbound.ticketId);
    await page.waitForSelector("[data-testid=composer-input]", { timeout: 20_000 });
    if (!(await page.locator("[data-testid=contact-panel]").count())) await page.click("[data-testid=toggle-contact]");
    await waitText(page.locator("[data-testid=acme-contact]"), "Contato ", 15_000);
    await shot(page, "module-sdk-contact-panel");
    await page.click(`[data-testid=composer-action-${id}-sign]`);
    await poll(() => page.inputValue("[data-testid=composer-input]"), (v) => v.endsWith("— equipe Acme"), "composer action");
    await shot(page, "module-sdk-composer-action");
    await page.click("[data-testid=action-resolve]");
    // The plugin's dialog is asked before the ticket closes.
    const survey = page.getByRole("dialog", { name: `Pesquisa Acme #${inbound.ticketId}` });
    await survey.waitFor({ timeout: 15_000 });
    expect((await t.api.get(`/tickets/${inbound.ticketId}`, apiA)).body.status).toBe("open");
    await shot(page, "module-sdk-closing-dialog");
    await survey.getByRole("button", { name: "Encerrar" }).click();
    await poll(async () => (await t.api.get(`/tickets/${inbound.ticketId}`, apiA)).body.status as string, (s) => s === "closed", "closed after the dialog");
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.context().close();
  }
});

test("a FREE tenant opening its page sees the notice naming PLUS and returns to /home", async () => {
  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, free.emails.agent, "/home");
    await page.waitForSelector("[data-testid=main-menu]");
    await page.evaluate((r) => (window.location.hash = `#/${r}`), route);
    await page.waitForFunction(() => [...document.querySelectorAll(".oa-notice.oa-banner")].some((n) => n.textContent?.includes("PLUS")));
    await poll(() => page.evaluate(() => window.location.hash), (h) => h === "#/home", "back home");
    await waitCount(page.locator(`[data-testid=${id}-page]`), 0);
  } finally {
    await page.context().close();
  }
});
