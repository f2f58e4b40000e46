/**
 * A Telegram connection end to end in a real browser against a real core and a local server
 * that speaks the Bot API (plugins/channel-telegram/test/fake-bot-api.ts; telegraf is pointed
 * at it with the form's "Bot API server" field, never at Telegram): the admin makes the
 * connection in /configuracoes/canais with the plugin's own form (token checked by the form,
 * tested against the server, long polling), connects it; a customer's message (an update the
 * server hands to getUpdates) appears live in /atendimento; the admin accepts and replies from
 * the composer, and the server receives sendMessage for the customer's chat.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { createSuper, createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { FakeBotApi } from "../../plugins/channel-telegram/test/fake-bot-api";
import { launchBrowser, newPage, screenshot, sessionLogin, settled } from "./browser";

jest.setTimeout(240_000);

type P = Page & { errors: string[] };

let t: TestCore;
let f: TenantFixture;
let api: FakeBotApi;
let browser: Browser;
/** A second admin for API checks: the browser's login ends the first admin's API session. */
let admin2: Auth;

beforeAll(async () => {
  // A namespace of its own: the plugin remembers sends in Redis by (namespace, connection, message id),
  // and a fresh database numbers both from 1 again.
  // The fake Bot API is on loopback: the platform allow-lists it (outbound URL policy).
  t = await startCore({ env: { NAMESPACE: `tg-browser-${uid()}`, OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
  f = await createTenant(t, { tier: "BASIC" });
  expect((await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin)).status).toBe(200);
  expect((await t.api.put(`/users/${f.admin.userId}/lgpd-consent`, { accepted: true }, f.admin)).status).toBe(200);
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: "Admin Dois", email, password: PASSWORD, profile: "admin" });
  admin2 = await t.api.login(email);
  api = await FakeBotApi.start();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await api?.close();
});

async function poll<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeout = 15_000): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
async function shot(page: Page, name: string) {
  await settled(page);
  await screenshot(page, name);
}
const waitCount = (loc: Locator, n: number, timeout?: number) => poll(() => loc.count(), (c) => c === n, `${loc} ×${n}`, timeout);
const waitText = (loc: Locator, s: string, timeout?: number) =>
  poll(() => loc.first().innerText({ timeout: 1000 }).catch(() => ""), (v) => v.includes(s), `${loc} to contain "${s}"`, timeout);
const waitAttr = (loc: Locator, name: string, value: string, timeout?: number) =>
  poll(() => loc.first().getAttribute(name, { timeout: 1000 }).catch(() => null), (v) => v === value, `${loc} [${name}=${value}]`, timeout);
const drawer = (page: Page) => page.locator(".ant-drawer-body").last();
const row = (page: Page, text: string) => page.locator(".ant-table-tbody tr.ant-table-row", { hasText: text });
/** This screen's errors: refused calls are logged by Chromium as "Failed to load resource". */
const screenErrors = (page: P) => page.errors.filter((e) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(e));

