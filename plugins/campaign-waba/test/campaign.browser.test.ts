/**
 * The WABA campaign journey in the built shell, in Debian's Chromium, against a real core with
 * the plugin and the official-API test channel: an admin creates a campaign on /campanhaswaba,
 * picks the approved template of the chosen connection (the pending one cannot be picked), fills
 * its variables with contact fields and literals while the preview follows, links a tag's
 * contacts, schedules it and sees it finish with every message read — each contact got the
 * template with their own first name and name. A template with buttons asks for the URL's
 * suffix and the coupon code (the server's refusal of a missing one shown at its input) and an
 * optional quick-reply payload, and the preview shows them filled. A BASIC tenant opening
 * /campanhaswaba gets the tier notice naming PREMIUM.
 */
import type { Browser, Page } from "playwright-core";
import { createTenant, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
// The DOM-free browser helpers of the reports' tests.
import { launchBrowser, newPage, poll, screenErrors, sessionLogin, shot, waitText } from "../../report-tickets/test/support/browser";
import type { ProviderSend } from "./fixtures/channel-waba-campaign-fixture/src/service";
import { allow, CHANNEL_SERVICE, connection, createSuper, routesReady, startWabaCore, templatesOn, visitor } from "./setup";
import { BUTTONS, PENDING, PROMO } from "./templates";

jest.setTimeout(300_000);

const CONTACTS = 3;
let t: TestCore;
let a: TenantFixture;
let basic: TenantFixture;
let connName: string;
let tagName: string;
let browser: Browser;
const names: string[] = [];

beforeAll(async () => {
  t = await startWabaCore();
  const sup = await createSuper(t);
  [a, basic] = await Promise.all([createTenant(t, { tier: "PREMIUM" }), createTenant(t, { tier: "BASIC" })]);
  await allow(t, sup, a.tenantId);
  for (const f of [a, basic]) {
    expect((await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin)).status).toBe(200);
    expect((await t.api.put(`/users/${f.admin.userId}/lgpd-consent`, { accepted: true }, f.admin)).status).toBe(200);
  }
  await routesReady(t, a.admin);
  const conn = await connection(t, a, "Oficial");
  connName = `Oficial ${a.tenantId}`;
  await templatesOn(t, a.tenantId, conn, [PENDING, PROMO, BUTTONS]);
  tagName = `Clientes ${uid()}`;
  const tagId = (await t.api.post("/tags", { name: tagName }, a.admin)).body.id as number;
  const base = Number(String(Date.now()).slice(-6)) * 10;
  for (let i = 0; i < CONTACTS; i++) {
    names.push(`Cliente${i} Lima`);
    const contactId = await visitor(t, a.tenantId, conn, String(base + i), names[i]!);
    expect((await t.api.put(`/contacts/${contactId}/tags`, { tagIds: [tagId] }, a.admin)).status).toBe(200);
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

// The open dropdown's option (one just closed may still be fading out: its motion class ends in "-leave").
const option = (page: Page, text: string) => page.locator('.ant-select-dropdown:visible:not([class*="-leave"]) .ant-select-item-option').filter({ hasText: text });

function thisMinute(): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

it("creates a campaign with an approved template and contact variables, schedules it, and sees it finish", async () => {
  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, a.emails.admin, "/campanhaswaba");
    await page.locator('[data-testid="campaigns-page"]').waitFor({ timeout: 30_000 });
    await waitText(page.locator("[data-testid=main-menu]"), "Campanhas WABA");
    await page.locator('[data-testid="campaign-new"]').click();
    await page.locator('[data-testid="campaign-name"]').fill("Natal WABA");
    await waitText(page.locator('[data-testid="waba-pick-connections"]'), "Escolha as conexões");
    await page.locator('[data-testid="campaign-min-interval"] input, input[data-testid="campaign-min-interval"]').first().fill("0");
    await page.locator('[data-testid="campaign-max-interval"] input, input[data-testid="campaign-max-interval"]').first().fill("0");
    await page.locator('[data-testid="campaign-connections"]').first().click();
    await option(page, connName).click();
    await page.keyboard.press("Escape");

    // The connection's templates: the pending one shown but not pickable, the approved one picked.
    await page.locator('[data-testid="waba-template"]').first().click();
    await poll(() => option(page, "aviso_pendente").getAttribute("aria-disabled"), (v) => v === "true", "the pending template disabled", 15_000);
    await option(page, "promo_natal (pt_BR)").click();
    await waitText(page.locator('[data-testid="waba-states"]'), `${connName}: Aprovado`);
    await waitText(page.locator('[data-testid="waba-preview"]'), "Olá [1], seu cupom [2] vale até [3].");

    // Saving with empty variables points at them.
    await page.locator('[data-testid="campaign-save"]').click();
    await waitText(page.locator('[data-testid="campaign-error-body.1"]'), "Preencha a variável");

    await page.locator('[data-testid="waba-header-0-field"]').first().click();
    await option(page, "Primeiro nome").click();
    await page.locator('[data-testid="waba-body-0-field"]').first().click();
    await option(page, "{{name}}").click();
    await page.locator('[data-testid="waba-body-1"]').fill("NATAL10");
    await page.locator('[data-testid="waba-body-2"]').fill("25/12");
    await waitText(page.locator('[data-testid="waba-preview"]'), "Oferta para {{firstName}}");
    await waitText(page.locator('[data-testid="waba-preview"]'), "Olá {{name}}, seu cupom NATAL10 vale até 25/12.");
    await page.locator('[data-testid="campaign-tags"]').first().click();
    await option(page, tagName).click();
    await page.keyboard.press("Escape");
    // The start is this minute when it is saved and scheduled.
    if (new Date().getSeconds() > 45) await page.waitForTimeout((61 - new Date().getSeconds()) * 1000);
    await page.locator('[data-testid="campaign-start"]').fill(thisMinute());
    await shot(page, "campanhaswaba-form");
    await page.locator('[data-testid="campaign-save"]').click();

    await page.locator('[data-testid="campaign-detail"]').waitFor({ timeout: 30_000 }).catch(async (err) => {
      await shot(page, "campanhaswaba-save-failed");
      throw err;
    });
    const id = Number(/#\/campanhaswaba\/(\d+)$/.exec(page.url())?.[1]);
    expect(id).toBeGreaterThan(0);
    await waitText(page.locator('[data-testid="campaign-detail-status"]'), "Pendente");
    await waitText(page.locator('[data-testid="campaign-count-toSend"]'), String(CONTACTS));
    await page.locator(`[data-testid="campaign-schedule-${id}"]`).click();
    await page.locator('.ant-popover:visible [data-testid="campaign-confirm-ok"]').click();
    await waitText(page.locator('[data-testid="campaign-detail-status"]'), "Finalizada", 90_000);
    await poll(() => page.locator('[data-testid="campaign-count-read"] .ant-statistic-content-value').innerText(), (v) => v === String(CONTACTS), "every message read on the screen", 30_000);
    await shot(page, "campanhaswaba-detail-finished");

    const sends = ((await t.core.broker.call(`${CHANNEL_SERVICE}.sends`, { tenantId: a.tenantId })) as ProviderSend[]).filter((s) => s.kind === "template");
    expect(sends.map((s) => s.template?.components?.body?.[0]).sort()).toEqual([...names].sort());
    expect(sends.every((s) => s.template?.name === "promo_natal" && s.template.components?.header?.text?.[0]?.startsWith("Cliente"))).toBe(true);
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.context().close();
  }
});

it("fills a template's button values — the URL's suffix with a contact field, the coupon code — and refuses a missing one at its input", async () => {
  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, a.emails.admin, "/campanhaswaba");
    await page.locator('[data-testid="campaigns-page"]').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="campaign-new"]').click();
    await page.locator('[data-testid="campaign-name"]').fill("Cupons com botões");
    await page.locator('[data-testid="campaign-connections"]').first().click();
    await option(page, connName).click();
    await page.keyboard.press("Escape");
    await page.locator('[data-testid="waba-template"]').first().click();
    await option(page, "cupom_botoes (pt_BR)").click();
    await waitText(page.locator('[data-testid="waba-preview-buttons"]'), "Meu pedido · https://loja.test/p/[1]");
    await waitText(page.locator('[data-testid="waba-preview-button-3"]'), "Ligar · +5511999990000");
    await page.locator('[data-testid="waba-body-0-field"]').first().click();
    await option(page, "Primeiro nome").click();
    await page.locator('[data-testid="campaign-tags"]').first().click();
    await option(page, tagName).click();
    await page.keyboard.press("Escape");
    await page.locator('[data-testid="campaign-start"]').fill(thisMinute());

    // The URL's suffix left empty: the server's code, shown at the button's input.
    const errorsSaid = () => page.evaluate(() => ((globalThis as any).__openatende?.ui.history ?? []).filter((n: any) => n.kind === "error").length as number);
    const saidBefore = await errorsSaid();
    await page.locator('[data-testid="campaign-save"]').click();
    await waitText(page.locator('[data-testid="campaign-error-buttons.2"]'), "Meu pedido", 15_000);
    await shot(page, "campanhaswaba-botao-obrigatorio");
    // Said once: the form's notice, not the request's too.
    expect((await errorsSaid()) - saidBefore).toBe(1);

    await page.locator('[data-testid="waba-buttons-0"]').fill("quero-natal");
    await page.locator('[data-testid="waba-buttons-2-field"]').first().click();
    await option(page, "{{number}}").click();
    // The field changed: its error from the server goes before the next save.
    await poll(() => page.locator('[data-testid="campaign-error-buttons.2"]').count(), (n) => n === 0, "the button's error gone once it has a value");
    await page.locator('[data-testid="waba-buttons-4"]').fill("NATAL10");
    await waitText(page.locator('[data-testid="waba-preview-button-2"]'), "Meu pedido · https://loja.test/p/{{number}}");
    await waitText(page.locator('[data-testid="waba-preview-button-4"]'), "Copiar cupom · NATAL10");
    await waitText(page.locator('[data-testid="waba-preview-button-0"]'), "Quero · quero-natal");
    await shot(page, "campanhaswaba-botoes");
    await page.locator('[data-testid="campaign-save"]').click();
    await page.locator('[data-testid="campaign-detail"]').waitFor({ timeout: 30_000 });
    const id = Number(/#\/campanhaswaba\/(\d+)$/.exec(page.url())?.[1]);
    expect(screenErrors(page)).toEqual([]);
    // The page's login ended the fixture's session: a new one reads what was saved.
    const saved = await t.api.get(`/campanhaswaba/item?id=${id}`, await t.api.login(a.emails.admin));
    expect(saved.body.content.buttons).toEqual([
      { index: 0, value: "quero-natal" },
      { index: 2, value: "{{number}}" },
      { index: 4, value: "NATAL10" },
    ]);
  } finally {
    await page.context().close();
  }
});

it("shows a BASIC tenant the notice naming PREMIUM on /campanhaswaba", async () => {
  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, basic.emails.admin, "/home");
    await page.waitForSelector("[data-testid=main-menu]");
    await page.waitForFunction(() => (globalThis as any).__openatende?.plugins.loaded === true, null, { timeout: 20_000 }); // eslint-disable-line @typescript-eslint/no-explicit-any
    await page.evaluate(() => ((globalThis as any).location.hash = "#/campanhaswaba")); // eslint-disable-line @typescript-eslint/no-explicit-any
    await page.waitForSelector(".oa-notice.oa-banner");
    expect(await page.textContent(".oa-notice.oa-banner")).toContain("PREMIUM");
    expect(await page.locator('[data-testid="campaigns-page"]').count()).toBe(0);
  } finally {
    await page.context().close();
  }
});
