/**
 * The birthdays report in the built shell, in Debian's Chromium, against a real core with the
 * plugin: the admin goes from /relatorios to "Aniversariantes do mês", sees this month's
 * birthdays (not another month's) with the age they turn, selects all, unselects one and
 * selects it again, writes a message with the name and age placeholders and sends it now with
 * a one-second delay; the progress ends at 2 of 2 and each contact got its own text once. The
 * list's Excel button downloads the listed birthdays, and printed the page is the list alone.
 */
import * as fs from "node:fs";
import ExcelJS from "exceljs";
import type { Browser } from "playwright-core";
import { createSuper, createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { launchBrowser, newPage, screenErrors, sessionLogin, shot, waitText } from "../../report-tickets/test/support/browser";
import { ok, sentTexts } from "./kit";

jest.setTimeout(240_000);

let t: TestCore;
let f: TenantFixture;
let browser: Browser;
const ids: Record<string, number> = {};

/** Today in São Paulo (the tenant's zone), as the page lists it. */
const today = () => {
  const p = Object.fromEntries(new Intl.DateTimeFormat("en-US", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(new Date()).map((x) => [x.type, x.value]));
  return { y: Number(p.year), mmdd: `${p.month}-${p.day}`, m: Number(p.month) };
};

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `birthdays-ui-${uid()}` } });
  f = await createTenant(t, { tier: "BASIC" });
  await ok(t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin));
  await ok(t.api.put(`/users/${f.admin.userId}/lgpd-consent`, { accepted: true }, f.admin));
  const sup = await createSuper(t);
  await ok(t.api.put(`/plugins/report-birthdays/tenants/${f.tenantId}`, { allowed: true }, sup));
  const c = await ok(t.api.post("/connections", { name: "Site", type: "channel-webchat", settings: {} }, f.admin), 201);
  await ok(t.api.post(`/connections/${c.id}/connect`, {}, f.admin));
  const d = today();
  const otherMonth = String((d.m % 12) + 1).padStart(2, "0");
  const contact = async (name: string, number: string, birthday: string) => (await ok(t.api.post("/contacts", { name, number, birthday }, f.admin), 201)).id as number;
  ids.ana = await contact("Ana Aniversariante", "5511922220001", `1990-${d.mmdd}`);
  ids.bruno = await contact("Bruno Parabéns", "5511922220002", `2001-${d.mmdd}`);
  ids.carla = await contact("Carla Outro Mês", "5511922220003", `1995-${otherMonth}-10`);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

it("lists this month's birthdays, selects them and sends a message with the placeholders filled, with progress", async () => {
  const page = await newPage(browser);
  await sessionLogin(page, t.url, f.emails.admin, "/relatorios");
  await page.locator('[data-testid="reports-menu"]').waitFor({ timeout: 30_000 });
  await waitText(page.locator('[data-testid="report-link-aniversariantes-do-mes"]'), "Aniversariantes do mês");
  await page.locator('[data-testid="report-link-aniversariantes-do-mes"]').click();
  await page.locator('[data-testid="birthdays-report"]').waitFor({ timeout: 30_000 });

  const table = page.locator('[data-testid="birthdays-report"] .ant-table-tbody').first();
  await waitText(table, "Bruno Parabéns", 30_000);
  await waitText(table, "Ana Aniversariante");
  const y = today().y;
  await waitText(table, `${y - 1990} anos`);
  expect(await table.innerText()).not.toContain("Carla Outro Mês");
  await shot(page, "aniversariantes-do-mes");

  // The Excel button downloads the list with the page's columns.
  const [file] = await Promise.all([page.waitForEvent("download"), page.locator('[data-testid="export-xlsx"]').click()]);
  expect(file.suggestedFilename()).toBe("Aniversariantes do mês.xlsx");
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(fs.readFileSync((await file.path())!) as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  expect(ws.getRow(3).values).toEqual([undefined, "Nome", "Número", "Aniversário", "Faz (anos)", "Situação"]);
  expect([4, 5].map((i) => ws.getRow(i).getCell(1).value).sort()).toEqual(["Ana Aniversariante", "Bruno Parabéns"]);
  expect(ws.getRow(6).getCell(1).value).toBeNull();
  // Printed, the page is the list: the controls, the message and the activity are left out.
  await page.emulateMedia({ media: "print" });
  expect(await page.locator('[data-testid="birthdays-message"]').isVisible()).toBe(false);
  expect(await page.locator('[data-testid="export-xlsx"]').isVisible()).toBe(false);
  expect(await table.isVisible()).toBe(true);
  await shot(page, "aniversariantes-do-mes-impressao");
  await page.emulateMedia({ media: "screen" });

  await page.getByText("Selecionar todos").click();
  await waitText(page.locator('[data-testid="birthdays-selected"]'), "2 selecionado(s) de 2");
  await page.locator(`tr[data-row-key="${ids.bruno}"] .ant-checkbox-input`).click();
  await waitText(page.locator('[data-testid="birthdays-selected"]'), "1 selecionado(s) de 2");
  await page.locator(`tr[data-row-key="${ids.bruno}"] .ant-checkbox-input`).click();
  await waitText(page.locator('[data-testid="birthdays-selected"]'), "2 selecionado(s) de 2");

  await page.locator('[data-testid="birthdays-message"]').fill("Parabéns, {{name}}! Feliz {{age}} anos!");
  await page.locator('[data-testid="birthdays-delay"] input, input[data-testid="birthdays-delay"]').first().fill("1");
  await waitText(page.locator('[data-testid="birthdays-connection"]'), "Site");
  await shot(page, "aniversariantes-do-mes-selecionados");
  await page.locator('[data-testid="birthdays-send"]').click();

  const progress = page.locator('[data-testid="birthdays-progress"]');
  await waitText(progress, "2 enviada(s), 0 com falha, de 2", 30_000);
  await waitText(progress, "Concluído");
  await shot(page, "aniversariantes-do-mes-enviado");

  const sent = await sentTexts(t, f.tenantId);
  expect(sent.filter((m) => m.contactId === ids.ana).map((m) => m.body)).toEqual([`Parabéns, Ana Aniversariante! Feliz ${y - 1990} anos!`]);
  expect(sent.filter((m) => m.contactId === ids.bruno).map((m) => m.body)).toEqual([`Parabéns, Bruno Parabéns! Feliz ${y - 2001} anos!`]);
  expect(sent.filter((m) => m.contactId === ids.carla)).toEqual([]);
  expect(screenErrors(page)).toEqual([]);
});
