/**
 * /marketplace (the platform level) and /modulos (a tenant's admins) in a real browser against
 * a real core with marketplace installs on: the super searches the catalogue, opens a published
 * plugin (versions, changelog, README), installs it, upgrades it and rolls it back; allows it
 * for tenant A only; creates a publisher whose one-time token really publishes, and rotates a
 * token (the old one stops working). Tenant A's admin then sees the module on, with its tier,
 * and switches it off (the shell's plugin list follows, GET /plugins/enabled drops it); tenant
 * B's admin is refused /marketplace and sees the module locked ("not made available by your
 * reseller"); a FREE tenant it is allowed for is told which plan it needs. Last, the super
 * uninstalls it.
 */
import * as path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { createSuper, createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { makePluginArchive } from "../../marketplace/test/fixtures";
import { acceptTerms, launchBrowser, newPage, notices, poll, screenErrors, screenshot, sessionLogin, shot, waitAttr, waitCount, waitText } from "./browser";

jest.setTimeout(300_000);

type P = Page & { errors: string[] };

let t: TestCore;
let browser: Browser;
/** The super of the API checks; the browser logs in as another super (one session per user). */
let supApi: Auth;
let supUi: Auth & { email: string };
let a: TenantFixture;
let b: TenantFixture;
/** A FREE tenant the super allows the BASIC plugin for: its admin is told to upgrade. */
let c: TenantFixture;
/** A second admin of tenant A for API checks: the browser's login ends the fixture admin's API session. */
let adminA2: Auth;
let publisherId: number;
let publisherToken: string;
const tag = uid();
const id = `channel-eco-${tag}`;
const tenantA = `Loja Alfa ${tag}`;
const tenantB = `Loja Beta ${tag}`;
const displayName = { "pt-BR": `Eco Teste ${tag}`, en: `Echo Test ${tag}`, es: `Eco Prueba ${tag}`, ru: `Эхо ${tag}` };

const publish = (archive: Buffer, checksum: string, token: string) =>
  t.api.post("/marketplace/publish", { archive: archive.toString("base64"), checksum }, null, { "x-publisher-token": token });

beforeAll(async () => {
  t = await startCore({ env: { PLUGIN_INSTALLS: "true", SHELL_DIR: path.resolve(__dirname, "../dist") } });
  supApi = await createSuper(t);
  supUi = await createSuper(t);
  a = await createTenant(t, { tier: "BASIC", name: tenantA });
  b = await createTenant(t, { name: tenantB });
  await acceptTerms(t, a);
  await acceptTerms(t, b);
  c = await createTenant(t, { name: `Loja Gama ${tag}` });
  await acceptTerms(t, c);
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: a.tenantId, name: "Admin Dois", email, password: PASSWORD, profile: "admin" });
  adminA2 = await t.api.login(email);

  const pub = await t.api.post("/marketplace/publishers", { name: "Acme Plugins", email: `acme-${tag}@pub.test` }, supApi);
  expect([200, 201]).toContain(pub.status);
  publisherId = pub.body.id;
  publisherToken = pub.body.token;
  for (const [version, changelog] of [
    ["1.0.0", "## 1.0.0\n\n- Primeira versão do canal de eco."],
    ["1.1.0", "## 1.1.0\n\n- Respostas com **eco** configurável.\n- Correções de estabilidade."],
  ]) {
    const { archive, checksum } = makePluginArchive({ id, version, tier: "BASIC", displayName, description: "Canal de eco para testes", changelog });
    const r = await publish(archive, checksum, publisherToken);
    expect([200, 201]).toContain(r.status);
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const row = (page: Page, testId: string) => page.locator(`[data-testid="${testId}"]`);
const confirmOk = (page: Page) => page.locator(".ant-modal-confirm-btns .ant-btn-primary").last();
/**
 * Confirms the open confirm dialog and waits for what its answer shows. On a loaded machine
 * a click during the dialog's opening animation can be lost: when the dialog is still open
 * and idle a few seconds later, its button is clicked again (antd runs onOk once per dialog).
 */
async function confirmUntil(page: Page, shown: string, timeout = 60_000) {
  await confirmOk(page).click();
  let clicked = Date.now();
  await poll(
    async () => {
      if (await page.locator(shown).count()) return true;
      const btn = confirmOk(page);
      const idle = (await btn.isVisible().catch(() => false)) && !((await btn.getAttribute("class").catch(() => "")) ?? "").includes("ant-btn-loading");
      if (idle && Date.now() - clicked > 5_000) {
        await btn.click({ timeout: 2_000 }).catch(() => undefined);
        clicked = Date.now();
      }
      return false;
    },
    (x) => x,
    `${shown} after confirming`,
    timeout,
  );
}
/** The menu entries' titles (a core entry's subtitle is its second line). */
const menuTexts = async (page: Page) => (await page.locator('[data-testid="main-menu"] .ant-menu-item').allInnerTexts()).map((m) => m.split("\n")[0]);

/** Picks an option of an antd Select by its text (typing first when `typed` is given). */
async function pick(page: Page, select: Locator, text: string, typed?: string) {
  await select.click();
  if (typed !== undefined) await select.locator("input").fill(typed);
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: text }).first().click();
  await waitCount(page.locator(".ant-select-dropdown:visible"), 0);
}

