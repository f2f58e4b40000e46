/**
 * /configuracoes in a real browser against a real core: queues, tags, users (with queues, and
 * deletion handing tickets over), quick messages (global and per queue), a web-chat connection
 * made through the web-chat plugin's own remote form (validated by the plugin, saved, its embed
 * code shown on edit), connect, transfer and typed deletion; a disabled plugin's remote is
 * never requested nor its type offered; the free plan's one active queue.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, notices, poll, screenErrors, screenshot, sessionLogin, shot, waitAttr, waitCount, waitText } from "./browser";

jest.setTimeout(180_000);

let t: TestCore;
let f: TenantFixture;
let browser: Browser;
/** A second admin for API checks: the browser's login ends the first admin's API session. */
let admin2: Auth;


beforeAll(async () => {
  t = await startCore();
  f = await createTenant(t, { tier: "BASIC" });
  await acceptTerms(t, f);
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: "Admin Dois", email, password: PASSWORD, profile: "admin" });
  admin2 = await t.api.login(email);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});


const modal = (page: Page) => page.locator(".ant-modal-container").last();
const drawer = (page: Page) => page.locator(".ant-drawer-body").last();
const field = (scope: Locator, label: string) => scope.locator(".ant-form-item").filter({ has: scope.page().locator(`label:text-is("${label}")`) });
const row = (page: Page, text: string) => page.locator(".ant-table-tbody tr.ant-table-row", { hasText: text });

/** Picks options of an antd Select, then closes its list by clicking `away` (Escape would close the modal too). */
async function pick(page: Page, select: Locator, texts: string[], away: Locator) {
  await select.click();
  for (const text of texts) {
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: text }).first().click();
  }
  await away.click();
  await waitCount(page.locator(".ant-select-dropdown:visible"), 0);
}

async function openSettings(page: Page & { errors: string[] }, child: string, testId: string) {
  await sessionLogin(page, t.url, f.emails.admin, `/configuracoes/${child}`);
  await page.waitForSelector(`[data-testid="${testId}"]`, { timeout: 15_000 }).catch(async (e) => {
    await screenshot(page, `settings-open-failed-${child}`);
    throw new Error(`${(e as Error).message}\n${page.url()}\n${page.errors.join("\n")}`);
  });
}

async function tab(page: Page, key: string, testId: string) {
  await page.click(`[data-testid="settings-tab-${key}"]`);
  await page.waitForSelector(`[data-testid="${testId}"]`);
  await waitCount(page.locator(`[data-testid="${testId}"] .ant-spin-spinning`), 0);
}

const pluginsLoaded = (page: Page) => page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 15_000 });

