/**
 * Scheduled messages (plugins/module-scheduled-messages, a FREE module's UI remote) in Chromium
 * against a real core on a test clock (its scheduler ticks every 200 ms; the test moves time
 * rather than waiting for it):
 *
 * - an admin opens /mensagem-agendadas from the menu, schedules a message for a contact on a
 *   connection typing day/month/year hour:minute, sees it pending, and when its date comes the
 *   row turns "Enviada" with one send, live (the server's scheduled.changed push), and the
 *   text is in the contact's ticket; a second one is cancelled after the confirmation;
 * - an agent in the chat schedules the text typed in the composer for the open ticket (the
 *   composer's schedule button), finds it in the contact panel's "Mensagens agendadas", and
 *   the item leaves the list when it is sent.
 */
import type { Browser, Page } from "playwright-core";
import { createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, poll, screenErrors, sessionLogin, shot, waitCount, waitText } from "./browser";

jest.setTimeout(240_000);

class Clock {
  constructor(private t: number) {}
  now(): number {
    return this.t;
  }
  set(t: number): void {
    if (t > this.t) this.t = t;
  }
}

const clock = new Clock(Date.now());
let t: TestCore;
let a: TenantFixture;
let browser: Browser;
let connName: string;
const ticketIds: number[] = [];

/** dd/mm/yyyy hh:mm of an instant in the browser's time zone (what the form reads). */
const typed = (page: Page, at: number) =>
  page.evaluate((ms) => {
    const d = new Date(ms);
    const p = (n: number) => String(n).padStart(2, "0");
    return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
  }, at);

/** A whole minute at least `minutes` ahead of both clocks. */
const minuteAhead = (minutes: number) => Math.ceil((Math.max(Date.now(), clock.now()) + minutes * 60_000) / 60_000) * 60_000;

async function sentBodies(ticketId: number): Promise<string[]> {
  // The supervisor reads: the admin and the agent are signed in in the browser (one session per account).
  const r = await t.api.get(`/messages/${ticketId}?pageSize=100&watch=true`, a.supervisor);
  if (r.status !== 200) throw new Error(`messages of ticket ${ticketId}: ${r.status} ${JSON.stringify(r.body)}`);
  const rows = (r.body.messages ?? r.body.rows ?? r.body) as Array<{ body: string; fromMe: boolean; userId: number | null }>;
  return rows.filter((m) => m.fromMe && !m.userId).map((m) => m.body);
}

beforeAll(async () => {
  t = await startCore({ clock, schedulerTickMs: 200, env: { NAMESPACE: `sched-ui-${uid()}` } });
  a = await createTenant(t, { name: `Clínica ${uid()}` });
  await acceptTerms(t, a);
  connName = `Site ${uid()}`;
  const conn = await t.api.post("/connections", { name: connName, type: "channel-webchat", queueId: a.queueIds[0], settings: {} }, a.admin);
  expect(conn.status).toBe(201);
  expect((await t.api.post(`/connections/${conn.body.id}/connect`, {}, a.admin)).status).toBe(200);
  for (const [name, number] of [
    ["Marina Alves", "5511987651234"],
    ["Paulo Reis", "5511987655678"],
  ]) {
    const contact = await t.api.post("/contacts", { name, number }, a.admin);
    expect(contact.status).toBe(201);
    const ticket = await t.api.post("/tickets", { contactId: contact.body.id, connectionId: conn.body.id }, a.agent);
    expect(ticket.status).toBe(201);
    ticketIds.push(ticket.body.id);
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

test("an admin schedules a message on /mensagem-agendadas and sees it sent at its date; another is cancelled after confirming", async () => {
  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, a.emails.admin, "/home");
    await page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 20_000 });
    const entry = page.locator("[data-testid=main-menu] .ant-menu-item").filter({ hasText: "Mensagens agendadas" });
    await entry.first().waitFor({ timeout: 15_000 });
    await entry.first().click();
    await page.waitForSelector("[data-testid=schedules-page]", { timeout: 20_000 });
    await poll(() => page.evaluate(() => window.location.hash), (h) => h === "#/mensagem-agendadas", "the route");
    await page.waitForSelector("[data-testid=schedules-empty]");
    await shot(page, "scheduled-messages-empty");

    const schedule = async (body: string, at: number, contact: string) => {
      await page.click("[data-testid=schedule-new]");
      const dialog = page.locator(".ant-modal").filter({ has: page.locator("[data-testid=schedule-body]") });
      await dialog.waitFor();
      await dialog.locator("[data-testid=schedule-body]").fill(body);
      // A date that does not exist is refused in the form.
      await dialog.locator("[data-testid=schedule-date]").fill("31/02/2030 10:00");
      await dialog.locator("[data-testid=schedule-contact]").click();
      await page.keyboard.type(contact.split(" ")[0]);
      await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: contact }).click();
      await dialog.locator("[data-testid=schedule-connection]").click();
      await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: connName }).click();
      await page.click("[data-testid=schedule-save]");
      await waitText(dialog, "Informe dia/mês/ano hora:minuto");
      await dialog.locator("[data-testid=schedule-date]").fill(await typed(page, at));
      await shot(page, "scheduled-messages-form");
      await page.click("[data-testid=schedule-save]");
      await waitCount(page.locator(".ant-modal:visible [data-testid=schedule-body]"), 0);
    };

    const at = minuteAhead(3);
    await schedule("Lembrete: sua consulta é amanhã às 9h", at, "Marina Alves");
    const rows = page.locator("[data-testid=schedules-table] .ant-table-row");
    await poll(() => rows.count(), (n) => n === 1, "the new row");
    const row = rows.first();
    await waitText(row, "Marina Alves");
    await waitText(row, "Pendente");
    await waitText(row, connName);
    await waitText(row, await typed(page, at));
    await shot(page, "scheduled-messages-pending");

    // Its date comes: the scheduler sends it and the row follows without a reload.
    clock.set(at + 1000);
    await waitText(row, "Enviada", 20_000);
    expect(await row.locator("[data-testid^=schedule-sent-]").textContent()).toBe("1");
    expect(await sentBodies(ticketIds[0])).toEqual(["Lembrete: sua consulta é amanhã às 9h"]);
    // A sent message is neither edited nor cancelled.
    expect(await row.locator("[data-testid^=schedule-cancel-]").count()).toBe(0);
    await shot(page, "scheduled-messages-sent");

    // Another one, cancelled after the confirmation; the status filter tells them apart.
    const later = minuteAhead(60);
    await schedule("Promoção de aniversário", later, "Paulo Reis");
    await poll(() => rows.count(), (n) => n === 2, "two rows");
    const pending = rows.filter({ hasText: "Promoção de aniversário" });
    await pending.locator("[data-testid^=schedule-cancel-]").click();
    await page.locator(".ant-popover:visible").filter({ hasText: "Cancelar esta mensagem agendada?" }).waitFor();
    await shot(page, "scheduled-messages-cancel-confirm");
    await page.locator(".ant-popover:visible [data-testid=schedule-cancel-confirm]").click();
    await waitText(pending, "Cancelada");
    await page.locator("[data-testid=schedules-status]").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: "Enviada" }).click();
    await page.keyboard.press("Escape");
    await poll(() => rows.count(), (n) => n === 1, "the sent one alone");
    await waitText(rows.first(), "Marina Alves");
    await shot(page, "scheduled-messages-filtered");
    clock.set(later + 1000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await sentBodies(ticketIds[1])).toEqual([]);
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.context().close();
  }
});