async function open(page: P, email: string, route: string, testId: string) {
  await sessionLogin(page, t.url, email, route);
  await page.waitForSelector(`[data-testid="${testId}"]`, { timeout: 15_000 }).catch(async (e) => {
    await screenshot(page, `marketplace-open-failed-${testId}`);
    throw new Error(`${(e as Error).message}\n${page.url()}\n${page.errors.join("\n")}`);
  });
}

const shellEnabled = (page: Page) => page.evaluate(() => ((window as any).__openatende?.plugins.enabled ?? []).map((p: { id: string }) => p.id) as string[]);
const shellLoaded = (page: Page) => page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 15_000 });

test("the super finds the plugin, installs, upgrades and rolls it back, allows it for tenant A, manages publishers", async () => {
  const page = (await newPage(browser)) as P;
  try {
    const searches: string[] = [];
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (u.pathname === "/api/marketplace/plugins") searches.push(u.searchParams.get("search") ?? "");
    });
    await open(page, supUi.email, "/marketplace", "catalogue-tab");
    expect(await menuTexts(page)).toEqual(expect.arrayContaining(["Marketplace", "Módulos"]));
    await waitCount(row(page, `catalogue-row-${id}`), 1);
    await waitText(row(page, `catalogue-row-${id}`), `Eco Teste ${tag}`);
    await waitText(row(page, `catalogue-row-${id}`), "Acme Plugins");
    await waitAttr(row(page, `catalogue-installed-${id}`), "data-version", "");
    await shot(page, "marketplace-catalogue");

    // The search is debounced: what was typed half-way is never asked for.
    const search = page.locator('input[data-testid="catalogue-search"], [data-testid="catalogue-search"] input').first();
    await search.pressSequentially("nada-disso", { delay: 40 });
    await waitText(page.locator('[data-testid="catalogue-tab"] .ant-empty'), "Nenhum plugin encontrado");
    await search.fill("");
    await search.pressSequentially(tag, { delay: 40 });
    await waitCount(row(page, `catalogue-row-${id}`), 1);
    expect(searches.filter((s) => s && s !== "nada-disso" && s !== tag)).toEqual([]);
    // Tier filter.
    await pick(page, page.locator('[data-testid="catalogue-tier"]'), "PREMIUM");
    await waitCount(row(page, `catalogue-row-${id}`), 0);
    await pick(page, page.locator('[data-testid="catalogue-tier"]'), "BASIC");
    await waitCount(row(page, `catalogue-row-${id}`), 1);
    await pick(page, page.locator('[data-testid="catalogue-kind"]'), "Canal");
    await waitCount(row(page, `catalogue-row-${id}`), 1);
    await shot(page, "marketplace-catalogue-filtered");

    // The drawer: versions newest first, changelog, compatibility, README.
    await page.click(`[data-testid="catalogue-open-${id}"]`);
    await page.waitForSelector('[data-testid="plugin-versions"]');
    expect(await page.locator('[data-testid="plugin-versions"] > li').evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")))).toEqual(["version-1.1.0", "version-1.0.0"]);
    await waitText(row(page, "version-changelog-1.1.0"), "Correções de estabilidade");
    await waitText(row(page, "version-changelog-1.0.0"), "Primeira versão");
    await waitCount(row(page, "version-compatible-1.1.0"), 1);
    await waitText(row(page, "plugin-detail"), "Canal de eco para testes");
    await waitText(row(page, "version-install-1.1.0"), "Instalar");
    await shot(page, "marketplace-plugin-drawer");
    await page.click('[data-testid="plugin-tab-readme"]');
    await waitText(row(page, "plugin-readme"), "An echo channel");
    await page.click('[data-testid="plugin-tab-versions"]');

    // Install the older version first: the newer one's button then reads "Atualizar".
    await page.click('[data-testid="version-install-1.0.0"]');
    await waitAttr(row(page, "plugin-installed"), "data-version", "1.0.0", 90_000);
    await waitCount(row(page, "version-current-1.0.0"), 1);
    await waitText(row(page, "version-upgrade-1.1.0"), "Atualizar");
    await waitAttr(row(page, `catalogue-installed-${id}`), "data-version", "1.0.0");
    expect(await row(page, "plugin-rollback").count()).toBe(0);
    await shot(page, "marketplace-installed");

    await page.click('[data-testid="version-upgrade-1.1.0"]');
    await waitAttr(row(page, "plugin-installed"), "data-version", "1.1.0", 90_000);
    await waitText(row(page, "plugin-rollback"), "Reverter para 1.0.0");
    await shot(page, "marketplace-upgraded");

    await page.click('[data-testid="plugin-rollback"]');
    // The confirm's click can be lost in its opening animation on a loaded machine (seen in a clean-clone CI run).
    await confirmUntil(page, '[data-testid="plugin-installed"][data-version="1.0.0"]', 90_000);
    await waitAttr(row(page, `catalogue-installed-${id}`), "data-version", "1.0.0");
    const installed = (await t.api.get("/plugins/installed", supApi)).body as Array<{ id: string; version: string; previousVersion: string | null }>;
    expect(installed.find((p) => p.id === id)).toMatchObject({ version: "1.0.0", previousVersion: "1.1.0" });
    await page.locator(".ant-drawer-close").click();
    await waitCount(page.locator(".ant-drawer-body"), 0);
    await waitText(row(page, `catalogue-installed-${id}`), "Atualização");
    await shot(page, "marketplace-catalogue-installed");

    // Tenants: B (FREE) is below the plugin's tier and, by default, not allowed; A gets it.
    await page.click('[data-testid="marketplace-tab-empresas"]');
    await page.waitForSelector('[data-testid="tenants-pick-hint"]');
    expect(page.url()).toContain("tab=empresas");
    await pick(page, page.locator('[data-testid="tenant-picker"]'), tenantB, `Beta ${tag}`);
    await waitCount(row(page, `tenant-plugin-row-${id}`), 1);
    await waitAttr(row(page, `tenant-plugin-decision-${id}`), "data-decision", "default");
    await waitText(row(page, `tenant-plugin-decision-${id}`), "Pelo padrão: bloqueado");
    await waitCount(row(page, `tenant-plugin-tier-warning-${id}`), 1);
    await waitAttr(row(page, `tenant-plugin-available-${id}`), "data-available", "false");
    await shot(page, "marketplace-tenant-b");

    await pick(page, page.locator('[data-testid="tenant-picker"]'), tenantA, `Alfa ${tag}`);
    await waitText(page.locator('[data-testid="tenant-picker"]'), tenantA);
    await waitAttr(row(page, `tenant-plugin-decision-${id}`), "data-decision", "default");
    await waitCount(row(page, `tenant-plugin-tier-warning-${id}`), 0);
    await page.click(`[data-testid="decision-${id}-allow"]`);
    await waitAttr(row(page, `tenant-plugin-decision-${id}`), "data-decision", "allow");
    await waitAttr(row(page, `tenant-plugin-available-${id}`), "data-available", "true");
    await waitAttr(row(page, `tenant-plugin-enabled-${id}`), "data-enabled", "true");
    const viewA = ((await t.api.get(`/plugins/tenants/${a.tenantId}`, supApi)).body as Array<{ id: string; decision: boolean | null; available: boolean }>).find((p) => p.id === id);
    expect(viewA).toMatchObject({ decision: true, available: true });
    const viewB = ((await t.api.get(`/plugins/tenants/${b.tenantId}`, supApi)).body as Array<{ id: string; decision: boolean | null; allowed: boolean }>).find((p) => p.id === id);
    expect(viewB).toMatchObject({ decision: null, allowed: false });
    await shot(page, "marketplace-tenant-a");

    // Publishers: a new one's token is shown once and really publishes; a rotated token replaces the old one.
    await page.click('[data-testid="marketplace-tab-publicadores"]');
    await waitText(row(page, `publisher-row-${publisherId}`), "Acme Plugins");
    await page.click('[data-testid="publisher-new"]');
    const m = page.locator(".ant-modal-container").last();
    await m.locator('[data-testid="publisher-name"]').fill("Beta Labs");
    await m.locator('[data-testid="publisher-email"]').fill(`beta-${tag}@pub.test`);
    await m.locator(".ant-modal-footer .ant-btn-primary").click();
    await page.waitForSelector('[data-testid="publisher-token"]');
    const token = (await row(page, "publisher-token").locator("code").innerText()).trim();
    expect(token).toMatch(/^mkp_/);
    await waitText(page.locator(".ant-modal-container").last(), "não será exibido novamente");
    await waitText(row(page, "publisher-token-copy"), "Copiar");
    await shot(page, "marketplace-publisher-token");
    const other = makePluginArchive({ id: `channel-beta-${tag}`, version: "0.1.0" });
    expect([200, 201]).toContain((await publish(other.archive, other.checksum, token)).status);
    await page.click('[data-testid="publisher-token-done"]');
    await waitCount(row(page, "publisher-token"), 0);
    await waitCount(page.locator(".ant-table-row", { hasText: "Beta Labs" }), 1);

    await page.click(`[data-testid="publisher-rotate-${publisherId}"]`);
    await confirmUntil(page, '[data-testid="publisher-token"]');
    const rotated = (await row(page, "publisher-token").locator("code").innerText()).trim();
    expect(rotated).toMatch(/^mkp_/);
    expect(rotated).not.toBe(publisherToken);
    const next = makePluginArchive({ id, version: "1.2.0", tier: "BASIC", displayName, description: "Canal de eco para testes" });
    const refused = await publish(next.archive, next.checksum, publisherToken);
    expect(refused.body.error).toBe("ERR_MARKETPLACE_TOKEN_INVALID");
    expect([200, 201]).toContain((await publish(next.archive, next.checksum, rotated)).status);
    await page.click('[data-testid="publisher-token-done"]');
    await shot(page, "marketplace-publishers");

    expect(screenErrors(page)).toEqual([]);
  } catch (e) {
    await screenshot(page, "marketplace-failure").catch(() => undefined);
    throw e;
  } finally {
    await page.context().close();
  }
});