test("queues, tags, users with queues and quick messages", async () => {
  const page = await newPage(browser);
  await sessionLogin(page, t.url, f.emails.admin, "/configuracoes");
  await page.waitForSelector('[data-testid="users-page"]', { timeout: 15_000 });
  expect(page.url()).toContain("#/configuracoes/usuarios");
  await waitCount(row(page, "Supervisor"), 1);
  await shot(page, "settings-users");

  // A queue.
  await tab(page, "filas", "queues-page");
  await waitCount(row(page, "Suporte"), 1);
  await page.click('[data-testid="queue-new"]');
  await modal(page).locator('[data-testid="queue-name"]').fill("Financeiro");
  await modal(page).locator(".ant-modal-footer .ant-btn-primary").click();
  await waitCount(row(page, "Financeiro"), 1);
  const queues = (await t.api.get("/queues", admin2)).body as Array<{ id: number; name: string; active: boolean }>;
  const fin = queues.find((q) => q.name === "Financeiro")!;
  expect(fin.active).toBe(true);
  await shot(page, "settings-queues");

  // A tag with a colour.
  await tab(page, "etiquetas", "tags-page");
  await page.click('[data-testid="tag-new"]');
  await modal(page).locator('[data-testid="tag-name"]').fill("Cliente VIP");
  await modal(page).locator('button[aria-label="#7c3aed"]').click();
  await shot(page, "settings-tag-form");
  await modal(page).locator(".ant-modal-footer .ant-btn-primary").click();
  await waitCount(row(page, "Cliente VIP"), 1);
  const tags = (await t.api.get("/tags", admin2)).body as Array<{ name: string; color: string }>;
  expect(tags.find((x) => x.name === "Cliente VIP")?.color).toBe("#7c3aed");
  await shot(page, "settings-tags");

  // A user with a profile and two queues; a weak password is refused first.
  await tab(page, "usuarios", "users-page");
  await page.click('[data-testid="user-new"]');
  const m = modal(page);
  const title = m.locator(".ant-modal-title");
  await m.locator('[data-testid="user-name"]').fill("Paula Souza");
  await m.locator('[data-testid="user-email"]').fill(`paula-${uid()}@t.test`);
  await m.locator('[data-testid="user-password"]').fill("abc");
  await pick(page, field(m, "Perfil").locator(".ant-select"), ["Supervisor"], title);
  await pick(page, field(m, "Filas").locator(".ant-select"), ["Suporte", "Financeiro"], title);
  await m.locator(".ant-modal-footer .ant-btn-primary").click();
  await waitText(field(m, "Senha").locator(".ant-form-item-explain-error"), "8 ou mais");
  await m.locator('[data-testid="user-password"]').fill("Senha1234");
  await shot(page, "settings-user-form");
  await m.locator(".ant-modal-footer .ant-btn-primary").click();
  await waitCount(row(page, "Paula Souza"), 1);
  const paula = ((await t.api.get("/users?searchParam=Paula", admin2)).body.users as Array<{ id: number; profile: string; queues: number[] }>)[0];
  expect(paula.profile).toBe("supervisor");
  expect([...paula.queues].sort()).toEqual([f.queueIds[0], fin.id].sort());
  await waitText(row(page, "Paula Souza"), "Financeiro");

  // Deleting her hands her tickets to the user chosen.
  await page.click(`[data-testid="user-delete-${paula.id}"]`);
  const dm = modal(page);
  await waitAttr(dm.locator(".ant-modal-footer .ant-btn-dangerous"), "disabled", "");
  await pick(page, field(dm, "Transferir atendimentos para").locator(".ant-select"), ["Supervisor"], dm.locator(".ant-modal-title"));
  await shot(page, "settings-user-delete");
  await dm.locator(".ant-modal-footer .ant-btn-dangerous").click();
  await waitCount(row(page, "Paula Souza"), 0);
  expect((await t.api.get("/users?searchParam=Paula", admin2)).body.users).toHaveLength(0);

  // Quick messages: a global one and one for a queue.
  // (their page left settings for the main menu)
  await page.locator('[data-testid="main-menu"] .ant-menu-item', { hasText: "Mensagens rápidas" }).click();
  await page.waitForSelector('[data-testid="quick-messages-page"]');
  await waitCount(page.locator('[data-testid="quick-messages-page"] .ant-spin-spinning'), 0);
  await page.click('[data-testid="quick-new"]');
  await modal(page).locator('[data-testid="quick-key"]').fill("/boasvindas");
  await modal(page).locator('[data-testid="quick-message"]').fill("Olá! Seja bem-vindo à nossa central.");
  await modal(page).locator(".ant-modal-footer .ant-btn-primary").click();
  await waitCount(row(page, "/boasvindas"), 1);
  await page.click('[data-testid="quick-new"]');
  const qm = modal(page);
  await qm.locator(".ant-segmented-item", { hasText: "Por fila" }).click();
  // The queue field comes with the choice: saved before it is drawn, the message would go as a global one.
  await field(qm, "Filas").waitFor();
  await qm.locator('[data-testid="quick-key"]').fill("horario");
  await qm.locator('[data-testid="quick-message"]').fill("Atendemos de segunda a sexta, das 9h às 18h.");
  await qm.locator(".ant-modal-footer .ant-btn-primary").click();
  await waitText(field(qm, "Filas").locator(".ant-form-item-explain-error"), "ao menos uma fila");
  await pick(page, field(qm, "Filas").locator(".ant-select"), ["Suporte"], qm.locator(".ant-modal-title"));
  await shot(page, "settings-quick-form");
  await qm.locator(".ant-modal-footer .ant-btn-primary").click();
  await waitCount(row(page, "/horario"), 1);
  await waitText(row(page, "/horario"), "Suporte");
  const qms = (await t.api.get("/quick-messages?all=true", admin2)).body as Array<{ key: string; scope: string; queueIds: number[] }>;
  expect(qms.find((q) => q.key === "boasvindas")).toMatchObject({ scope: "global" });
  expect(qms.find((q) => q.key === "horario")).toMatchObject({ scope: "queue", queueIds: [f.queueIds[0]] });
  await shot(page, "settings-quick-messages");

  expect(screenErrors(page)).toEqual([]);
  await page.context().close();
});