test("an admin connects Telegram through the plugin's form; a customer's message arrives live in /atendimento and the reply reaches the chat", async () => {
  const bot = api.addBot({ username: "loja_aurora_bot" });
  const page = (await newPage(browser)) as P;
  try {
    await sessionLogin(page, t.url, f.emails.admin, "/configuracoes/canais");
    await page.waitForSelector('[data-testid="channels-page"]', { timeout: 15_000 });
    await page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 15_000 });

    // New → Telegram: the plugin's own form, loaded from its remote.
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/api/connections")) posts.push(r.url());
    });
    await page.click('[data-testid="channel-new"]');
    await page.click('[data-testid="channel-type-channel-telegram"]');
    const d = drawer(page);
    const form = d.locator('[data-testid="telegram-connect-form"]');
    await form.waitFor({ timeout: 15_000 });
    await d.locator('[data-testid="channel-name"]').fill("Telegram da loja");
    await shot(page, "telegram-form-empty");

    // The form's own rules stop a save without a token, and a malformed one, before any request.
    await page.click('[data-testid="channel-save"]');
    await waitText(form, "Informe o token do bot");
    await d.locator('[data-testid="telegram-token"]').fill("12345:curto");
    await waitText(form, "Token inválido");
    expect(await d.locator('[data-testid="telegram-test"]').isDisabled()).toBe(true);
    await shot(page, "telegram-form-invalid");
    expect(posts).toHaveLength(0);

    // The token, polling (the default), and the Bot API server of this test.
    await d.locator('[data-testid="telegram-token"]').fill(bot.token);
    expect(await d.locator('[data-testid="telegram-mode"] input[value="polling"]').isChecked()).toBe(true);
    await d.locator('[data-testid="telegram-advanced"] .ant-collapse-header').click();
    await d.locator('input[name="apiRoot"]').fill(api.url);
    await d.locator('[data-testid="telegram-test"]').click();
    await waitText(d.locator('[data-testid="telegram-test-result"]'), "@loja_aurora_bot");
    await d.locator('[data-testid="telegram-test-result"]').scrollIntoViewIfNeeded();
    await shot(page, "telegram-form-tested");
    await d.locator('input[name="apiRoot"]').scrollIntoViewIfNeeded();
    await shot(page, "telegram-form-advanced");
    // Webhook on a connection not saved yet: what the form says about it.
    await d.locator('[data-testid="telegram-mode"] input[value="webhook"]').check();
    await waitText(d.locator('[data-testid="telegram-webhook-after-save"]'), "criado ao salvar");
    // With Telegram's own servers (no Bot API server given) over plain http, the form warns.
    expect(await d.locator('[data-testid="telegram-webhook-https"]').count()).toBe(0);
    await d.locator('input[name="apiRoot"]').fill("");
    await waitText(d.locator('[data-testid="telegram-webhook-https"]'), "HTTPS");
    await d.locator('input[name="apiRoot"]').scrollIntoViewIfNeeded();
    await shot(page, "telegram-form-webhook-new");
    await d.locator('input[name="apiRoot"]').fill(api.url);
    await d.locator('[data-testid="telegram-mode"] input[value="polling"]').check();
    expect(await d.locator('[data-testid="telegram-webhook-info"]').count()).toBe(0);
    await page.click('[data-testid="channel-save"]');
    await waitCount(page.locator(".ant-drawer-body"), 0, 10_000);
    await waitCount(row(page, "Telegram da loja"), 1);
    expect(posts).toHaveLength(1);

    const conn = ((await t.api.get("/connections", admin2)).body as Array<{ id: number; name: string }>).find((c) => c.name === "Telegram da loja")!;
    const full = (await t.api.get(`/connections/${conn.id}`, admin2)).body;
    expect(full).toMatchObject({ type: "channel-telegram", status: "disconnected", pluginMajor: 1, settings: { token: "********", mode: "polling", apiRoot: api.url } });

    // Connect: the bot answers, polling starts, the row shows it connected.
    await page.click(`[data-testid="channel-connect-${conn.id}"]`);
    await waitAttr(page.locator(`[data-testid="channel-status-${conn.id}"]`), "data-status", "connected");
    await waitText(page.locator(`[data-testid="channel-status-${conn.id}"]`), "Conectado");
    await poll(async () => api.getUpdatesLog(bot.token).length, (n) => n > 0, "getUpdates polled");
    await shot(page, "telegram-connected");
    // Editing: the saved token is kept (masked), the other settings shown.
    await page.click(`[data-testid="channel-edit-${conn.id}"]`);
    const e = drawer(page);
    await e.locator('[data-testid="telegram-connect-form"]').waitFor({ timeout: 15_000 });
    await e.locator('[data-testid="telegram-connect-form"]').scrollIntoViewIfNeeded();
    await shot(page, "telegram-form-edit");
    await e.locator('[data-testid="telegram-mode"] input[value="webhook"]').check();
    await waitText(e.locator('[data-testid="telegram-webhook-url"]'), `/api/telegram/${full.token}/webhook`);
    await e.locator('[data-testid="telegram-connect-form"]').scrollIntoViewIfNeeded();
    await shot(page, "telegram-form-edit-webhook");
    await page.locator(".ant-drawer-close").click();
    await waitCount(page.locator(".ant-drawer-body"), 0);

    // /atendimento, live: a customer writes to the bot.
    await page.evaluate(() => (window.location.hash = "#/atendimento"));
    await page.waitForSelector("[data-testid=ticket-list-empty]", { timeout: 15_000 });
    await page.waitForFunction(() => (window as any).__openatende?.realtime.status === "connected", null, { timeout: 20_000 });
    await page.waitForTimeout(400);
    await page.evaluate(() => ((window as any).__noReload = true));
    const chat = { id: 700000000 + Math.floor(Math.random() * 9999999), first_name: "Joana", last_name: "Pereira" };
    const question = `Olá! Meu pedido 4821 já saiu? ${uid()}`;
    api.pushUpdate(bot.token, { message: FakeBotApi.message(chat, { text: question }, 1) });

    const ticketRow = page.locator("[data-testid=ticket-row]").filter({ hasText: question });
    await ticketRow.waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);
    await waitText(ticketRow, "Joana Pereira");
    expect(await ticketRow.getAttribute("data-status")).toBe("pending");
    const ticketId = Number(await ticketRow.getAttribute("data-ticket-id"));
    await shot(page, "telegram-atendimento-live");

    await ticketRow.click();
    await page.waitForSelector(`[data-testid=chat-pane][data-ticket-id="${ticketId}"]`);
    await page.locator("[data-testid=message-body]").filter({ hasText: question }).waitFor();
    await page.click("[data-testid=action-accept]");
    await page.waitForFunction(() => document.querySelector("[data-testid=chat-status]")?.textContent === "Com você");

    // The reply from the composer reaches the customer's chat through sendMessage.
    const reply = "Oi, Joana! Saiu hoje cedo e chega amanhã.";
    await page.fill("[data-testid=composer-input]", reply);
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      (text) => [...document.querySelectorAll("[data-testid=message][data-from-me='1']")].some((m) => m.textContent?.includes(text) && Number(m.getAttribute("data-message-id")) > 0 && !m.querySelector(".oa-tick.is-pending")),
      reply,
      { timeout: 15_000 },
    );
    expect(await page.locator("[data-testid=message-failed]").count()).toBe(0);
    const sent = await poll(async () => api.sends(bot.token, { method: "sendMessage", chatId: chat.id }), (s) => s.length > 0, "sendMessage to the customer's chat");
    expect(sent).toHaveLength(1);
    expect({ chatId: String(sent[0].params.chat_id), text: sent[0].params.text }).toEqual({ chatId: String(chat.id), text: reply });
    expect(api.sends(bot.token).filter((c) => String(c.params.chat_id) !== String(chat.id))).toEqual([]);
    await shot(page, "telegram-atendimento-reply");

    const messages = (await t.api.get(`/messages/${ticketId}`, admin2)).body.messages as Array<{ fromMe: boolean; body: string; status: string; providerId: string }>;
    expect(messages.map((m) => [m.fromMe, m.body])).toEqual([
      [false, question],
      [true, reply],
    ]);
    expect(messages[1].status).toBe("sent");

    // The platform level takes Telegram away from the tenant: the connection shows inactive
    // with the reason, live; after a reload its type is no longer offered.
    const sup = await createSuper(t);
    await page.evaluate(() => (window.location.hash = "#/configuracoes/canais"));
    await page.waitForSelector(`[data-testid="channel-status-${conn.id}"][data-status="connected"]`, { timeout: 15_000 });
    expect((await t.api.put(`/plugins/channel-telegram/tenants/${f.tenantId}`, { allowed: false }, sup)).status).toBe(200);
    await waitAttr(page.locator(`[data-testid="channel-status-${conn.id}"]`), "data-status", "inactive");
    await waitText(page.locator(`[data-testid="channel-inactive-reason-${conn.id}"]`), "Módulo não liberado");
    await page.reload();
    await page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 15_000 });
    await waitText(row(page, "Telegram da loja"), "módulo desativado");
    await waitText(page.locator(`[data-testid="channel-status-${conn.id}"]`), "Inativo");
    expect(await page.locator(`[data-testid="channel-connect-${conn.id}"]`).isDisabled()).toBe(true);
    await shot(page, "telegram-channel-not-allowed");
    await page.click('[data-testid="channel-new"]');
    await page.waitForSelector('[data-testid="channel-type-chooser"]');
    await waitCount(page.locator('[data-testid="channel-type-channel-webchat"]'), 1);
    expect(await page.locator('[data-testid="channel-type-channel-telegram"]').count()).toBe(0);
    await page.locator(".ant-drawer-close").click();
    await waitCount(page.locator(".ant-drawer-body"), 0);
    const polls = api.getUpdatesLog(bot.token).length;
    await page.waitForTimeout(1500);
    expect(api.getUpdatesLog(bot.token).length).toBeLessThanOrEqual(polls + 1);

    // Allowed again (the default policy: bundled and FREE): back to connected, polling again.
    expect((await t.api.put(`/plugins/channel-telegram/tenants/${f.tenantId}`, { allowed: null }, sup)).status).toBe(200);
    await waitAttr(page.locator(`[data-testid="channel-status-${conn.id}"]`), "data-status", "connected");
    expect(await page.locator(`[data-testid="channel-inactive-reason-${conn.id}"]`).count()).toBe(0);
    expect(screenErrors(page)).toEqual([]);
  } catch (e) {
    await screenshot(page, "telegram-failure").catch(() => undefined);
    throw e;
  } finally {
    await page.context().close();
  }
});
