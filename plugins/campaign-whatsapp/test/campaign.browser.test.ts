/**
 * The normal campaign journey in the built shell, in Debian's Chromium, against a real core with
 * the plugin and the campaign test channel (which acks every send delivered then read): an
 * admin creates a campaign for a tag's contacts on /campanhas, lands on /campanhas/{id},
 * schedules it, watches the live counts move (CAMPAIGN_PROGRESS_EVENT), pauses it — nothing more
 * is handed to the channel —, resumes it and sees it finish with every message read. A FREE
 * tenant opening /campanhas gets the tier notice naming BASIC.
 */
import type { Browser } from "playwright-core";
import { createTenant, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
// The DOM-free browser helpers of the reports' tests (the shell's need the DOM library, which this package's type-check has not).
import { launchBrowser, newPage, poll, screenErrors, sessionLogin, shot, waitText } from "../../report-tickets/test/support/browser";
import { allow, CHANNEL_SERVICE, connection, createSuper, routesReady, startCampaignCore, visitor } from "./setup";

jest.setTimeout(300_000);

const CONTACTS = 6;
let t: TestCore;
let a: TenantFixture;
let free: TenantFixture;
let api: Auth;
let tagName: string;
let connName: string;
let browser: Browser;

beforeAll(async () => {
  t = await startCampaignCore();
  const sup = await createSuper(t);
  [a, free] = await Promise.all([createTenant(t, { tier: "BASIC" }), createTenant(t)]);
  await allow(t, sup, a.tenantId);
  for (const f of [a, free]) {
    expect((await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin)).status).toBe(200);
    expect((await t.api.put(`/users/${f.admin.userId}/lgpd-consent`, { accepted: true }, f.admin)).status).toBe(200);
  }
  await routesReady(t, a.admin);
  const conn = await connection(t, a, "Loja");
  connName = `Loja ${a.tenantId}`;
  tagName = `Clientes ${uid()}`;
  const tagId = (await t.api.post("/tags", { name: tagName }, a.admin)).body.id as number;
  for (let i = 0; i < CONTACTS; i++) {
    const contactId = await visitor(t, a.tenantId, conn, `${uid()}-${i}`);
    expect((await t.api.put(`/contacts/${contactId}/tags`, { tagIds: [tagId] }, a.admin)).status).toBe(200);
  }
  // Each hand-over takes a moment, so the counts move while the test watches.
  await t.core.broker.call(`${CHANNEL_SERVICE}.slow`, { ms: 300 });
  // The browser's login ends the admin's API session: the supervisor reads through the API.
  api = a.supervisor;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const handedCount = async () => ((await t.core.broker.call(`${CHANNEL_SERVICE}.handed`, { tenantId: a.tenantId })) as Array<{ body: string }>).filter((h) => h.body.startsWith("Promoção")).length;
const count = (page: import("playwright-core").Page, k: string) => page.locator(`[data-testid="campaign-count-${k}"] .ant-statistic-content-value`).innerText();

/** `<input type="datetime-local">` value of the current minute (the browser and the test share the machine's time zone). */
function thisMinute(): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

it("creates a campaign from a tag, schedules it, sees the counts move live, pauses and resumes it until it finishes", async () => {
  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, a.emails.admin, "/campanhas");
    await page.locator('[data-testid="campaigns-page"]').waitFor({ timeout: 30_000 });
    await waitText(page.locator("[data-testid=main-menu]"), "Campanhas");
    await page.locator('[data-testid="campaign-new"]').click();
    await page.locator('[data-testid="campaign-name"]').waitFor();

    // Saving empty shows the field errors under the fields, in Portuguese.
    await page.locator('[data-testid="campaign-name"]').fill("");
    await page.locator('[data-testid="campaign-save"]').click();
    await waitText(page.locator('[data-testid="campaign-error-name"]'), "Campo obrigatório");
    await waitText(page.locator('[data-testid="campaign-error-connectionIds"]'), "Escolha ao menos uma conexão");
    await waitText(page.locator('[data-testid="campaign-error-messages.0"]'), "Escreva a mensagem ou anexe um arquivo");

    await page.locator('[data-testid="campaign-name"]').fill("Promoção de Natal");
    // Not at the very end of a minute: the start is this minute when it is saved and scheduled.
    if (new Date().getSeconds() > 50) await page.waitForTimeout((61 - new Date().getSeconds()) * 1000);
    await page.locator('[data-testid="campaign-start"]').fill(thisMinute());
    await page.locator('[data-testid="campaign-min-interval"] input, input[data-testid="campaign-min-interval"]').first().fill("3");
    await page.locator('[data-testid="campaign-max-interval"] input, input[data-testid="campaign-max-interval"]').first().fill("3");
    await page.locator('[data-testid="campaign-connections"]').first().click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: connName }).click();
    await page.keyboard.press("Escape");
    await page.locator('[data-testid="campaign-message-0"]').fill("Promoção para você, {{firstName}}!");
    await page.locator('[data-testid="campaign-message-add"]').click();
    await page.locator('[data-testid="campaign-message-1"]').fill("Promoção: só hoje, {{name}}!");
    await waitText(page.locator('[data-testid="campaign-placeholders-hint"]'), "{{firstName}}");
    await page.locator('[data-testid="campaign-tags"]').first().click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: tagName }).click();
    await page.keyboard.press("Escape");
    await shot(page, "campanhas-form");
    await page.locator('[data-testid="campaign-save"]').click();

    // Saved with the tag's contacts: the detail page of the new campaign.
    await page.locator('[data-testid="campaign-detail"]').waitFor({ timeout: 30_000 });
    const id = Number(/#\/campanhas\/(\d+)$/.exec(page.url())?.[1]);
    expect(id).toBeGreaterThan(0);
    await waitText(page.locator('[data-testid="campaign-detail-status"]'), "Pendente");
    await waitText(page.locator('[data-testid="campaign-count-toSend"]'), String(CONTACTS));
    await waitText(page.locator('[data-testid="campaign-contacts-table"]'), "Visitante");

    await page.locator(`[data-testid="campaign-schedule-${id}"]`).click();
    await page.locator('.ant-popover:visible [data-testid="campaign-confirm-ok"]').click();
    // Live: the counts move without a reload, the bar with them.
    await poll(() => count(page, "read"), (v) => Number(v) >= 1, "a first read ack on the screen", 60_000);
    await shot(page, "campanhas-detail-sending");

    await page.locator(`[data-testid="campaign-pause-${id}"]`).click();
    await page.locator('.ant-popover:visible [data-testid="campaign-confirm-ok"]').click();
    await waitText(page.locator('[data-testid="campaign-detail-status"]'), "Pausada");
    const paused = await t.api.get(`/campanhas/item?id=${id}`, api);
    expect(paused.body.status).toBe("paused");
    // Paused for real: what the channel got stays put while the screen shows the rest to send (the send under way when it was paused may finish).
    const atPause = await handedCount();
    expect(atPause).toBeLessThan(CONTACTS);
    await page.waitForTimeout(2500);
    expect(await handedCount()).toBeLessThanOrEqual(atPause + 1);
    expect(Number(await count(page, "toSend"))).toBeGreaterThan(0);
    await shot(page, "campanhas-detail-paused");

    await page.locator(`[data-testid="campaign-resume-${id}"]`).click();
    await page.locator('.ant-popover:visible [data-testid="campaign-confirm-ok"]').click();
    await waitText(page.locator('[data-testid="campaign-detail-status"]'), "Finalizada", 90_000);
    await poll(() => count(page, "read"), (v) => v === String(CONTACTS), "every message read on the screen", 30_000);
    expect(await count(page, "toSend")).toBe("0");
    expect(await count(page, "failed")).toBe("0");
    // The full bar turns into antd's success state (its tick instead of "100%").
    await poll(() => page.locator('.ant-progress-status-success[data-testid="campaign-progress"], [data-testid="campaign-progress"] .ant-progress-status-success').count(), (n) => n > 0, "the bar full", 10_000);
    await poll(() => page.locator('[data-testid="campaign-contacts-table"] .ant-tag').allInnerTexts(), (tags) => tags.length === CONTACTS && tags.every((x) => x === "Lida"), "every contact read in the list", 15_000);
    expect(await handedCount()).toBe(CONTACTS);
    await shot(page, "campanhas-detail-finished");

    // The list shows it finished; the status filter keeps it.
    await page.locator('[data-testid="campaign-back"]').click();
    await waitText(page.locator(`[data-testid="campaign-status-${id}"]`), "Finalizada");
    await shot(page, "campanhas-list");
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.context().close();
  }
});

it("shows a FREE tenant the notice naming BASIC on /campanhas", async () => {
  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, free.emails.admin, "/home");
    await page.waitForSelector("[data-testid=main-menu]");
    await page.waitForFunction(() => (globalThis as any).__openatende?.plugins.loaded === true, null, { timeout: 20_000 }); // eslint-disable-line @typescript-eslint/no-explicit-any
    await page.evaluate(() => ((globalThis as any).location.hash = "#/campanhas")); // eslint-disable-line @typescript-eslint/no-explicit-any
    await page.waitForSelector(".oa-notice.oa-banner");
    expect(await page.textContent(".oa-notice.oa-banner")).toContain("BASIC");
    await shot(page, "campanhas-free-tier-notice");
    expect(await page.locator('[data-testid="campaigns-page"]').count()).toBe(0);
  } finally {
    await page.context().close();
  }
});
