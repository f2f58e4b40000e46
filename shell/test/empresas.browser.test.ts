/**
 * /empresas (the platform level) in a real browser against a real core: the super creates a
 * tenant together with its first admin, a weak password is shown on its field (catalogue
 * text) and creates nothing, then the new admin signs in through the login form and lands on
 * the new tenant's terms of use. The super adds a second admin to the tenant later; a
 * tenant's admin is refused the page.
 */
import type { Browser, Page } from "playwright-core";
import * as path from "node:path";
import { createSuper, createTenant, PASSWORD, startCore, uid, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, poll, screenErrors, sessionLogin, shot } from "./browser";

jest.setTimeout(180_000);

let t: TestCore;
let browser: Browser;

beforeAll(async () => {
  t = await startCore({ env: { SHELL_DIR: path.resolve(__dirname, "../dist") } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const route = (page: Page) => new URL(page.url()).hash.replace(/^#/, "").split("?")[0];
const waitRoute = (page: Page, r: string) => poll(async () => route(page), (x) => x === r, `route ${r}`, 20_000);

async function fillAdmin(page: Page, scope: string, a: { name: string; email: string; password: string }) {
  await page.fill(`${scope} [data-testid=admin-name]`, a.name);
  await page.fill(`${scope} [data-testid=admin-email]`, a.email);
  await page.fill(`${scope} [data-testid=admin-password]`, a.password);
}

it("the platform level creates a tenant with its first admin, who then signs in to it", async () => {
  const sup = await createSuper(t);
  // The API checks' own super: the browser's login ends `sup`'s API session (one session per user).
  const supApi = await createSuper(t);
  const page = (await newPage(browser)) as Page & { errors: string[] };
  await sessionLogin(page, t.url, sup.email, "/empresas");
  await page.waitForSelector("[data-testid=empresas-page]");
  const tenantName = `Padaria ${uid()}`;
  const email = `dona-${uid()}@t.test`;

  await page.click("[data-testid=tenant-new]");
  await page.waitForSelector("[data-testid=tenant-form]");
  await page.fill("[data-testid=tenant-name]", tenantName);
  // A weak password: refused by the core, shown on its field, nothing created.
  await fillAdmin(page, "[data-testid=tenant-form]", { name: "Dona Maria", email, password: "fraca" });
  await page.click("#tenant-save");
  await page.waitForSelector("[data-testid=tenant-form] .ant-form-item-has-error [data-testid=admin-password]");
  await shot(page, "empresas-weak-password");
  expect((await t.api.get(`/tenants?searchParam=${encodeURIComponent(tenantName)}`, supApi)).body.count).toBe(0);

  await page.fill("[data-testid=tenant-form] [data-testid=admin-password]", PASSWORD);
  // The button ignores clicks while it still shows the refused try's spinner; creating a tenant
  // with its admin and defaults takes seconds on a loaded machine, so wait for its answer.
  await page.waitForSelector("#tenant-save:not(.ant-btn-loading)");
  const created = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.endsWith("/tenants"), { timeout: 60_000 });
  await page.click("#tenant-save");
  expect((await created).status()).toBeLessThan(300);
  await poll(() => page.locator(".ant-table-row", { hasText: tenantName }).count(), (n) => n === 1, "the new tenant's row");
  await shot(page, "empresas-created");
  const found = (await t.api.get(`/tenants?searchParam=${encodeURIComponent(tenantName)}`, supApi)).body.tenants as Array<{ id: number }>;
  expect(found.length).toBe(1);
  const tenantId = found[0]!.id;

  // A second admin, later.
  const email2 = `gerente-${uid()}@t.test`;
  await page.click(`[data-testid=tenant-add-admin-${tenantId}]`);
  await page.waitForSelector("[data-testid=admin-form]");
  await fillAdmin(page, "[data-testid=admin-form]", { name: "Gerente", email: email2, password: PASSWORD });
  await page.click("#admin-save");
  await poll(() => page.locator("[data-testid=admin-form]").count(), (n) => n === 0, "the modal closing");
  expect((await t.api.login(email2)).tenantId).toBe(tenantId);
  expect(screenErrors(page)).toEqual([]);

  // The first admin signs in through the form: the new tenant's terms come first.
  const admin = (await newPage(browser)) as Page & { errors: string[] };
  await admin.goto(`${t.url}/#/login`);
  await admin.waitForSelector("[data-testid=login-form]");
  await admin.fill("#login-identifier", email);
  await admin.fill("#login-password", PASSWORD);
  await admin.focus("[data-testid=captcha-handle]");
  await admin.keyboard.press("End");
  await admin.waitForSelector(".oa-captcha-ok");
  await admin.click("[data-testid=login-submit]");
  await waitRoute(admin, "/terms-of-use");
  expect(await admin.evaluate(() => localStorage.getItem("tenantId"))).toBe(String(tenantId));
  await shot(admin, "empresas-first-admin-terms");
});

it("a tenant's admin is refused /empresas and has no menu entry for it", async () => {
  const f = await createTenant(t);
  await acceptTerms(t, f);
  const page = (await newPage(browser)) as Page & { errors: string[] };
  await sessionLogin(page, t.url, f.emails.admin, "/empresas");
  await waitRoute(page, "/home");
  expect(await page.locator("[data-testid=empresas-page]").count()).toBe(0);
  const menu = await page.locator('[data-testid="main-menu"] .ant-menu-item').allInnerTexts();
  expect(menu.join("|")).not.toMatch(/Empresas/);
});
