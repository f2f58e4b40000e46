/**
 * One journey through both report plugins in the built shell, in Debian's Chromium, against a
 * real core: the admin opens /relatorios and finds the per-user statistics and the three contact
 * reports among the reports; on the statistics (this month by default) reads each user's
 * figures by hand, sees the chart, and filters to last month (nothing); on the contact list
 * sees every contact; on the tag and state pages is asked to choose first, then chooses and
 * sees the contacts and their counts. The page had no errors. Browser support is
 * report-tickets' (imported, not copied).
 *
 * This month, by hand: Agent — Mariana's ticket resolved in 30 min, Sergei's in service →
 * pending 0, in service 1, resolved 1, total 2, 30,00 min; Supervisor — Paulo's pending → 1, 0,
 * 0, 1. Contacts: Mariana Costa SP VIP, Paulo Reis SP, Сергей Петров RJ.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Browser, Page } from "playwright-core";
import { createSuper, createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { launchBrowser, newPage, screenErrors, sessionLogin, shot, waitText } from "../../report-tickets/test/support/browser";
import { ok, seedOf } from "../../report-tickets/test/kit";
import { setTickets } from "../../report-users/test/kit";

jest.setTimeout(240_000);

let t: TestCore;
let f: TenantFixture;
let browser: Browser;
const MIN = 60_000;

beforeAll(async () => {
  for (const id of ["report-users", "report-contacts"]) {
    if (!fs.existsSync(path.resolve(__dirname, `../../${id}/dist/ui/remoteEntry.js`))) throw new Error(`${id}'s UI is not built: run \`node scripts/build-ui.cjs\``);
  }
  t = await startCore({ env: { NAMESPACE: `reports-ui-${uid()}` } });
  f = await createTenant(t, { tier: "BASIC" });
  await ok(t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin));
  await ok(t.api.put(`/users/${f.admin.userId}/lgpd-consent`, { accepted: true }, f.admin));
  const vip = (await ok(t.api.post("/tags", { name: "VIP" }, f.admin), 201)).id as number;
  const s = await seedOf(t, f);
  const contact = async (name: string, number: string, extra: Record<string, unknown>) => (await ok(t.api.post("/contacts", { name, number, ...extra }, f.admin), 201)).id as number;
  const mariana = await s.ticket(await contact("Mariana Costa", "5511911120001", { state: "SP", tagIds: [vip] }), { queueId: f.queueIds[0], status: "pending" });
  const sergei = await s.ticket(await contact("Сергей Петров", "5511911120002", { state: "RJ" }), { queueId: f.queueIds[0], status: "pending" });
  const paulo = await s.ticket(await contact("Paulo Reis", "5511911120003", { state: "SP" }), { queueId: f.queueIds[0], status: "pending" });
  const now = Date.now();
  await setTickets(t, [
    { id: mariana, status: "closed", userId: f.agent.userId, queueId: f.queueIds[0], createdAt: now - 60 * MIN, closedAt: now - 30 * MIN },
    { id: sergei, status: "open", userId: f.agent.userId, queueId: f.queueIds[0], createdAt: now - 20 * MIN },
    { id: paulo, status: "pending", userId: f.supervisor.userId, queueId: f.queueIds[0], createdAt: now - 10 * MIN },
  ]);
  const sup = await createSuper(t);
  for (const id of ["report-users", "report-contacts"]) await ok(t.api.put(`/plugins/${id}/tenants/${f.tenantId}`, { allowed: true }, sup));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const menu = async (page: Page, link: string) => {
  await page.goto(`${t.url}/#/relatorios`);
  await page.locator('[data-testid="reports-menu"]').waitFor({ timeout: 30_000 });
  await page.locator(`[data-testid="report-link-${link}"]`).click();
};
const cellsOf = async (page: Page, name: string) => (await page.locator(".ant-table-tbody tr", { hasText: name }).first().locator("td").allInnerTexts()).map((s) => s.trim());

async function choose(page: Page, option: string) {
  await page.locator('[data-testid="contacts-choice"]').click();
  await page.locator(".ant-select-item-option", { hasText: option }).first().click();
  await page.keyboard.press("Escape");
  await page.locator('[data-testid="report-apply"]').click();
}

it("goes from /relatorios through the per-user statistics and the three contact reports", async () => {
  const page = await newPage(browser);
  await sessionLogin(page, t.url, f.emails.admin, "/relatorios");
  await page.locator('[data-testid="reports-menu"]').waitFor({ timeout: 30_000 });
  for (const [link, title] of [
    ["estatisticas-atendimentos-usuarios", "Estatísticas de atendimentos por usuário"],
    ["lista-contatos", "Lista de contatos"],
    ["contatos-por-etiquetas", "Contatos por etiquetas"],
    ["contatos-por-estado", "Contatos por estado"],
  ]) await waitText(page.locator(`[data-testid="report-link-${link}"]`), title, 30_000);
  await shot(page, "reports-menu-all");

  // Per-user statistics, this month.
  await page.locator('[data-testid="report-link-estatisticas-atendimentos-usuarios"]').click();
  await page.locator('[data-testid="users-report"]').waitFor({ timeout: 30_000 });
  await waitText(page.locator(".ant-table-tbody"), "30,00", 30_000);
  expect(await cellsOf(page, "Agent")).toEqual(["Agent", "0", "1", "1", "2", "30,00", "30,00", "30,00"]);
  expect(await cellsOf(page, "Supervisor")).toEqual(["Supervisor", "1", "0", "0", "1", "—", "—", "—"]);
  expect((await page.locator('[data-testid="users-total"] td').allInnerTexts()).map((s) => s.trim())).toEqual(["Total geral", "1", "1", "1", "3", "30,00", "30,00", "30,00"]);
  expect(await page.locator('[data-testid="users-chart"] [data-bar]').count()).toBe(2);
  await shot(page, "estatisticas-atendimentos-usuarios");
  // Last month: nobody served anybody.
  const d = new Date();
  const last = new Date(d.getFullYear(), d.getMonth(), 0);
  const iso = (x: Date) => `${x.getFullYear()}-${String(x.getMonth() + 1).padStart(2, "0")}-${String(x.getDate()).padStart(2, "0")}`;
  await page.locator('[data-testid="report-from"]').fill(iso(new Date(last.getFullYear(), last.getMonth(), 1)));
  await page.locator('[data-testid="report-to"]').fill(iso(last));
  await page.locator('[data-testid="report-apply"]').click();
  await waitText(page.locator('[data-testid="users-total"]'), "0");
  await expectSoon(async () => (await cellsOf(page, "Agent")).slice(1, 5), ["0", "0", "0", "0"]);
  expect(await page.locator('[data-testid="users-chart"]').count()).toBe(0);

  // The contact list.
  await menu(page, "lista-contatos");
  await page.locator('[data-testid="contacts-report-list"]').waitFor({ timeout: 30_000 });
  await waitText(page.locator('[data-testid="contacts-total"]'), "Contatos: 3", 30_000);
  expect(await cellsOf(page, "Mariana Costa")).toEqual(expect.arrayContaining(["Mariana Costa", "5511911120001", "SP", "VIP"]));
  await waitText(page.locator(".ant-table-tbody"), "Сергей Петров");
  await shot(page, "lista-contatos");

  // By tags: a choice first.
  await menu(page, "contatos-por-etiquetas");
  await page.locator('[data-testid="contacts-report-tags"]').waitFor({ timeout: 30_000 });
  await waitText(page.locator('[data-testid="contacts-need-choice"]'), "Escolha ao menos uma etiqueta");
  await choose(page, "VIP");
  await waitText(page.locator('[data-testid="contacts-total"]'), "Contatos: 1");
  await waitText(page.locator(".ant-table-tbody"), "Mariana Costa");
  expect(await page.locator(".ant-table-tbody").innerText()).not.toContain("Paulo Reis");
  await shot(page, "contatos-por-etiquetas");

  // By state.
  await menu(page, "contatos-por-estado");
  await page.locator('[data-testid="contacts-report-states"]').waitFor({ timeout: 30_000 });
  await waitText(page.locator('[data-testid="contacts-need-choice"]'), "Escolha ao menos um estado");
  await choose(page, "SP (2)");
  await waitText(page.locator('[data-testid="contacts-total"]'), "Contatos: 2");
  await waitText(page.locator(".ant-table-tbody"), "Paulo Reis");
  expect(await page.locator(".ant-table-tbody").innerText()).not.toContain("Сергей Петров");
  expect(await page.locator('[data-testid="contacts-chart"] [data-bar="SP"]').count()).toBe(1);
  await shot(page, "contatos-por-estado");
  expect(screenErrors(page)).toEqual([]);
});

async function expectSoon<T>(read: () => Promise<T>, want: T, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (JSON.stringify(v) === JSON.stringify(want) || Date.now() > end) return expect(v).toEqual(want);
    await new Promise((r) => setTimeout(r, 100));
  }
}
