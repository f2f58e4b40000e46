/**
 * /contatos in a real browser against a real core: create (client and server validation),
 * edit with a tag, search (2 characters minimum), delete; CSV import with a bad row (progress,
 * error report, good rows kept); CSV export. Assertions through the UI and through the API.
 */
import * as fs from "node:fs";
import type { Browser, Locator, Page } from "playwright-core";
import { createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, notices, poll, screenErrors, screenshot, sessionLogin, shot, waitAttr, waitCount, waitText } from "./browser";

jest.setTimeout(180_000);

let t: TestCore;
let f: TenantFixture;
let browser: Browser;
/** A second admin for API checks: the browser's login ends the first admin's API session. */
let admin2: Auth;


beforeAll(async () => {
  t = await startCore();
  f = await createTenant(t, { tier: "BASIC" });
  await acceptTerms(t, f);
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: "Admin Dois", email, password: PASSWORD, profile: "admin" });
  admin2 = await t.api.login(email);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});


async function openContacts(page: Page & { errors: string[] }) {
  await sessionLogin(page, t.url, f.emails.admin, "/contatos");
  await page.waitForSelector('[data-page="ContatosPage"]', { timeout: 15_000 }).catch(async (e) => {
    await shot(page, "contacts-open-failed");
    throw new Error(`${(e as Error).message}\n${page.url()}\n${page.errors.join("\n")}`);
  });
  await page.waitForSelector(".ant-table-tbody");
}

const drawer = (page: Page) => page.locator(".ant-drawer-body").last();
const field = (scope: Locator, label: string) => scope.locator(".ant-form-item").filter({ has: scope.page().locator(`label:text-is("${label}")`) });

async function pickOption(page: Page, select: Locator, text: string) {
  await select.click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: text }).first().click();
  await page.keyboard.press("Escape");
}

function rowByName(page: Page, name: string) {
  return page.locator(".ant-table-tbody tr.ant-table-row", { hasText: name });
}

