/**
 * The notes module (plugins/module-notes, a PLUS plugin's UI remote) in Chromium against a
 * real core: an agent adds a note to their ticket in the attendance screen and finds it, with
 * the contact's note, in the contact panel's "Notas" section (the module's slot); a supervisor
 * (who sees every ticket, spec §6) finds it on /notas by searching its text and opens the
 * ticket from the row; a contact note's row opens the contact's drawer on /contatos
 * (?contactId=…, dropped when the drawer closes; another tenant's contact gets the not-found
 * notice and no drawer). A FREE tenant opening /notas gets the notice naming PLUS (the tier the
 * plugin's manifest declares for the route) and is back on /home.
 */
import type { Browser } from "playwright-core";
import { createSuper, createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, poll, screenErrors, sessionLogin, shot, waitCount, waitText } from "./browser";

jest.setTimeout(240_000);

let t: TestCore;
let a: TenantFixture;
let free: TenantFixture;
let browser: Browser;
let ticketId: number;
let contactId: number;
let freeContactId: number;

beforeAll(async () => {
  t = await startCore();
  const sup = await createSuper(t);
  [a, free] = await Promise.all([createTenant(t, { tier: "PLUS", name: `Aurora ${uid()}` }), createTenant(t, { name: `Livre ${uid()}` })]);
  await acceptTerms(t, a);
  await acceptTerms(t, free);
  // A bundled plugin of a paid tier reaches a tenant once the platform level allows it.
  for (const f of [a, free]) expect((await t.api.put(`/plugins/module-notes/tenants/${f.tenantId}`, { allowed: true }, sup)).status).toBe(200);

  const conn = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: a.queueIds[0], settings: { title: "Fale com a Loja" } }, a.admin);
  expect(conn.status).toBe(201);
  expect((await t.api.post(`/connections/${conn.body.id}/connect`, {}, a.admin)).status).toBe(200);
  const contact = await t.api.post("/contacts", { name: "Marina Alves", number: "5511987651234" }, a.admin);
  expect(contact.status).toBe(201);
  const ticket = await t.api.post("/tickets", { contactId: contact.body.id, connectionId: conn.body.id }, a.agent);
  expect(ticket.status).toBe(201);
  ticketId = ticket.body.id;
  contactId = contact.body.id;
  const freeContact = await t.api.post("/contacts", { name: "Contato de Outra Empresa", number: "5511987659999" }, free.admin);
  expect(freeContact.status).toBe(201);
  freeContactId = freeContact.body.id;
  // Another note of the tenant, so the list holds more than the one searched for.
  expect((await t.api.post(`/contacts/${contact.body.id}/notes`, { title: "Horário", description: "Prefere ser atendida à tarde" }, a.admin)).status).toBe(201);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