test("tenant A's admin sees the module on with its tier, and switches it off", async () => {
  const page = (await newPage(browser)) as P;
  try {
    await open(page, a.emails.admin, "/modulos", "modules-page");
    await shellLoaded(page);
    const menu = await menuTexts(page);
    expect(menu).toContain("Módulos");
    expect(menu).not.toContain("Marketplace");
    await waitCount(row(page, `module-row-${id}`), 1);
    await waitText(row(page, `module-row-${id}`), `Eco Teste ${tag}`);
    await waitAttr(row(page, `module-tier-${id}`), "data-tier", "BASIC");
    await waitAttr(row(page, `module-state-${id}`), "data-enabled", "true");
    expect(await row(page, `module-switch-${id}`).isDisabled()).toBe(false);
    expect(await shellEnabled(page)).toContain(id);
    await shot(page, "modules-tenant-a");

    await page.click(`[data-testid="module-switch-${id}"]`);
    await waitAttr(row(page, `module-state-${id}`), "data-enabled", "false");
    // The shell loaded the enabled plugins again, and the API agrees.
    await poll(() => shellEnabled(page), (ids) => !ids.includes(id), "the shell's plugin list to drop the module");
    await shellLoaded(page);
    const enabled = (await t.api.get("/plugins/enabled", adminA2)).body as Array<{ id: string }>;
    expect(enabled.map((p) => p.id)).not.toContain(id);
    expect(((await t.api.get("/plugins", adminA2)).body as Array<{ id: string; enabled: boolean }>).find((p) => p.id === id)?.enabled).toBe(false);
    expect((await notices(page)).some((n) => n.kind === "success" && n.title.includes("desligado"))).toBe(true);
    await shot(page, "modules-tenant-a-off");
    expect(screenErrors(page)).toEqual([]);
  } catch (e) {
    await screenshot(page, "modules-a-failure").catch(() => undefined);
    throw e;
  } finally {
    await page.context().close();
  }
});

