/**
 * The NPS survey (plugins/module-nps) in Chromium against a real core on a TestClock (its
 * scheduler ticked by hand): an admin opens Settings › NPS (/configuracoes/nps), sees the
 * defaults (off, scale 10), turns the survey on with a scale of 5 (the groups follow the
 * scale), is told a message cannot be left blank, and saves. Two customers are then surveyed
 * on the web chat after an agent's close and answer 5 and 2; the /home NPS block shows the
 * score (one promoter, one detractor: 0), by queue and by user.
 */
import type { Browser, Page } from "playwright-core";
import { acceptTerms, launchBrowser, newPage, poll, screenErrors, sessionLogin, shot, waitText } from "./browser";
import { Customer, npsCore, shop, surveyed, TestClock, type Shop, type TestCore } from "../../plugins/module-nps/test/kit";

jest.setTimeout(240_000);

const clock = new TestClock();
let t: TestCore;
let a: Shop;
let browser: Browser;

beforeAll(async () => {
  t = await npsCore(clock);
  a = await shop(t, null);
  await acceptTerms(t, a);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const field = (page: Page, id: string) => page.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();

test("an admin turns the NPS survey on at /configuracoes/nps; the /home block shows the answers by queue and by user", async () => {
  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, a.emails.admin, "/configuracoes/nps");
    await page.locator('[data-testid="nps-settings-page"][aria-busy="false"]').waitFor({ timeout: 30_000 });
    await waitText(page.locator('[data-testid="settings-tab-nps"]'), "NPS");
    expect(await page.locator('[data-testid="nps-enabled"]').getAttribute("aria-checked")).toBe("false");
    expect(await field(page, "nps-scale").inputValue()).toBe("10");
    await waitText(page.locator(".ant-form-item-extra").first(), "promotores 9–10, neutros 7–8, detratores 0–6");
    await shot(page, "nps-settings-defaults");

    await page.locator('[data-testid="nps-enabled"]').click();
    await field(page, "nps-scale").fill("5");
    await waitText(page.locator(".ant-form-item-extra").first(), "promotores 5, neutros 4, detratores 0–3");
    await field(page, "nps-timeout").fill("30");
    await page.locator('[data-testid="nps-requestMessage"]').fill("");
    await page.locator('[data-testid="nps-save"]').click();
    await waitText(page.locator(".ant-form-item-explain-error"), "Preencha este campo");
    await page.locator('[data-testid="nps-requestMessage"]').fill("{{name}}, de 0 a {{max}}, qual a nota do nosso atendimento?");
    await shot(page, "nps-settings-form");
    const saved = page.waitForResponse((r) => r.url().endsWith("/api/nps/settings") && r.request().method() === "PUT");
    await page.locator('[data-testid="nps-save"]').click();
    expect((await saved).status()).toBe(200);
    expect((await (await saved).json()) as Record<string, unknown>).toMatchObject({ enabled: true, scale: 5, timeoutMinutes: 30, requestMessage: "{{name}}, de 0 a {{max}}, qual a nota do nosso atendimento?" });

    // Two customers served by the agent and surveyed after the close: a 5 and a 2.
    for (const [name, reply] of [["Marina Alves", "5"], ["Paulo Reis", "2"]]) {
      const c = new Customer(t, a, name);
      await surveyed(t, clock, a, c, reply);
      expect((await c.received())[1]).toBe(`${name.split(" ")[0]}, de 0 a 5, qual a nota do nosso atendimento?`);
    }

    await page.goto(`${t.url}/#/home`);
    const block = page.locator('[data-testid="dashboard-block-module-nps-nps"]');
    await block.waitFor({ timeout: 30_000 });
    await poll(() => block.locator('[data-testid="nps-answered"]').innerText().catch(() => ""), (s) => s.includes("2"), "two answers");
    await waitText(block.locator('[data-testid="nps-score"]'), "0");
    await waitText(block.locator('[data-testid="nps-promoters"]'), "1");
    await waitText(block.locator('[data-testid="nps-detractors"]'), "1");
    const queueRow = block.locator('[data-testid="nps-by-queue"] .ant-table-row');
    await waitText(queueRow.first(), "Suporte");
    expect((await queueRow.first().innerText()).replace(/\s+/g, " ")).toBe("Suporte 0 1 0 1 2");
    await waitText(block.locator('[data-testid="nps-by-user"] .ant-table-row').first(), "Agent");
    await block.scrollIntoViewIfNeeded();
    await shot(page, "nps-home-block");

    // Today's answers are all of them; the period switch asks again.
    await block.locator('[data-testid="nps-period"] .ant-segmented-item').filter({ hasText: "Hoje" }).click();
    await waitText(block.locator('[data-testid="nps-answered"]'), "2");
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.context().close();
  }
});
