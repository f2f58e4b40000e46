/**
 * /auto-resposta in the built shell, in Debian's Chromium, against a real core: an admin
 * creates an entry auto-reply with two steps (the initial menu "1 — Vendas, 2 — Suporte" whose
 * actions hand to queues), saves it, sees it in the list, edits it (a second initial step is
 * prevented by the editor and refused by the server), duplicates and deletes the copy, binds it
 * to a web-chat connection through the connection form's Chatbot section (deleting it is then
 * refused), a visitor writing on that connection gets the menu and "2" hands the ticket to
 * Suporte, and a queue is bound through the queue form's section. A free-plan tenant
 * activating a second flow gets the plan's notice.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";

jest.setTimeout(420_000);

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = path.resolve(__dirname, "../../../artifacts/screenshots");
const REMOTE = path.resolve(__dirname, "../dist/ui/remoteEntry.js");
const SHELL = path.resolve(__dirname, "../../../shell/dist/index.html");

type P = Page & { errors: string[] };

let t: TestCore;
let f: TenantFixture;
let free: TenantFixture;
/** A second admin of each tenant for API checks: a browser login ends the fixture admin's API session. */
let api: Auth;
let freeApi: Auth;
let browser: Browser;
let conn: { id: number; token: string; name: string };
const q = {} as { suporte: number; vendas: number };

