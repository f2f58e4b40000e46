/**
 * The SMS campaign screens in the built shell, in Debian's Chromium, against a real core with
 * the SMS channel and the local Comtele: an admin opens /campanhasms, writes the text and sees
 * its characters and SMS parts counted as it grows (a third part past 306 GSM-7 characters, a
 * UCS-2 text counted 70/67 per part), chooses the SMS connection and a tag, saves, and lands on
 * /campanhasms/{id} with the tag's contacts; scheduling with credits for only 2 of them asks
 * whether to continue with the first 2, and yes schedules exactly those. A BASIC tenant opening /campanhasms gets the tier
 * notice naming PREMIUM.
 */
import type { Browser, Page } from "playwright-core";
import { createTenant, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { launchBrowser, newPage, screenErrors, sessionLogin, shot, waitText } from "../../report-tickets/test/support/browser";
import { FakeComtele } from "../../channel-sms/test/fake-comtele";
import { connectSms } from "../../channel-sms/test/helpers";
import { allow, contact, createSuper, mobile, ROUTE, startSmsCampaignCore, waitFor } from "./setup";

jest.setTimeout(300_000);

let api: FakeComtele;
let t: TestCore;
let a: TenantFixture;
let basic: TenantFixture;
let tagName: string;
let connName: string;
let browser: Browser;
let account: ReturnType<FakeComtele["addAccount"]>;

beforeAll(async () => {
  api = await FakeComtele.start();
  t = await startSmsCampaignCore();
  const sup = await createSuper(t);
  [a, basic] = await Promise.all([createTenant(t, { tier: "PREMIUM" }), createTenant(t, { tier: "BASIC" })]);
  for (const f of [a, basic]) {
    await allow(t, sup, f.tenantId);
    expect((await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin)).status).toBe(200);
    expect((await t.api.put(`/users/${f.admin.userId}/lgpd-consent`, { accepted: true }, f.admin)).status).toBe(200);
  }
  await waitFor(`the ${ROUTE} routes`, () => t.api.get(ROUTE, a.admin), (r) => r.status !== 404);
  connName = `SMS Loja ${uid()}`;
  account = api.addAccount({ credits: 100 });
  await connectSms(t, a, api, account, connName);
  tagName = `Clientes SMS ${uid()}`;
  const tagId = (await t.api.post("/tags", { name: tagName }, a.admin)).body.id as number;
  for (let i = 0; i < 3; i++) {
    const id = await contact(t, a, `Cliente SMS ${i} ${uid()}`, mobile());
    expect((await t.api.put(`/contacts/${id}/tags`, { tagIds: [tagId] }, a.admin)).status).toBe(200);
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await api?.close();
});

const counter = (page: Page) => page.locator('[data-testid="campaign-sms-counter"]');

it("writes an SMS text with its parts counted, chooses the SMS connection and a tag, and saves the campaign", async () => {
  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, a.emails.admin, ROUTE);
    await page.locator('[data-testid="campaigns-page"]').waitFor({ timeout: 30_000 });
    await waitText(page.locator("[data-testid=main-menu]"), "Campanhas SMS");
    await page.locator('[data-testid="campaign-new"]').click();
    await page.locator('[data-testid="campaign-name"]').waitFor();

    await page.locator('[data-testid="campaign-save"]').click();
    await waitText(page.locator('[data-testid="campaign-error-text"]'), "Escreva o texto do SMS");

    const text = page.locator('[data-testid="campaign-sms-text"]');
    await text.fill("Oi {{firstName}}, 20% off hoje!");
    await waitText(counter(page), "31 caracteres · 1 parte(s) de SMS · 160 por parte");
    await text.fill("a".repeat(307));
    await waitText(counter(page), "307 caracteres · 3 parte(s) de SMS · 153 por parte");
    await text.fill("Promoção");
    await waitText(counter(page), "8 caracteres · 1 parte(s) de SMS · 70 por parte");
    await text.fill("Oi {{firstName}}, hoje tem 20% off na loja!");

    await page.locator('[data-testid="campaign-name"]').fill("Liquidação SMS");
    await page.locator('[data-testid="campaign-connections"]').first().click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: connName }).click();
    await page.keyboard.press("Escape");
    await page.locator('[data-testid="campaign-tags"]').first().click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: tagName }).click();
    await page.keyboard.press("Escape");
    await shot(page, "campanhasms-form");
    await page.locator('[data-testid="campaign-save"]').click();

    await page.locator('[data-testid="campaign-detail"]').waitFor({ timeout: 30_000 });
    const id = Number(/#\/campanhasms\/(\d+)$/.exec(page.url())?.[1]);
    expect(id).toBeGreaterThan(0);
    await waitText(page.locator('[data-testid="campaign-detail-status"]'), "Pendente");
    await waitText(page.locator('[data-testid="campaign-count-toSend"]'), "3");
    await shot(page, "campanhasms-detail");
    const saved = await t.api.get(`${ROUTE}/item?id=${id}`, a.supervisor);
    expect(saved.body).toMatchObject({ name: "Liquidação SMS", content: { text: "Oi {{firstName}}, hoje tem 20% off na loja!" }, counts: { contacts: 3 } });

    // Credits for 2 of the 3: scheduling asks whether to continue with the first 2, and yes keeps those.
    account.credits = 2;
    await page.locator(`[data-testid="campaign-schedule-${id}"]`).click();
    await page.locator('.ant-popover:visible [data-testid="campaign-confirm-ok"]').click();
    await waitText(page.locator('[data-testid="sms-credits-confirm"]'), "Há 2 crédito(s) e a campanha precisa de 3. Continuar só com os primeiros 2 contato(s)?");
    await shot(page, "campanhasms-credits-confirm");
    await page.locator('[data-testid="sms-credits-continue"]').click();
    const scheduled = await waitFor("the campaign scheduled with 2 contacts", async () => (await t.api.get(`${ROUTE}/item?id=${id}`, a.supervisor)).body, (c) => c.status !== "pending");
    expect(scheduled.counts.contacts).toBe(2);
    expect(scheduled.status).toBe("scheduled");
    // The form's start is a few minutes ahead: scheduled, with the third contact gone from the screen too.
    await waitText(page.locator('[data-testid="campaign-detail-status"]'), "Agendada");
    await waitText(page.locator('[data-testid="campaign-count-toSend"]'), "2");
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.context().close();
  }
});

it("shows a BASIC tenant the notice naming PREMIUM on /campanhasms", async () => {
  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, basic.emails.admin, "/home");
    await page.waitForSelector("[data-testid=main-menu]");
    await page.waitForFunction(() => (globalThis as any).__openatende?.plugins.loaded === true, null, { timeout: 20_000 }); // eslint-disable-line @typescript-eslint/no-explicit-any
    await page.evaluate(() => ((globalThis as any).location.hash = "#/campanhasms")); // eslint-disable-line @typescript-eslint/no-explicit-any
    await page.waitForSelector(".oa-notice.oa-banner");
    expect(await page.textContent(".oa-notice.oa-banner")).toContain("PREMIUM");
    await shot(page, "campanhasms-basic-tier-notice");
    expect(await page.locator('[data-testid="campaigns-page"]').count()).toBe(0);
  } finally {
    await page.context().close();
  }
});