test("create, validate, edit with a tag, search and delete a contact", async () => {
  const page = await newPage(browser);
  // Some contacts and a tag to work with (through the API).
  for (const [name, number] of [
    ["Zeca Existente", "5511987000001"],
    ["Yara Existente", "5511987000002"],
  ]) {
    expect((await t.api.post("/contacts", { name, number }, admin2)).status).toBe(201);
  }
  const tag = await t.api.post("/tags", { name: "Cliente VIP", color: "#dc2626" }, admin2);
  expect(tag.status).toBe(201);

  await openContacts(page);
  await waitCount(page.locator(".ant-table-tbody tr.ant-table-row"), 2);
  await shot(page, "contacts-list");

  // Create: client-side rules first (e-mail, CPF/CNPJ check digits).
  await page.click('[data-testid="contacts-new"]');
  const d = drawer(page);
  await d.locator('[data-testid="contact-name"]').fill("Maria Teste");
  await d.locator('[data-testid="contact-number"]').fill("55 00 0000-00000");
  await d.locator('[data-testid="contact-email"]').fill("maria@");
  await d.locator('[data-testid="contact-document"]').fill("123.456.789-00");
  await page.click('[data-testid="contact-save"]');
  await waitText(field(d, "E-mail").locator(".ant-form-item-explain-error"), "Informe um e-mail válido");
  await waitText(field(d, "CPF / CNPJ").locator(".ant-form-item-explain-error"), "CPF ou CNPJ inválido");
  await shot(page, "contacts-form-errors");

  // The number passes the browser's check but not the server's: its error lands on the field.
  await d.locator('[data-testid="contact-email"]').fill("maria@exemplo.com");
  await d.locator('[data-testid="contact-document"]').fill("529.982.247-25");
  await page.click('[data-testid="contact-save"]');
  await waitText(field(d, "Número").locator(".ant-form-item-explain-error"), "número", 10_000);
  await d.locator('[data-testid="contact-number"]').fill("(11) 91234-5678");
  await page.click('[data-testid="contact-save"]');
  await waitCount(page.locator(".ant-drawer-body"), 0, 10_000);
  await waitCount(rowByName(page, "Maria Teste"), 1);

  const list = await t.api.get("/contacts?searchParam=Maria", admin2);
  expect(list.status).toBe(200);
  const maria = list.body.contacts[0];
  expect(maria).toMatchObject({ name: "Maria Teste", number: "5511912345678", email: "maria@exemplo.com", document: "52998224725" });
  await waitText(page.locator(`[data-testid="contact-row-${maria.id}"]`), "+55 11 91234-5678");

  // Edit: new name and a tag.
  await page.click(`[data-testid="contact-edit-${maria.id}"]`);
  const e = drawer(page);
  await e.locator('[data-testid="contact-name"]').waitFor();
  await poll(() => e.locator('[data-testid="contact-name"]').inputValue(), (v) => v === "Maria Teste", "value");
  await e.locator('[data-testid="contact-name"]').fill("Maria Editada");
  await pickOption(page, field(e, "Etiquetas").locator(".ant-select"), "Cliente VIP");
  await shot(page, "contacts-edit");
  await page.click('[data-testid="contact-save"]');
  await waitCount(page.locator(".ant-drawer-body"), 0, 10_000);
  const got = await t.api.get(`/contacts/${maria.id}`, admin2);
  expect(got.body.name).toBe("Maria Editada");
  expect(got.body.tags.map((x: { name: string }) => x.name)).toEqual(["Cliente VIP"]);
  await waitText(page.locator(`[data-testid="contact-row-${maria.id}"] .ant-tag`), "Cliente VIP");

  // Search: one character does not search; two or more do (debounced).
  const searches: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/contacts?")) searches.push(new URL(r.url()).searchParams.get("searchParam") ?? "");
  });
  await page.fill('[data-testid="contacts-search"]', "E");
  await waitText(page.locator(".ant-tooltip:visible"), "ao menos 2");
  await page.waitForTimeout(700);
  expect(searches).not.toContain("E");
  await page.fill('[data-testid="contacts-search"]', "Editada");
  await waitCount(page.locator(".ant-table-tbody tr.ant-table-row"), 1, 5000);
  await waitText(page.locator(".ant-table-tbody tr.ant-table-row"), "Maria Editada");
  expect(searches).toContain("Editada");
  await page.fill('[data-testid="contacts-search"]', "ninguem-com-esse-nome");
  await waitText(page.locator(".ant-empty"), "Nenhum contato encontrado", 5000);
  await shot(page, "contacts-search-empty");
  await page.fill('[data-testid="contacts-search"]', "");
  await waitCount(page.locator(".ant-table-tbody tr.ant-table-row"), 3, 5000);

  // Delete with confirmation.
  await page.click(`[data-testid="contact-delete-${maria.id}"]`);
  await page.locator('.ant-popover:visible [data-testid="contact-delete-ok"]').click();
  await waitCount(page.locator(`[data-testid="contact-row-${maria.id}"]`), 0, 5000);
  expect((await t.api.get(`/contacts/${maria.id}`, admin2)).status).toBe(404);

  expect((await notices(page)).filter((n) => n.kind === "success").length).toBeGreaterThanOrEqual(3);
  // The one failed request is the server's refusal of the invalid number, on purpose.
  expect(screenErrors(page)).toEqual([]);
  await page.context().close();
});

