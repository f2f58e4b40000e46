/**
 * Settings › Typebot and a connection's Typebot section in the built shell, in Debian's
 * Chromium, against a real core and a local fake Typebot: the admin fills the viewer and
 * builder URLs, the token, the legacy API, a timeout and the hand-off queue, saves, tests a bot
 * (Typebot's real answer shown), reloads and sees it all (the token only as its hint); then
 * enables Typebot on a web chat connection in its form, saves, reopens it and sees the values,
 * which the plugin stored and bound.
 */
import type { Browser, Page } from "playwright-core";
import { QueryTypes } from "sequelize";
import { createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { startFakeTypebot, type FakeTypebot } from "./fake-typebot";
import { allowPlugin, ok, webchat } from "./support";
import { launchBrowser, newPage, poll, screenErrors, sessionLogin, shot, waitText, waitValue } from "./support/browser";

jest.setTimeout(240_000);

const TOKEN = "tb-browser-token-4321";
let t: TestCore;
let fake: FakeTypebot;
let f: TenantFixture;
let conn: { id: number; token: string };
let browser: Browser;
/** A second admin for the API checks (the browser's login ends the first admin's other sessions). */
let admin2: Auth;

beforeAll(async () => {
  fake = await startFakeTypebot({ token: TOKEN });
  t = await startCore({ env: { NAMESPACE: `typebot-ui-${uid()}`, OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
  f = await createTenant(t, { tier: "PLUS" });
  await ok(t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin));
  await ok(t.api.put(`/users/${f.admin.userId}/lgpd-consent`, { accepted: true }, f.admin));
  await allowPlugin(t, [f]);
  conn = await webchat(t, f);
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: "Admin Dois", email, password: PASSWORD, profile: "admin" });
  admin2 = await t.api.login(email);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await fake?.stop();
});

const field = (page: Page, id: string) => page.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();

async function openSettings(page: Page) {
  await page.locator('[data-testid="typebot-settings-page"][aria-busy="false"]').waitFor({ timeout: 30_000 });
}

it("the admin fills Settings › Typebot, tests a bot, reloads and sees it all", async () => {
  const page = await newPage(browser);
  await sessionLogin(page, t.url, f.emails.admin, "/configuracoes/typebotapi");
  await openSettings(page);
  await waitText(page.locator('[data-testid="settings-tab-typebotapi"]'), "Typebot");

  await field(page, "typebot-viewer-url").fill(`${fake.url}/`);
  await field(page, "typebot-builder-url").fill("https://builder.exemplo.com.br");
  await field(page, "typebot-api-token").fill(TOKEN);
  await page.getByText("Antiga (sendMessage)").click();
  await field(page, "typebot-session-timeout").fill("20");
  await page.locator('[data-testid="typebot-queue"]').click();
  await page.locator('.ant-select-item-option[title="Vendas"]').click();
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/typebot/settings") && r.request().method() === "PUT");
  await page.locator('[data-testid="typebot-save"]').click();
  expect((await saved).status()).toBe(200);
  await waitText(page.locator(".ant-form-item-extra").filter({ hasText: "Token salvo" }), "••••4321");

  // The test button: the saved settings against the fake Typebot, over the legacy API with the token.
  await field(page, "typebot-test-bot").fill("atendimento");
  await page.locator('[data-testid="typebot-test"]').click();
  await waitText(page.locator('[data-testid="typebot-test-result"]'), "Typebot respondeu");
  expect(fake.requests.at(-1)).toMatchObject({ path: "/api/v1/sendMessage", authorization: `Bearer ${TOKEN}`, body: { startParams: { publicId: "atendimento", isOnlyRegistering: true } } });
  await shot(page, "typebot-settings-tested");
  // A bot Typebot does not know: its own answer, shown as a failure.
  await field(page, "typebot-test-bot").fill("nao-existe");
  await page.locator('[data-testid="typebot-test"]').click();
  await waitText(page.locator('[data-testid="typebot-test-result"]'), "Typebot not found");

  await page.reload();
  await openSettings(page);
  await waitValue(field(page, "typebot-viewer-url"), fake.url);
  await waitValue(field(page, "typebot-builder-url"), "https://builder.exemplo.com.br");
  await waitValue(field(page, "typebot-session-timeout"), "20");
  expect(await field(page, "typebot-api-token").inputValue()).toBe("");
  expect(await page.locator('[data-testid="typebot-api-generation"] .ant-radio-wrapper-checked').innerText()).toContain("Antiga");
  await waitText(page.locator('[data-testid="typebot-queue"]'), "Vendas");
  expect(await page.locator('[data-testid="typebot-open-builder"]').getAttribute("href")).toBe("https://builder.exemplo.com.br");
  await shot(page, "typebot-settings-reloaded");
  expect(screenErrors(page)).toEqual([]);
  await page.context().close();
});

it("the admin enables Typebot in a connection's form, saves, reopens it and sees the values", async () => {
  const page = await newPage(browser);
  await sessionLogin(page, t.url, f.emails.admin, "/configuracoes/canais");
  await page.locator(`[data-testid="channel-edit-${conn.id}"]`).click();
  const section = page.locator('[data-testid="form-section-chatbot-typebot-typebot"]');
  await section.waitFor({ timeout: 20_000 });
  await section.locator('[data-testid="typebot-enabled"]').click();
  // Enabled without a bot: the field says so.
  await waitText(section, "Informe o ID público do bot");
  await section.locator('[data-testid="typebot-public-id"]').fill("atendimento");
  await section.locator('[data-testid="typebot-restart-keyword"]').fill("#menu");
  await section.locator('[data-testid="typebot-invalid-message"]').fill("Não entendi, responda com o número.");
  await shot(page, "typebot-connection-section");
  const put = page.waitForResponse((r) => r.url().endsWith("/api/typebot/connection") && r.request().method() === "PUT");
  await page.locator('[data-testid="channel-save"]').click();
  expect((await put).status()).toBe(200);

  expect(await ok(t.api.get(`/typebot/connection?connectionId=${conn.id}`, admin2))).toEqual({ connectionId: conn.id, enabled: true, publicId: "atendimento", restartKeyword: "#menu", invalidMessage: "Não entendi, responda com o número." });
  const bound = await t.core.sequelize.query("SELECT pluginId, ref FROM chatbot_bindings WHERE tenantId = ? AND scope = 'connection' AND targetId = ?", { replacements: [f.tenantId, conn.id], type: QueryTypes.SELECT });
  expect(bound).toEqual([{ pluginId: "chatbot-typebot", ref: String(conn.id) }]);

  await page.reload();
  await page.locator(`[data-testid="channel-edit-${conn.id}"]`).click();
  await section.waitFor({ timeout: 20_000 });
  await waitValue(section.locator('[data-testid="typebot-public-id"]'), "atendimento");
  await waitValue(section.locator('[data-testid="typebot-restart-keyword"]'), "#menu");
  await waitValue(section.locator('[data-testid="typebot-invalid-message"]'), "Não entendi, responda com o número.");
  await poll(() => section.locator('[data-testid="typebot-enabled"]').getAttribute("aria-checked"), (v) => v === "true", "the switch on");
  await section.scrollIntoViewIfNeeded();
  await shot(page, "typebot-connection-reopened");
  expect(screenErrors(page)).toEqual([]);
  await page.context().close();
});