async function ok<T = any>(p: Promise<{ status: number; body: T }>, status = 200): Promise<T> {
  const r = await p;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function poll<T>(read: () => Promise<T>, good: (v: T) => boolean, what: string, timeout = 20_000): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await read();
    if (good(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
const count = (loc: Locator) => loc.count();
const waitCount = (loc: Locator, n: number, timeout?: number) => poll(() => count(loc), (c) => c === n, `${loc} ×${n}`, timeout);
const text = (loc: Locator) => loc.first().innerText({ timeout: 1000 }).catch(() => "");
const waitText = (loc: Locator, s: string, timeout?: number) => poll(() => text(loc), (v) => v.includes(s), `${loc} to contain "${s}"`, timeout);

async function newPage(): Promise<P> {
  const ctx = await browser.newContext({ locale: "pt-BR", viewport: { width: 1440, height: 900 } });
  const page = (await ctx.newPage()) as P;
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") page.errors.push(`console: ${m.text()}`);
  });
  return page;
}

/** Logs in through the API, stores the session under the shell's localStorage keys, opens `route`. */
async function sessionLogin(page: Page, email: string, route: string): Promise<void> {
  const res = await fetch(`${t.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: PASSWORD }) });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(body)}`);
  await page.goto(`${t.url}/#/login`);
  await page.evaluate((r: Record<string, unknown>) => {
    const storage = (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage;
    const put = (k: string, v: unknown) => storage.setItem(k, typeof v === "string" ? v : JSON.stringify(v));
    put("token", r.token);
    if (r.refreshToken) put("refreshToken", r.refreshToken);
    for (const k of ["sessionId", "userId", "profile", "tenantId", "isMaster", "username", "queues", "image", "tenant"]) put(k, r[k]);
    put("usuario", r.user);
  }, body);
  await page.goto(`${t.url}/#${route}`);
  await page.reload();
}

async function shot(page: Page, name: string) {
  await page.waitForTimeout(450); // drawers, selects and notices finish moving
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/** The notices the shell showed (its UiStore's history). */
const notices = (page: Page) => page.evaluate(() => ((globalThis as any).__openatende?.ui.history ?? []).map((n: any) => ({ kind: n.kind, title: n.title, detail: n.detail })) as Array<{ kind: string; title: string; detail?: string }>);

/**
 * Clicks, then holds the error toast titled `title` under the pointer (the shell's toasts leave
 * after half a second unless hovered) for its screenshot; the notices history is what is asserted.
 */
async function clickForNotice(page: Page, target: Locator, title: string, name: string) {
  const toast = page.locator(".oa-notice[data-kind=error]", { hasText: title }).first();
  const seen = toast.waitFor({ state: "visible", timeout: 30_000 }).then(() => toast.hover({ timeout: 2000, force: true })).then(() => true, () => false);
  await target.click();
  await poll(() => notices(page), (n) => n.some((x) => x.kind === "error" && x.title === title), `the notice "${title}"`, 30_000);
  if (await seen) await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/** Picks an option of an antd Select by its text (opening the list again if a click closed it). */
async function pick(page: Page, select: Locator, option: string) {
  const item = page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: option }).first();
  for (let i = 0; i < 3; i++) {
    await select.click();
    if (await item.waitFor({ state: "visible", timeout: 2500 }).then(() => true, () => false)) break;
  }
  await item.click();
  await waitCount(page.locator(".ant-select-dropdown:visible"), 0).catch(async () => {
    await page.keyboard.press("Escape");
  });
}

async function adminOf(fx: TenantFixture, name: string): Promise<Auth> {
  const email = `${name.toLowerCase()}-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: fx.tenantId, name, email, password: PASSWORD, profile: "admin" });
  return t.api.login(email);
}

async function acceptTerms(fx: TenantFixture) {
  await ok(t.api.put(`/tenants/${fx.tenantId}/terms-acceptance`, { accepted: true }, fx.admin));
  await ok(t.api.put(`/users/${fx.admin.userId}/lgpd-consent`, { accepted: true }, fx.admin));
}

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  if (!fs.existsSync(SHELL) || !fs.existsSync(REMOTE)) throw new Error("the shell or this plugin's UI is not built: run `node scripts/build-ui.cjs` (npm test does)");
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  t = await startCore({ env: { NAMESPACE: `cbf-ui-${uid()}` } });
  // PLUS: both of the fixture's queues are active (a free tenant has one).
  f = await createTenant(t, { tier: "PLUS", name: `Aurora ${uid()}` });
  free = await createTenant(t, { name: `Livre ${uid()}` });
  for (const fx of [f, free]) await acceptTerms(fx);
  api = await adminOf(f, "Admin2");
  freeApi = await adminOf(free, "Admin3");
  [q.suporte, q.vendas] = f.queueIds;
  await poll(() => t.api.get("/chatbot-flows/flows", api), (r) => r.status === 200, "the plugin's routes");
  const c = await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", settings: {} }, api), 201);
  conn = { id: c.id, token: c.token, name: c.name };
  await ok(t.api.post(`/connections/${conn.id}/connect`, {}, api));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const editor = (page: Page) => page.locator(".ant-drawer-body").last();
const drawers = (page: Page) => page.locator(".ant-drawer-body");
const steps = (page: Page) => editor(page).locator("[data-testid=auto-reply-step]");
const row = (page: Page, name: string) => page.locator(`[data-testid=auto-reply-row][data-name="${name}"]`);

/** Adds an action to a step: key, then a queue or the next step, and a return message. */
async function addAction(page: Page, step: Locator, a: { key: string; queue?: string; next?: string; reply?: string }) {
  const rows = step.locator("[data-testid=action-row]");
  const n = await rows.count();
  await step.locator("[data-testid=action-add]").click();
  await waitCount(rows, n + 1);
  const r = rows.nth(n);
  await r.locator("input[data-testid=action-key], [data-testid=action-key] input").first().fill(a.key);
  if (a.queue) await pick(page, r.locator("[data-testid=action-queue]"), a.queue);
  if (a.next) await pick(page, r.locator("[data-testid=action-next]"), a.next);
  if (a.reply) await r.locator("textarea[data-testid=action-return], [data-testid=action-return] textarea").first().fill(a.reply);
}

const MENU = "Olá! Digite 1 — Vendas, 2 — Suporte, 3 — Horários";

test("an admin builds an entry auto-reply, edits it, binds it to a connection, and a visitor's '2' goes to Suporte", async () => {
  const page = await newPage();
  await sessionLogin(page, f.emails.admin, "/auto-resposta");
  await page.waitForSelector("[data-testid=auto-reply-page]", { timeout: 30_000 });
  // The main menu has the entry; the list is empty and says how to start.
  await page.waitForSelector("[data-testid=main-menu] >> text=Auto-resposta");
  await waitText(page.locator("[data-testid=auto-reply-empty]"), "Nenhuma auto-resposta ainda");
  await shot(page, "auto-reply-empty");

  // A new flow: saving it blank names what is missing, and sends nothing.
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/api/chatbot-flows/flows")) posts.push(r.url());
  });
  await page.click("[data-testid=auto-reply-new]");
  await editor(page).locator("[data-testid=auto-reply-name]").waitFor();
  await page.locator("[data-testid=auto-reply-save]").click();
  await waitText(editor(page).locator("[data-testid=auto-reply-invalid]"), "Corrija os campos marcados");
  await waitText(editor(page).locator('[data-testid=field-error][data-field="name"]'), "Campo obrigatório");
  expect(await count(editor(page).locator("[data-testid=field-error][data-field^='step:']"))).toBe(1);
  expect(posts).toEqual([]);

  await editor(page).locator("[data-testid=auto-reply-name]").fill("Menu principal");
  await editor(page).locator("[data-testid=auto-reply-description]").fill("Menu de boas-vindas do site");
  await editor(page).locator("[data-testid=auto-reply-max-attempts] input, input[data-testid=auto-reply-max-attempts]").first().fill("2");
  await pick(page, editor(page).locator("[data-testid=auto-reply-distribute]"), "Equilibrada");
  await editor(page).locator("[data-testid=step-add]").click();
  await waitCount(steps(page), 2);
  const [one, two] = [steps(page).nth(0), steps(page).nth(1)];
  expect(await one.getAttribute("data-initial")).toBe("true");
  expect(await two.getAttribute("data-initial")).toBe("false");
  await one.locator("textarea[data-testid=step-message], [data-testid=step-message] textarea").first().fill(MENU);
  await two.locator("textarea[data-testid=step-message], [data-testid=step-message] textarea").first().fill("Atendemos de segunda a sexta, das 8h às 18h. Digite 0 para voltar ao menu.");
  await addAction(page, one, { key: "1", queue: "Vendas", reply: "Um vendedor já vai te atender." });
  await addAction(page, one, { key: "2", queue: "Suporte", reply: "Encaminhando para o Suporte." });
  await addAction(page, one, { key: "3", next: "Etapa 2" });
  await addAction(page, two, { key: "0", next: "Etapa 1" });
  // A repeated key is refused by the form.
  await addAction(page, one, { key: " 2 ", queue: "Vendas" });
  await waitText(editor(page).locator("[data-testid=field-error][data-field^='action:']"), "Chave repetida nesta etapa");
  await one.locator("[data-testid=action-row]").nth(3).locator("[data-testid=action-remove]").click();
  await waitCount(one.locator("[data-testid=action-row]"), 3);
  await waitCount(editor(page).locator("[data-testid=field-error]"), 0);
  await shot(page, "auto-reply-editor-new");
  await page.locator("[data-testid=auto-reply-save]").click();
  await waitCount(drawers(page), 0);
  await row(page, "Menu principal").waitFor();
  expect(posts).toHaveLength(1);
  await waitText(row(page, "Menu principal").locator("[data-testid=auto-reply-row-kind]"), "Entrada");
  await shot(page, "auto-reply-list");

  // The server has it as drawn.
  const flows = (await ok(t.api.get("/chatbot-flows/flows?kind=entry,closure", api))) as Array<{ id: number; name: string }>;
  const flowId = flows.find((x) => x.name === "Menu principal")!.id;
  const saved = await ok(t.api.get(`/chatbot-flows/flows/one?id=${flowId}`, api));
  expect(saved).toMatchObject({ kind: "entry", active: true, description: "Menu de boas-vindas do site", testPhone: null, settings: { maxAttempts: 2, distribute: "balance" } });
  expect(saved.steps.map((s: any) => [s.initial, s.message])).toEqual([
    [true, MENU],
    [false, "Atendemos de segunda a sexta, das 8h às 18h. Digite 0 para voltar ao menu."],
  ]);
  expect(saved.steps[0].actions.map((a: any) => [a.key, a.queueId, a.nextStepId, a.returnMessage])).toEqual([
    ["1", q.vendas, null, "Um vendedor já vai te atender."],
    ["2", q.suporte, null, "Encaminhando para o Suporte."],
    ["3", null, saved.steps[1].id, null],
  ]);
  expect(saved.steps[1].actions.map((a: any) => [a.key, a.nextStepId])).toEqual([["0", saved.steps[0].id]]);

  // Edit: marking step 2 initial unmarks step 1 (never two); back to step 1, a new description.
  await row(page, "Menu principal").locator("[data-testid=auto-reply-edit]").click();
  await waitCount(steps(page), 2);
  await poll(() => steps(page).nth(0).locator("textarea").first().inputValue(), (v) => v === MENU, "the loaded menu");
  await steps(page).nth(1).locator("[data-testid=step-initial]").click();
  await poll(async () => [await steps(page).nth(0).getAttribute("data-initial"), await steps(page).nth(1).getAttribute("data-initial")], (v) => v.join() === "false,true", "step 2 alone initial");
  expect(await count(editor(page).locator("[data-testid=auto-reply-steps] .ant-radio-wrapper-checked"))).toBe(1);
  await shot(page, "auto-reply-editor-initial-moved");
  await steps(page).nth(0).locator("[data-testid=step-initial]").click();
  await poll(async () => [await steps(page).nth(0).getAttribute("data-initial"), await steps(page).nth(1).getAttribute("data-initial")], (v) => v.join() === "true,false", "step 1 alone initial again");
  await editor(page).locator("[data-testid=auto-reply-description]").fill("Menu do site (revisado)");
  await page.locator("[data-testid=auto-reply-save]").click();
  await waitCount(drawers(page), 0);
  await poll(async () => (await ok(t.api.get(`/chatbot-flows/flows/one?id=${flowId}`, api))).description, (d) => d === "Menu do site (revisado)", "the edit saved");
  // The server refuses two initial steps too (a client other than this screen).
  const refused = await t.api.put("/chatbot-flows/flows", { id: flowId, steps: saved.steps.map((s: any) => ({ ...s, initial: true })) }, api);
  expect([refused.status, refused.body?.error]).toEqual([400, "ERR_AUTO_REPLY_SINGLE_INITIAL_STEP"]);

  // Duplicate, then delete the copy (with its confirmation).
  await row(page, "Menu principal").locator("[data-testid=auto-reply-duplicate]").click();
  await waitCount(page.locator("[data-testid=auto-reply-row]"), 2);
  const copyName = await poll(async () => (await Promise.all((await page.locator("[data-testid=auto-reply-row]").all()).map((r) => r.getAttribute("data-name")))).find((n) => n !== "Menu principal"), (n) => !!n, "the copy's row");
  await row(page, copyName!).locator("[data-testid=auto-reply-delete]").click();
  await page.locator(".ant-popover:visible", { hasText: `Excluir a auto-resposta ${copyName}?` }).waitFor();
  await shot(page, "auto-reply-delete-confirm");
  await page.locator(".ant-popover:visible [data-testid=auto-reply-delete-ok]").click();
  await waitCount(page.locator("[data-testid=auto-reply-row]"), 1);

  // Bind it to the web-chat connection through the connection form's Chatbot section.
  const bindingPuts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "PUT" && r.url().includes("/api/chatbot-flows/bindings")) bindingPuts.push(r.postData() ?? "");
  });
  await page.goto(`${t.url}/#/configuracoes/canais`);
  await page.click(`[data-testid=channel-edit-${conn.id}]`);
  const section = page.locator("[data-testid=form-section-chatbot-flows-chatbot]");
  await section.waitFor({ timeout: 15_000 });
  await waitText(section, "Fluxo de entrada");
  await pick(page, section.locator("[data-testid=chatbot-entry-flow]"), "Menu principal");
  await shot(page, "auto-reply-connection-section");
  await page.click("[data-testid=channel-save]");
  await waitCount(drawers(page), 0);
  expect(await ok(t.api.get(`/chatbot-flows/bindings?scope=connection&targetId=${conn.id}`, api))).toMatchObject({ entryFlowId: flowId, closureFlowId: null });
  expect(bindingPuts).toHaveLength(1);
  // Opened again, the form shows the binding; saved for another reason, it does not write the binding again.
  await page.click(`[data-testid=channel-edit-${conn.id}]`);
  await waitText(page.locator("[data-testid=form-section-chatbot-flows-chatbot] [data-testid=chatbot-entry-flow]"), "Menu principal");
  await page.locator("[data-testid=channel-name]").fill(`${conn.name} (site)`);
  await page.click("[data-testid=channel-save]");
  await waitCount(drawers(page), 0);
  await poll(async () => (await ok(t.api.get(`/connections/${conn.id}`, api))).name, (n) => n === `${conn.name} (site)`, "the renamed connection");
  expect(bindingPuts).toHaveLength(1);

  // Bound, the flow cannot be deleted: the catalogue's notice says why, and it stays listed.
  await page.goto(`${t.url}/#/auto-resposta`);
  await row(page, "Menu principal").locator("[data-testid=auto-reply-delete]").click();
  await clickForNotice(page, page.locator(".ant-popover:visible [data-testid=auto-reply-delete-ok]"), "Resposta automática em uso", "auto-reply-in-use");
  await waitCount(page.locator("[data-testid=auto-reply-row]"), 1);

  // A visitor writes on the connection: the menu comes back; "2" hands the ticket to Suporte.
  const visitor = (await ok(t.api.post(`/webchat/${conn.token}/session`, { name: "Paula Reis" }))).visitorId as string;
  await ok(t.api.post(`/webchat/${conn.token}/messages`, { visitorId: visitor, body: "Oi", name: "Paula Reis" }), 201);
  const outbox = async () => ((await ok(t.api.get(`/webchat/${conn.token}/messages?visitorId=${visitor}&after=0`))).items as Array<{ body?: string }>).map((i) => i.body ?? "");
  await poll(outbox, (b) => b.includes(MENU), "the menu sent to the visitor", 30_000);
  const ticketOf = async () => {
    const r = await ok(t.api.get(`/tickets?showAll=true&status=open,pending,chatbot&searchParam=${encodeURIComponent("Paula Reis")}`, api));
    return (r.tickets as Array<{ id: number; status: string; queueId: number | null }>)[0];
  };
  const first = await poll(ticketOf, (x) => !!x, "the visitor's ticket");
  expect(first.status).toBe("chatbot");
  await ok(t.api.post(`/webchat/${conn.token}/messages`, { visitorId: visitor, body: "2", name: "Paula Reis" }), 201);
  await poll(outbox, (b) => b.includes("Encaminhando para o Suporte."), "the action's return message", 30_000);
  const handed = await poll(async () => ok(t.api.get(`/tickets/${first.id}`, api)), (x: any) => x.status !== "chatbot", "the hand-off", 30_000);
  // The flow distributes "balanced": the ticket goes to Suporte and to one of its users online (the admin's browser is).
  expect(handed).toMatchObject({ id: first.id, status: "open", queueId: q.suporte });
  expect([f.admin.userId, f.supervisor.userId, f.agent.userId]).toContain(handed.userId);

  // The queue form has the same section: Vendas's new tickets start in the menu too.
  await page.goto(`${t.url}/#/configuracoes/filas`);
  await page.locator(".ant-table-row", { hasText: "Vendas" }).locator('button[aria-label="Editar"]').click();
  const qSection = page.locator(".ant-modal [data-testid=form-section-chatbot-flows-chatbot]");
  await qSection.waitFor({ timeout: 15_000 });
  await pick(page, qSection.locator("[data-testid=chatbot-entry-flow]"), "Menu principal");
  await shot(page, "auto-reply-queue-section");
  await page.locator(".ant-modal .ant-btn-primary").click();
  await waitCount(page.locator(".ant-modal:visible"), 0);
  expect(await ok(t.api.get(`/chatbot-flows/bindings?scope=queue&targetId=${q.vendas}`, api))).toMatchObject({ entryFlowId: flowId, closureFlowId: null });
  expect(await ok(t.api.get(`/chatbot-flows/bindings?scope=queue&targetId=${q.suporte}`, api))).toMatchObject({ entryFlowId: null, closureFlowId: null });
  expect(page.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
});

test("a free-plan tenant activating a second flow gets the plan's notice", async () => {
  const body = (name: string, active: boolean) => ({ kind: "entry", name, description: "", active, testPhone: null, settings: {}, steps: [{ id: "s1", initial: true, message: "Olá", actions: [] }] });
  await ok(t.api.post("/chatbot-flows/flows", body("Primeiro", true), freeApi));
  await ok(t.api.post("/chatbot-flows/flows", body("Segundo", false), freeApi));
  const page = await newPage();
  await sessionLogin(page, free.emails.admin, "/auto-resposta");
  await row(page, "Segundo").waitFor({ timeout: 30_000 });
  await clickForNotice(page, row(page, "Segundo").locator("[data-testid=auto-reply-row-active]"), "Limite de fluxos", "auto-reply-free-plan-limit");
  // The list reloads: the second flow is still off.
  await poll(() => row(page, "Segundo").locator("[data-testid=auto-reply-row-active]").getAttribute("aria-checked"), (v) => v === "false", "the switch back off");
});
