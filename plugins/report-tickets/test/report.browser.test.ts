/**
 * The reports in the built shell, in Debian's Chromium, against a real core with the plugin: the
 * admin opens /relatorios, finds the tickets report among the reports, opens it and sees this
 * month's tickets with their summary cards (figures by hand: 3 tickets, 1 closed, 1 in service,
 * 1 pending), searches a contact by name, opens the conversation, and the page had no errors.
 */
import type { Browser } from "playwright-core";
import { createSuper, createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { ok, seedOf } from "./kit";
import { launchBrowser, newPage, screenErrors, sessionLogin, shot, waitText } from "./support/browser";

jest.setTimeout(240_000);

let t: TestCore;
let f: TenantFixture;
let browser: Browser;

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `report-ui-${uid()}` } });
  f = await createTenant(t, { tier: "BASIC" });
  await ok(t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin));
  await ok(t.api.put(`/users/${f.admin.userId}/lgpd-consent`, { accepted: true }, f.admin));
  const s = await seedOf(t, f);
  await s.ticket(await s.contact("Mariana Costa", "5511911110001"), { queueId: f.queueIds[0], status: "closed" });
  await s.ticket(await s.contact("Сергей Петров", "5511911110002"), { queueId: f.queueIds[0], status: "open" });
  await s.ticket(await s.contact("Paulo Reis", "5511911110003"), { queueId: f.queueIds[1], status: "pending" });
  const sup = await createSuper(t);
  await ok(t.api.put(`/plugins/report-tickets/tenants/${f.tenantId}`, { allowed: true }, sup));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

it("goes from /relatorios to the tickets report, reads its cards, searches and opens a conversation", async () => {
  const page = await newPage(browser);
  await sessionLogin(page, t.url, f.emails.admin, "/relatorios");
  await page.locator('[data-testid="reports-menu"]').waitFor({ timeout: 30_000 });
  await waitText(page.locator('[data-testid="report-link-relatorio-tickets"]'), "Relatório de tickets");
  await shot(page, "reports-menu");
  await page.locator('[data-testid="report-link-relatorio-tickets"]').click();
  await page.locator('[data-testid="tickets-report"]').waitFor({ timeout: 30_000 });

  await waitText(page.locator('[data-testid="card-total"]'), "3", 30_000);
  await waitText(page.locator('[data-testid="card-open"]'), "1");
  await waitText(page.locator('[data-testid="card-pending"]'), "1");
  await waitText(page.locator('[data-testid="card-inProgress"]'), "2");
  await waitText(page.locator('[data-testid="card-resolutionRate"]'), "33,33%");
  await waitText(page.locator('[data-testid="card-onTime"]'), "1");
  await waitText(page.locator(".ant-table-tbody"), "Сергей Петров");
  await shot(page, "relatorio-tickets");

  await page.locator('[data-testid="report-search"] input, input[data-testid="report-search"]').first().fill("Mariana");
  await page.locator('[data-testid="report-apply"]').click();
  await waitText(page.locator('[data-testid="card-total"]'), "1");
  const body = page.locator(".ant-table-tbody");
  await waitText(body, "Mariana Costa");
  expect(await body.innerText()).not.toContain("Paulo Reis");

  await page.locator('[data-testid^="chat-"]').first().click();
  await page.locator(".ant-modal").waitFor({ timeout: 10_000 });
  await waitText(page.locator(".ant-modal-title"), "Mariana Costa");
  await shot(page, "relatorio-tickets-chat");
  expect(screenErrors(page)).toEqual([]);
});