test("CSV import with a bad row: progress, error report, good rows kept", async () => {
  const page = await newPage(browser);
  await openContacts(page);
  const polls: string[] = [];
  page.on("request", (r) => {
    if (/\/api\/contacts\/import\/[^/?]+/.test(r.url())) polls.push(r.url());
  });
  const csv = [
    "nome,telefone,email,etiquetas",
    "Ana Importada,5511987650001,ana@import.test,importados",
    "Bruno Importado,5511987650002,,importados;vip",
    "Linha Ruim,12ab,ruim@,",
    "Carla Importada,(21) 98765-0003,carla@import.test,",
  ].join("\n");

  await page.click('[data-testid="contacts-import"]');
  const modal = page.locator(".ant-modal-container").last();
  await modal.locator('input[type="file"]').setInputFiles({ name: "contatos.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await waitText(modal.locator(".ant-upload-list"), "contatos.csv");
  await shot(page, "contacts-import-pick");
  await page.click('[data-testid="import-start"]');

  const status = modal.locator('[data-testid="import-status"]');
  await waitAttr(status, "data-status", "completed", 30_000);
  await waitAttr(modal.locator('[role="progressbar"]'), "aria-valuenow", "100");
  expect(polls.length).toBeGreaterThan(0);
  await waitText(modal.locator('[data-testid="import-imported"]'), "3");
  await waitText(modal.locator('[data-testid="import-refused"]'), "1");
  const report = modal.locator('[data-testid="import-errors"] .ant-table-tbody tr.ant-table-row');
  await waitCount(report, 2);
  await waitText(report.first(), "4");
  await waitText(modal.locator('[data-testid="import-errors"]'), "Número");
  await waitText(modal.locator('[data-testid="import-errors"]'), "E-mail");
  await shot(page, "contacts-import-report");

  await page.click('[data-testid="import-close"]');
  await waitText(page.locator(".ant-table-tbody"), "Ana Importada", 5000);

  // The good rows are in, the bad one is not; the tags were created.
  const imported = await t.api.get("/contacts?searchParam=Importad", admin2);
  expect(imported.body.contacts.map((c: { name: string }) => c.name).sort()).toEqual(["Ana Importada", "Bruno Importado", "Carla Importada"]);
  const carla = imported.body.contacts.find((c: { name: string }) => c.name === "Carla Importada");
  expect(carla.number).toBe("5521987650003");
  const bruno = imported.body.contacts.find((c: { name: string }) => c.name === "Bruno Importado");
  expect(bruno.tags.map((x: { name: string }) => x.name).sort()).toEqual(["importados", "vip"]);
  expect((await t.api.get("/contacts?searchParam=Linha Ruim", admin2)).body.contacts).toHaveLength(0);
  expect(screenErrors(page)).toEqual([]);
  await page.context().close();
});

test("export downloads a CSV of the contacts", async () => {
  const ctxPage = await newPage(browser);
  await openContacts(ctxPage);
  const [download] = await Promise.all([ctxPage.waitForEvent("download"), ctxPage.click('[data-testid="contacts-export"]')]);
  expect(download.suggestedFilename()).toMatch(/^contatos-\d{4}-\d{2}-\d{2}\.csv$/);
  const file = await download.path();
  const text = fs.readFileSync(file!, "utf8").replace(/^\uFEFF/, "");
  const [header, ...lines] = text.trim().split(/\r?\n/);
  expect(header.split(",").slice(0, 3)).toEqual(["id", "name", "firstName"]);
  expect(lines.some((l) => l.includes("Ana Importada"))).toBe(true);
  expect(lines.some((l) => l.includes("Zeca Existente"))).toBe(true);
  await shot(ctxPage, "contacts-after-export");
  expect(screenErrors(ctxPage)).toEqual([]);
  await ctxPage.context().close();
});

test("the contacts page in English", async () => {
  const page = await newPage(browser, { locale: "en-US" });
  await openContacts(page);
  await waitText(page.locator('[data-page="ContatosPage"]'), "New contact");
  await waitText(page.locator(".ant-table-thead"), "WhatsApp / Phone");
  await page.click('[data-testid="contacts-new"]');
  await waitText(drawer(page), "Personal details");
  await shot(page, "contacts-form-en");
  expect(screenErrors(page)).toEqual([]);
  await page.context().close();
});