test("an agent's ticket note shows in the contact panel and on /notas, whose rows open the ticket and the contact", async () => {
  const note = `Cliente pediu troca do tamanho M pelo G ${uid()}`;
  const agent = await newPage(browser);
  try {
    await sessionLogin(agent, t.url, a.emails.agent, `/atendimento/${ticketId}`);
    await agent.waitForSelector("[data-testid=chat-status]", { timeout: 20_000 });
    if (!(await agent.locator("[data-testid=contact-panel]").count())) await agent.click("[data-testid=toggle-contact]");
    await agent.click("[data-testid=notes-tab]");
    await agent.fill("[data-testid=note-input]", note);
    await agent.click("[data-testid=note-add]");
    await agent.locator("[data-testid=note]").filter({ hasText: note }).waitFor();

    // The contact panel's "Notas" section (the module's slot): the agent's ticket note, newest, then the contact's note.
    await agent.locator("[data-testid=contact-panel] .ant-segmented-item").first().click();
    // The section starts open (the shell's slot host).
    await agent.locator("[data-testid=contact-panel-section-module-notes-notes]").waitFor({ timeout: 20_000 });
    const items = agent.locator("[data-testid=contact-notes] [data-testid^=contact-note-]");
    await poll(() => items.count(), (n) => n === 2, "the contact's two notes in the panel", 15_000);
    await waitText(items.nth(0), "tamanho M pelo G");
    await waitText(items.nth(0), "Agent");
    await waitText(items.nth(1), "Prefere ser atendida à tarde");
    await waitText(items.nth(1), "Horário");
    await waitText(items.nth(1), "Admin");
    await agent.locator("[data-testid=contact-notes]").scrollIntoViewIfNeeded();
    await shot(agent, "notes-contact-panel");
    // The panel's "open contact" button lands on the contact's drawer too.
    await agent.click("[data-testid=open-contact]");
    await poll(() => agent.evaluate(() => window.location.hash), (h) => h === `#/contatos?contactId=${contactId}`, "the contact's route");
    await waitText(agent.locator(".ant-drawer-open .ant-drawer-title"), "Marina Alves", 20_000);
    expect(screenErrors(agent)).toEqual([]);
  } finally {
    await agent.context().close();
  }

  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, a.emails.supervisor, "/home");
    await page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 20_000 });
    // The module's menu entry leads to its page.
    const entry = page.locator("[data-testid=main-menu] .ant-menu-item").filter({ hasText: "Notas" });
    await entry.first().waitFor({ timeout: 15_000 });
    await entry.first().click();
    await page.waitForSelector("[data-testid=notes-page]", { timeout: 20_000 });
    await poll(() => page.evaluate(() => window.location.hash), (h) => h === "#/notas", "the /notas route");
    const rows = page.locator("[data-testid=notes-table] .ant-table-row");
    await poll(() => rows.count(), (n) => n === 2, "both notes of the tenant", 15_000);
    expect(await page.locator("[data-testid=notes-table] [data-testid=note-kind-contact]").count()).toBe(1);
    await shot(page, "notes-list");

    // Searching a word of the note leaves that note alone.
    await page.fill("[data-testid=notes-search]", "tamanho M pelo G");
    await poll(() => rows.count(), (n) => n === 1, "one row for the search");
    await waitCount(page.locator("[data-testid=notes-table] .ant-spin-spinning"), 0);
    const row = page.locator("[data-testid=notes-table] .ant-table-row").filter({ hasText: note });
    await row.waitFor();
    expect(await row.locator("[data-testid=note-kind-ticket]").count()).toBe(1);
    await waitText(row, "Marina Alves");
    await waitText(row, "Agent");
    await waitText(page.locator("[data-testid=notes-total]"), "1");
    await shot(page, "notes-search");

    // A search that matches nothing shows the empty state.
    await page.fill("[data-testid=notes-search]", `nada-${uid()}`);
    await page.waitForSelector("[data-testid=notes-empty]");
    await shot(page, "notes-empty");
    await page.fill("[data-testid=notes-search]", "tamanho M pelo G");
    await row.waitFor();

    await row.click();
    await poll(() => page.evaluate(() => window.location.hash), (h) => h === `#/atendimento/${ticketId}`, "the ticket's route");
    await page.waitForSelector("[data-testid=chat-status]", { timeout: 20_000 });
    await shot(page, "notes-opened-ticket");

    // The contacts' notes view is a link to the page: /notas?kind=contact.
    await page.evaluate(() => (window.location.hash = "#/notas?kind=contact"));
    await page.waitForSelector("[data-testid=notes-page]");
    await poll(() => rows.count(), (n) => n === 1, "the contact note alone");
    expect(await rows.first().locator("[data-testid=note-kind-contact]").count()).toBe(1);
    await waitText(rows.first(), "Prefere ser atendida à tarde");
    await shot(page, "notes-contact-view");

    // A contact note's row opens the contact's drawer on /contatos; closing it drops the parameter.
    await rows.first().click();
    await poll(() => page.evaluate(() => window.location.hash), (h) => h === `#/contatos?contactId=${contactId}`, "the contact's route");
    const drawer = page.locator(".ant-drawer-open");
    await drawer.waitFor({ timeout: 20_000 });
    await waitText(drawer.locator(".ant-drawer-title"), "Marina Alves");
    await page.waitForSelector(".ant-drawer-open [data-testid=contact-save]:not([disabled])");
    await shot(page, "notes-opened-contact");
    await drawer.locator(".ant-drawer-close").click();
    await poll(() => page.evaluate(() => window.location.hash), (h) => h === "#/contatos", "the parameter dropped");
    await waitCount(page.locator(".ant-drawer-open"), 0);

    // Another tenant's contact: the catalogue's not-found notice, no drawer, the parameter dropped.
    await page.evaluate((id) => (window.location.hash = `#/contatos?contactId=${id}`), freeContactId);
    await waitText(page.locator(".oa-notice").last(), "Contato não encontrado");
    await poll(() => page.evaluate(() => window.location.hash), (h) => h === "#/contatos", "the parameter dropped");
    expect(await page.locator(".ant-drawer-open").count()).toBe(0);
    await shot(page, "notes-contact-not-found");
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.context().close();
  }
});

test("a FREE tenant opening /notas sees the notice naming PLUS and is back on /home", async () => {
  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, free.emails.admin, "/home");
    await page.waitForSelector("[data-testid=main-menu]");
    await page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 20_000 });
    // The module is not offered: no menu entry, no remote.
    expect(await page.locator("[data-testid=main-menu] .ant-menu-item").filter({ hasText: "Notas" }).count()).toBe(0);
    await page.evaluate(() => (window.location.hash = "#/notas"));
    await page.waitForSelector(".oa-notice.oa-banner");
    expect(await page.textContent(".oa-notice.oa-banner")).toContain("PLUS");
    await shot(page, "notes-free-tier-notice");
    await poll(() => page.evaluate(() => window.location.hash), (h) => h === "#/home", "back on /home");
    expect(await page.locator("[data-testid=notes-page]").count()).toBe(0);
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.context().close();
  }
});