test("tenant B's admin is refused /marketplace and sees the module locked by the reseller", async () => {
  const page = (await newPage(browser)) as P;
  try {
    await sessionLogin(page, t.url, b.emails.admin, "/marketplace");
    await poll(() => Promise.resolve(page.url()), (u) => u.endsWith("#/home"), "the refusal to go back to /home");
    await poll(() => notices(page), (ns) => ns.some((n) => n.kind === "error" && n.title === "Sem permissão"), "the no-permission notice");
    expect(await page.locator('[data-testid="marketplace-page"]').count()).toBe(0);
    expect(await menuTexts(page)).not.toContain("Marketplace");

    await page.evaluate(() => (window.location.hash = "#/modulos"));
    await page.waitForSelector(`[data-testid="module-row-${id}"]`, { timeout: 15_000 });
    await waitAttr(row(page, `module-state-${id}`), "data-blocked", "notAllowed");
    await waitAttr(row(page, `module-state-${id}`), "data-enabled", "false");
    expect(await row(page, `module-switch-${id}`).isDisabled()).toBe(true);
    await waitText(row(page, `module-why-${id}`), "Não disponibilizado pelo seu revendedor");
    await shellLoaded(page);
    expect(await shellEnabled(page)).not.toContain(id);
    await shot(page, "modules-tenant-b");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "modules-tenant-b-mobile");
    expect(screenErrors(page)).toEqual([]);
  } catch (e) {
    await screenshot(page, "modules-b-failure").catch(() => undefined);
    throw e;
  } finally {
    await page.context().close();
  }
});