test("a web-chat connection through the plugin's remote form; connect, transfer, typed deletion", async () => {
  const page = await newPage(browser);
  await openSettings(page, "canais", "channels-page");
  await pluginsLoaded(page);
  await waitText(page.locator('[data-testid="channels-page"] .ant-empty'), "Nenhuma conexão");
  await shot(page, "settings-channels-empty");

  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/api/connections")) posts.push(r.url());
  });
  await page.click('[data-testid="channel-new"]');
  await page.waitForSelector('[data-testid="channel-type-channel-webchat"]');
  await shot(page, "settings-channel-types");
  await page.click('[data-testid="channel-type-channel-webchat"]');
  const d = drawer(page);
  await d.locator('[data-testid="webchat-connect-form"]').waitFor({ timeout: 15_000 });
  await d.locator('[data-testid="channel-name"]').fill("Chat do site");
  await d.locator('input[name="title"]').fill("Fale conosco");
  await d.locator('input[name="mainColor"]').fill("laranja");
  await page.click('[data-testid="channel-save"]');
  // The plugin's own validate() stops the save before any request.
  await waitText(d.locator('[data-testid="webchat-connect-form"]'), "#RRGGBB");
  expect(posts).toHaveLength(0);
  await d.locator('input[name="mainColor"]').fill("#ff6600");
  await shot(page, "settings-channel-form");
  await page.click('[data-testid="channel-save"]');
  await waitCount(page.locator(".ant-drawer-body"), 0, 10_000);
  await waitCount(row(page, "Chat do site"), 1);
  expect(posts).toHaveLength(1);

  const list = (await t.api.get("/connections", admin2)).body as Array<{ id: number; name: string }>;
  const conn = list.find((c) => c.name === "Chat do site")!;
  const full = (await t.api.get(`/connections/${conn.id}`, admin2)).body;
  expect(full.type).toBe("channel-webchat");
  expect(full.settings).toMatchObject({ title: "Fale conosco", mainColor: "#ff6600" });
  expect(full.isDefault).toBe(true);

  // Connect: the row follows the status.
  await page.click(`[data-testid="channel-connect-${conn.id}"]`);
  await waitAttr(page.locator(`[data-testid="channel-status-${conn.id}"]`), "data-status", "connected");
  await waitText(page.locator(`[data-testid="channel-status-${conn.id}"]`), "Conectado");

  // A status reported by the channel arrives live through the socket.
  await t.core.broker.call("connections.setStatus", { tenantId: f.tenantId, connectionId: conn.id, status: "timeout", detail: "sem resposta" });
  await waitAttr(page.locator(`[data-testid="channel-status-${conn.id}"]`), "data-status", "timeout");
  await waitText(page.locator(`[data-testid="channel-status-${conn.id}"]`), "sem resposta");
  await shot(page, "settings-channels");

  // Edit: the plugin's form shows the embed code with the connection's token.
  await page.click(`[data-testid="channel-edit-${conn.id}"]`);
  const e = drawer(page);
  await e.locator('[data-testid="webchat-snippet"]').waitFor({ timeout: 15_000 });
  await waitText(e.locator('[data-testid="webchat-snippet"]'), full.token);
  expect(await e.locator('input[name="title"]').inputValue()).toBe("Fale conosco");
  await e.locator('[data-testid="webchat-snippet"]').scrollIntoViewIfNeeded();
  await shot(page, "settings-channel-edit");
  await e.locator('[data-testid="channel-name"]').fill("Chat do site principal");
  await page.click('[data-testid="channel-save"]');
  await waitCount(row(page, "Chat do site principal"), 1, 10_000);
  expect((await t.api.get(`/connections/${conn.id}`, admin2)).body.settings).toMatchObject({ title: "Fale conosco", mainColor: "#ff6600" });

  // A second connection: transfer between the two, then delete it with the typed word.
  const second = await t.api.post("/connections", { type: "channel-webchat", name: "Temporária" }, admin2);
  expect(second.status).toBe(201);
  await page.reload();
  await page.waitForSelector('[data-testid="channels-page"]');
  await waitCount(row(page, "Temporária"), 1);
  await page.click('[data-testid="channel-transfer"]');
  const tm = modal(page);
  await pick(page, field(tm, "Origem").locator(".ant-select"), ["Temporária"], tm.locator(".ant-modal-title"));
  await pick(page, field(tm, "Destino").locator(".ant-select"), ["Temporária"], tm.locator(".ant-modal-title"));
  await waitText(field(tm, "Destino"), "devem ser diferentes");
  await pick(page, field(tm, "Destino").locator(".ant-select"), ["Chat do site principal"], tm.locator(".ant-modal-title"));
  await tm.locator(".ant-modal-footer .ant-btn-primary").click();
  await waitCount(page.locator(".ant-modal-container"), 0);
  expect((await notices(page)).some((n) => n.kind === "success" && n.title.includes("Atendimentos transferidos: 0"))).toBe(true);

  await page.click(`[data-testid="channel-more-${second.body.id}"]`);
  await page.locator(".ant-dropdown:visible .ant-dropdown-menu-item-danger").click();
  const dm = modal(page);
  const ok = dm.locator(".ant-modal-footer .ant-btn-dangerous");
  await dm.locator('[data-testid="channel-delete-confirm"]').fill("apagar");
  await waitAttr(ok, "disabled", "");
  await dm.locator('[data-testid="channel-delete-confirm"]').fill("EXCLUIR");
  await shot(page, "settings-channel-delete");
  await ok.click();
  await waitCount(row(page, "Temporária"), 0);
  expect((await t.api.get(`/connections/${second.body.id}`, admin2)).status).toBe(404);

  expect(screenErrors(page)).toEqual([]);
  await page.context().close();
});

