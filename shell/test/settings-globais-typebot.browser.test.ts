/**
 * Settings › Globais › Typebot in Chromium against a real core (spec §2 "Global settings tabs",
 * §3 Global settings "chatbot builder and viewer URLs … API token", §6 global settings are the
 * top-level admin's): the master admin fills the tab and saves; addresses that are not http(s)
 * are refused on their fields in pt-BR and nothing is sent or stored; after a reload the addresses are shown again and the token
 * only as the mask (never in the page); the mask saved back keeps the token, a new one replaces
 * it, an emptied field removes it. A tenant admin gets the no-permission notice and the API refuses them.
 */
import type { Browser, Page } from "playwright-core";
import { createSuper, createTenant, startCore, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, notices, poll, screenErrors, sessionLogin, shot, waitCount, waitText } from "./browser";

jest.setTimeout(180_000);

let t: TestCore;
let f: TenantFixture;
let browser: Browser;

const BUILDER = "https://builder.atende.test";
const VIEWER = "https://bot.atende.test:8443";
const TOKEN = "tb-secret-4f9a1c";
const URL_ERROR = "Informe um endereço http(s) válido";

beforeAll(async () => {
  t = await startCore();
  f = await createTenant(t);
  await acceptTerms(t, f);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const stored = () => t.core.broker.call("settings.getGlobal", { key: "typebot" }) as Promise<Record<string, unknown> | null>;

test("the master admin saves the platform's Typebot: addresses checked, the token write-only", async () => {
  const master = await createSuper(t);
  const page = await newPage(browser);
  await openGlobais(page, master.email);
  expect(await page.locator("[data-testid^=global-tab-]").evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")))).toEqual(["global-tab-sistema", "global-tab-typebot"]);
  await openTab(page);
  await waitText(page.locator("[data-testid=typebot-global-status]"), "Sem endereço do visualizador");
  expect(await page.locator("[data-testid=typebot-global-save]").isDisabled()).toBe(true);
  expect(await page.locator("[data-testid=typebot-global-open-builder]").count()).toBe(0);

  // Not http(s): the form refuses both fields in pt-BR and nothing reaches the core.
  const puts: string[] = [];
  page.on("request", (r) => r.method() === "PUT" && r.url().includes("/api/settings/global/") && puts.push(r.url()));
  await page.fill("[data-testid=typebot-global-builder-url]", "typebot local");
  await page.fill("[data-testid=typebot-global-viewer-url]", "ftp://bot.atende.test");
  await page.fill("[data-testid=typebot-global-token]", TOKEN);
  await page.click("[data-testid=typebot-global-save]");
  await waitText(page.locator("[data-testid=setting-typebot-builder-url] .ant-form-item-explain-error"), URL_ERROR);
  await waitText(page.locator("[data-testid=setting-typebot-viewer-url] .ant-form-item-explain-error"), URL_ERROR);
  await shot(page, "settings-global-typebot-invalid");
  expect(puts).toEqual([]);
  expect(await stored()).toBeNull();

  // An upper-case scheme the core's rule would refuse is refused here too; only the viewer is still wrong.
  await page.fill("[data-testid=typebot-global-builder-url]", BUILDER);
  await page.fill("[data-testid=typebot-global-viewer-url]", "HTTPS://bot.atende.test");
  await page.click("[data-testid=typebot-global-save]");
  await waitCount(page.locator("[data-testid=setting-typebot-builder-url] .ant-form-item-explain-error"), 0);
  await waitText(page.locator("[data-testid=setting-typebot-viewer-url] .ant-form-item-explain-error"), URL_ERROR);
  expect(puts).toEqual([]);
  expect(await stored()).toBeNull();

  // Valid: saved, the token stored in clear for the platform and answered masked.
  await page.fill("[data-testid=typebot-global-viewer-url]", VIEWER);
  await page.click("[data-testid=typebot-global-save]");
  await poll(() => notices(page), (n) => n.some((x) => x.kind === "success" && x.title === "Configuração do Typebot salva"), "the saved notice");
  expect(await stored()).toEqual({ builderUrl: BUILDER, viewerUrl: VIEWER, apiToken: TOKEN });
  await waitText(page.locator("[data-testid=typebot-global-status]"), "Configurado");
  expect((await t.api.get("/load-config")).body.builderUrl).toBe(BUILDER);

  // After a reload: the addresses again, the token only as the mask, nowhere in the page or the answer.
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/settings/global") && r.request().method() === "GET", { timeout: 30_000 });
  await page.reload();
  expect((await (await answer).json()).typebot).toEqual({ builderUrl: BUILDER, viewerUrl: VIEWER, apiToken: "********" });
  await openTab(page);
  await poll(() => page.inputValue("[data-testid=typebot-global-viewer-url]", { timeout: 1000 }).catch(() => ""), (v) => v === VIEWER, "the saved viewer URL");
  expect(await page.inputValue("[data-testid=typebot-global-builder-url]")).toBe(BUILDER);
  expect(await page.inputValue("[data-testid=typebot-global-token]")).toBe("********");
  expect(await page.getAttribute("[data-testid=typebot-global-token]", "type")).toBe("password");
  expect(await page.locator("[data-testid=setting-typebot-token] .ant-input-password-icon").count()).toBe(0);
  expect(await page.content()).not.toContain(TOKEN);
  expect(await page.getAttribute("[data-testid=typebot-global-open-builder]", "href")).toBe(BUILDER);
  await shot(page, "settings-global-typebot-saved");

  // The mask sent back keeps the token; a new one replaces it.
  await page.fill("[data-testid=typebot-global-builder-url]", "https://studio.atende.test/");
  await page.click("[data-testid=typebot-global-save]");
  await poll(stored, (v) => v?.builderUrl === "https://studio.atende.test/", "the new builder URL");
  expect(await stored()).toEqual({ builderUrl: "https://studio.atende.test/", viewerUrl: VIEWER, apiToken: TOKEN });
  await poll(() => page.locator("[data-testid=typebot-global-save]").isDisabled(), (d) => d, "the form saved");
  await page.fill("[data-testid=typebot-global-token]", "tb-new-token");
  await page.click("[data-testid=typebot-global-save]");
  await poll(stored, (v) => v?.apiToken === "tb-new-token", "the replaced token");
  await poll(() => page.inputValue("[data-testid=typebot-global-token]"), (v) => v === "********", "the new token masked");
  // An emptied field removes the token.
  await page.fill("[data-testid=typebot-global-token]", "");
  await page.click("[data-testid=typebot-global-save]");
  await poll(stored, (v) => !!v && !("apiToken" in v), "the token removed");
  await waitText(page.locator("[data-testid=setting-typebot-token]"), "nunca é mostrado de volta");
  expect(await page.inputValue("[data-testid=typebot-global-token]")).toBe("");
  expect(screenErrors(page)).toEqual([]);
});

test("a tenant admin cannot reach Globais › Typebot nor write the platform's Typebot", async () => {
  const before = await stored();
  const r = await t.api.put("/settings/global/typebot", { value: { viewerUrl: "https://mine.atende.test" } }, f.admin);
  expect({ status: r.status, error: r.body?.error }).toEqual({ status: 403, error: "ERR_NO_PERMISSION" });
  expect((await t.api.get("/settings/global", f.admin)).status).toBe(403);
  expect(await stored()).toEqual(before);
  // The browser's login ends the session above (one per user).
  const page = await newPage(browser);
  await sessionLogin(page, t.url, f.emails.admin, "/configuracoes/globais");
  await poll(() => notices(page), (n) => n.some((x) => x.kind === "error" && x.title === "Sem permissão"), "the no-permission notice", 20_000);
  await poll(async () => page.url(), (u) => u.endsWith("#/home"), "the way home");
  expect(await page.locator("[data-testid=global-settings-page]").count()).toBe(0);
  expect(await page.locator("[data-testid=typebot-global-form]").count()).toBe(0);
  expect(screenErrors(page)).toEqual([]);
});

/** The master opens Globais (Sistema first). */
async function openGlobais(page: Page, email: string) {
  await sessionLogin(page, t.url, email, "/configuracoes/globais");
  await page.waitForSelector("[data-testid=global-settings-page] [data-testid=global-tab-typebot]", { timeout: 30_000 });
}

/** Opens the Typebot tab (the page starts on Sistema). */
async function openTab(page: Page) {
  await page.click("[data-testid=global-tab-typebot]", { timeout: 15_000 });
  await page.waitForSelector("[data-testid=typebot-global-form]", { state: "visible", timeout: 15_000 });
}