test("a FREE tenant's admin sees the allowed BASIC module locked by the plan, with the tier named", async () => {
  expect((await t.api.put(`/plugins/${id}/tenants/${c.tenantId}`, { allowed: true }, supApi)).status).toBe(200);
  const page = (await newPage(browser)) as P;
  try {
    await open(page, c.emails.admin, "/modulos", "modules-page");
    await waitAttr(row(page, `module-state-${id}`), "data-blocked", "tier");
    expect(await row(page, `module-switch-${id}`).isDisabled()).toBe(true);
    await waitText(row(page, `module-why-${id}`), "Requer o plano BASIC (o seu é FREE)");
    await waitText(row(page, `module-why-${id}`), "upgrade");
    await shot(page, "modules-tenant-c-tier");
    expect(screenErrors(page)).toEqual([]);
  } catch (e) {
    await screenshot(page, "modules-c-failure").catch(() => undefined);
    throw e;
  } finally {
    await page.context().close();
  }
});

test("the super uninstalls the plugin after a confirmation", async () => {
  const page = (await newPage(browser)) as P;
  try {
    await open(page, supUi.email, "/marketplace", "catalogue-tab");
    await waitAttr(row(page, `catalogue-installed-${id}`), "data-version", "1.0.0");
    await page.click(`[data-testid="catalogue-details-${id}"]`);
    await page.waitForSelector('[data-testid="plugin-uninstall"]');
    // The newest published version (1.2.0, by the rotated token) is offered as an upgrade.
    await waitText(row(page, "version-upgrade-1.2.0"), "Atualizar");
    await page.click('[data-testid="plugin-uninstall"]');
    await waitText(page.locator(".ant-modal-confirm").last(), "Desinstalar");
    await shot(page, "marketplace-uninstall-confirm");
    await page.click('[data-testid="plugin-uninstall-ok"]');
    await waitAttr(row(page, "plugin-installed"), "data-version", "", 60_000);
    await waitCount(row(page, "plugin-uninstall"), 0);
    await waitAttr(row(page, `catalogue-installed-${id}`), "data-version", "");
    expect(((await t.api.get("/plugins/installed", supApi)).body as Array<{ id: string }>).map((p) => p.id)).not.toContain(id);
    expect(screenErrors(page)).toEqual([]);
  } catch (e) {
    await screenshot(page, "marketplace-uninstall-failure").catch(() => undefined);
    throw e;
  } finally {
    await page.context().close();
  }
});