test("a disabled plugin's remote is never requested and its type is not offered", async () => {
  expect((await t.api.put("/plugins/channel-webchat/enabled", { enabled: false }, admin2)).status).toBe(200);
  const page = await newPage(browser);
  const remote: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/plugins/channel-webchat/remote/")) remote.push(r.url());
  });
  await openSettings(page, "canais", "channels-page");
  await pluginsLoaded(page);
  await waitCount(page.locator(".ant-table-tbody tr.ant-table-row"), 1);
  expect(remote).toEqual([]);
  // The existing connection stays listed, marked as belonging to a disabled module.
  await waitText(row(page, "Chat do site principal"), "Chat do site · módulo desativado");
  await page.click('[data-testid="channel-new"]');
  await page.waitForSelector('[data-testid="channel-type-chooser"]');
  await page.waitForTimeout(300);
  await waitCount(page.locator('[data-testid="channel-type-channel-webchat"]'), 0);
  await shot(page, "settings-channel-plugin-disabled");
  await page.locator(".ant-drawer-close").click();
  await waitCount(page.locator(".ant-drawer-body"), 0);
  expect(remote).toEqual([]);

  // Enabled again: the next load requests the remote and offers the type.
  expect((await t.api.put("/plugins/channel-webchat/enabled", { enabled: true }, admin2)).status).toBe(200);
  await page.reload();
  await page.waitForSelector('[data-testid="channels-page"]');
  await pluginsLoaded(page);
  expect(remote.length).toBeGreaterThan(0);
  await page.click('[data-testid="channel-new"]');
  await page.waitForSelector('[data-testid="channel-type-channel-webchat"]');
  expect(screenErrors(page)).toEqual([]);
  await page.context().close();
});

test("free plan: activating a second queue is refused with the plan's notice", async () => {
  const free = await createTenant(t, { tier: "FREE" });
  await acceptTerms(t, free);
  const page = await newPage(browser);
  await sessionLogin(page, t.url, free.emails.admin, "/configuracoes/filas");
  await page.waitForSelector('[data-testid="queues-page"]', { timeout: 15_000 });
  await waitText(page.locator('[data-testid="queues-page"] .ant-alert'), "uma fila ativa");
  const vendas = free.queueIds[1];
  const toggle = page.locator(`[data-testid="queue-active-${vendas}"]`);
  await waitAttr(toggle, "aria-checked", "false");
  await toggle.click();
  await poll(() => notices(page), (ns) => ns.some((n) => n.kind === "error"), "an error notice");
  await waitAttr(toggle, "aria-checked", "false");
  await shot(page, "settings-queues-free-plan");
  const sup = await t.api.login(free.emails.supervisor);
  const qs = (await t.api.get("/queues", sup)).body as Array<{ id: number; active: boolean }>;
  expect(qs.find((q) => q.id === vendas)?.active).toBe(false);
  await page.context().close();
});

test("the settings pages in Russian", async () => {
  const page = await newPage(browser, { locale: "ru" });
  await openSettings(page, "canais", "channels-page");
  await waitText(page.locator('[data-testid="settings-tab-canais"]'), "Каналы");
  await waitText(page.locator('[data-testid="channels-page"]'), "Новое подключение");
  await shot(page, "settings-channels-ru");
  await tab(page, "usuarios", "users-page");
  await waitText(page.locator('[data-testid="users-page"]'), "Новый пользователь");
  await shot(page, "settings-users-ru");
  expect(screenErrors(page)).toEqual([]);
  await page.context().close();
});