test("an agent schedules the composer's text for the open ticket and sees it in the ticket's list until it is sent", async () => {
  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, a.emails.agent, `/atendimento/${ticketIds[1]}`);
    await page.waitForSelector("[data-testid=chat-status]", { timeout: 20_000 });
    await page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 20_000 });
    if (!(await page.locator("[data-testid=contact-panel]").count())) await page.click("[data-testid=toggle-contact]");
    await page.locator("[data-testid=contact-panel] .ant-segmented-item").first().click();
    await page.locator("[data-testid=contact-panel-section-module-scheduled-messages-scheduled]").waitFor({ timeout: 20_000 });
    await page.waitForSelector("[data-testid=ticket-schedules-empty]");

    const text = "Seu pedido sai para entrega amanhã";
    await page.fill("[data-testid=composer-input]", text);
    await page.click("[data-testid=composer-action-module-scheduled-messages-schedule]");
    const dialog = page.locator(".ant-modal").filter({ has: page.locator("[data-testid=schedule-body]") });
    await dialog.waitFor();
    expect(await dialog.locator("[data-testid=schedule-body]").inputValue()).toBe(text);
    // From a ticket the contact and connection are the ticket's: not asked.
    expect(await dialog.locator("[data-testid=schedule-contact]").count()).toBe(0);
    const at = minuteAhead(5);
    await dialog.locator("[data-testid=schedule-date]").fill(await typed(page, at));
    await shot(page, "scheduled-messages-from-ticket");
    await page.click("[data-testid=schedule-save]");
    await waitCount(page.locator(".ant-modal:visible [data-testid=schedule-body]"), 0);
    expect(await page.inputValue("[data-testid=composer-input]")).toBe("");

    const items = page.locator("[data-testid=ticket-schedules] [data-testid^=ticket-schedule-]:not([data-testid^=ticket-schedule-new]):not([data-testid^=ticket-schedule-cancel])");
    await poll(() => items.count(), (n) => n === 1, "the ticket's scheduled message");
    await waitText(items.first(), text);
    await waitText(items.first(), await typed(page, at));
    await page.locator("[data-testid=ticket-schedules]").scrollIntoViewIfNeeded();
    await shot(page, "scheduled-messages-ticket-list");

    // Sent at its date: it leaves the ticket's list, and the chat shows it.
    clock.set(at + 1000);
    await page.waitForSelector("[data-testid=ticket-schedules-empty]", { timeout: 20_000 });
    await poll(() => sentBodies(ticketIds[1]), (b) => b.includes(text), "the text sent on the ticket");
    await page.locator("[data-testid=message]").filter({ hasText: text }).first().waitFor({ timeout: 20_000 }).catch(() => undefined);
    await shot(page, "scheduled-messages-ticket-sent");
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.context().close();
  }
});
