/**
 * The three time screens of /configuracoes in Chromium against a real core (spec §2, §3
 * Business hours / Holiday / Smart-close / Availability, §5 Business hours): an admin sets the
 * tenant's week and messages in Horário (a lunch that overlaps the afternoon is refused on its
 * day) and sees the open-now badge say what the core says (the core's clock: a Saturday); in
 * Horários por fila creates a queue's schedule (the core's target-required error shown on the
 * field first), edits it and switches it off, adds holidays (dd/mm/aaaa, a day that does not
 * exist refused) and deletes one, and turns smart close on; in Disponibilidade gives the agent
 * morning slots on weekdays. Every saved state is read back through the API.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { TestClock } from "../../core/src/lib/clock";
import { acceptTerms, launchBrowser, newPage, notices, poll, screenErrors, screenshot, sessionLogin, shot, waitAttr, waitCount, waitText } from "./browser";

jest.setTimeout(240_000);

type P = Page & { errors: string[] };

let t: TestCore;
let f: TenantFixture;
let browser: Browser;
/** A second admin for API checks: the browser's login ends the fixture admin's API session. */
let admin2: Auth;

/**
 * The core's "now": the next Saturday 10:00 in São Paulo (UTC−3, no DST since 2019), after the
 * real now so the browser's "today" is never later than the core's. The weekend is closed in the
 * hours set here, so the badge says when Monday opens.
 */
const saturday = (() => {
  const d = new Date();
  d.setUTCHours(13, 0, 0, 0);
  while (d.getUTCDay() !== 6 || d.getTime() <= Date.now()) d.setUTCDate(d.getUTCDate() + 1);
  return d.getTime();
})();
const clock = new TestClock(saturday);

beforeAll(async () => {
  t = await startCore({ clock });
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

const drawer = (page: Page) => page.locator(".ant-drawer", { has: page.locator(".ant-drawer-body") }).last();
const modal = (page: Page) => page.locator(".ant-modal-container").last();
const fieldError = (scope: Locator, testId: string) => scope.locator(".ant-form-item", { has: scope.page().locator(`[data-testid="${testId}"]`) }).locator(".ant-form-item-explain-error");
const success = (page: Page, title: string) => poll(() => notices(page), (n) => n.some((x) => x.kind === "success" && x.title === title), `the notice "${title}"`);

/** Picks options of an antd Select, then closes its list by clicking `away` (Escape would close the drawer too). */
async function pick(page: Page, select: Locator, texts: string[], away: Locator) {
  await select.click();
  for (const text of texts) await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: text }).first().click();
  await away.click();
  await waitCount(page.locator(".ant-select-dropdown:visible"), 0);
}

const weekday = { mode: "specific", morning: { start: "08:00", end: "12:00" }, afternoon: { start: "13:30", end: "18:00" } };

test("an admin sets the tenant's hours, a queue's schedule, a holiday, smart close and a user's availability", async () => {
  const page: P = await newPage(browser, { viewport: { width: 1366, height: 768 } });
  const year = new Date().getFullYear();

  // ── Horário: nothing saved yet, so the badge says the company is always open.
  await sessionLogin(page, t.url, f.emails.admin, "/configuracoes/horario");
  await page.waitForSelector("[data-testid=horario-page] [data-testid=horario-week]", { timeout: 30_000 }).catch(async (e) => {
    await screenshot(page, "business-time-open-failed");
    throw new Error(`${(e as Error).message}\n${page.url()}\n${page.errors.join("\n")}`);
  });
  await page.waitForSelector("[data-testid=horario-not-stored]");
  await waitAttr(page.locator("[data-testid=time-state]"), "data-reason", "unscheduled");
  await waitText(page.locator("[data-testid=time-state]"), "Sem horário: sempre aberto");
  await waitText(page.locator("[data-testid=horario-timezone]"), "America/Sao_Paulo");
  // Monday first, as the week is read here.
  expect(await page.locator("[data-testid=horario-week] .oa-week-row").evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")))).toEqual([1, 2, 3, 4, 5, 6, 0].map((d) => `horario-week-day-${d}`));
  await shot(page, "business-time-horario-new");

  // An afternoon that starts before the morning ends: refused on Monday's row, nothing stored.
  await page.click("[data-testid=horario-active]");
  await page.fill("[data-testid=horario-week-day-1-afternoon-start]", "11:00");
  await page.click("[data-testid=horario-save]");
  await waitText(page.locator("[data-testid=horario-week-day-1-error]"), "A manhã deve terminar antes de a tarde começar");
  expect((await t.api.get("/business-hours/global", admin2)).body.id).toBeNull();

  // Monday 08:00–12:00 and 13:30–18:00 (lunch between), copied to the weekdays; the weekend closed.
  await page.fill("[data-testid=horario-week-day-1-afternoon-start]", "13:30");
  await waitText(page.locator("[data-testid=horario-week-day-1-lunch]"), "Almoço 12:00–13:30");
  await page.click("[data-testid=horario-week-copy-monday]");
  await page.click("[data-testid=horario-week-day-6-mode-closed]");
  await waitAttr(page.locator("[data-testid=horario-week-day-6]"), "data-mode", "closed");
  await page.fill("[data-testid=horario-message-outOfHours]", "Estamos fora do horário. Respondemos às 8h.");
  await page.fill("[data-testid=horario-message-holiday]", "Hoje é feriado.");
  await page.fill("[data-testid=horario-message-lunch]", "Estamos no almoço, voltamos às 13h30.");
  await page.click("[data-testid=horario-save]");
  await success(page, "Horário de atendimento salvo");
  const global = (await t.api.get("/business-hours/global", admin2)).body;
  expect(global).toMatchObject({
    type: "global",
    active: true,
    messages: { outOfHours: "Estamos fora do horário. Respondemos às 8h.", holiday: "Hoje é feriado.", lunch: "Estamos no almoço, voltamos às 13h30." },
  });
  expect(global.id).toEqual(expect.any(Number));
  expect(global.days).toEqual([{ mode: "closed", morning: null, afternoon: null }, weekday, weekday, weekday, weekday, weekday, { mode: "closed", morning: null, afternoon: null }]);
  await waitCount(page.locator("[data-testid=horario-not-stored]"), 0);
  await page.locator("[data-testid=horario-week-day-4]").scrollIntoViewIfNeeded();
  await shot(page, "business-time-horario-week");

  // Saturday 10:00 for the core: closed, and the badge says when Monday opens (in the tenant's zone).
  const monday = saturday + 2 * 86_400_000 - 2 * 3_600_000;
  expect((await t.api.get("/business-hours/state", admin2)).body).toMatchObject({ open: false, reason: "closed", nextOpenAt: monday });
  await waitAttr(page.locator("[data-testid=time-state]"), "data-reason", "closed");
  expect(await page.getAttribute("[data-testid=time-state]", "data-open")).toBe("0");
  const mondayDate = new Intl.DateTimeFormat("pt-BR", { timeZone: "America/Sao_Paulo", day: "2-digit", month: "2-digit" }).format(monday);
  await waitText(page.locator("[data-testid=time-state]"), "Fechado — abre ");
  await waitText(page.locator("[data-testid=time-state]"), `${mondayDate} às 08:00`);
  await page.locator("[data-testid=horario-page] .oa-section-head").scrollIntoViewIfNeeded();
  await shot(page, "business-time-horario-saved");

  // On a narrow screen the week stacks.
  await page.setViewportSize({ width: 414, height: 860 });
  await page.locator("[data-testid=horario-week]").scrollIntoViewIfNeeded();
  await shot(page, "business-time-horario-narrow");
  await page.setViewportSize({ width: 1366, height: 768 });

  // ── Horários por fila: a queue's schedule; without a target the core refuses it on the field.
  await page.click("[data-testid=settings-tab-business-hours]");
  await page.waitForSelector("[data-testid=schedules-list]");
  await waitCount(page.locator("[data-testid=schedules-list] .ant-spin-spinning"), 0);
  await page.click("[data-testid=schedule-new]:not([disabled])");
  const d = drawer(page);
  await d.locator("[data-testid=schedule-name]").fill("Suporte em dias úteis");
  await d.locator("[data-testid=schedule-save]").click();
  await waitText(fieldError(d, "schedule-targets"), "Horários por fila, usuário ou WhatsApp precisam de pelo menos um alvo escolhido");
  expect((await t.api.get("/business-hours", admin2)).body).toEqual([]);
  await shot(page, "business-time-schedule-target-required");

  await pick(page, d.locator("[data-testid=schedule-targets]"), ["Suporte"], d.locator(".ant-drawer-title"));
  await waitCount(fieldError(d, "schedule-targets"), 0);
  // Saturday: a morning only, 09:00–13:00.
  await d.locator("[data-testid=schedule-week-day-6-morning-start]").fill("09:00");
  await d.locator("[data-testid=schedule-week-day-6-morning-end]").fill("13:00");
  await d.locator("[data-testid=schedule-message-outOfHours]").fill("O suporte atende de segunda a sábado.");
  await d.locator("[data-testid=schedule-save]").click();
  await waitCount(page.locator(".ant-drawer-body"), 0);
  await success(page, "Horário salvo");
  const schedules = (await t.api.get("/business-hours?type=queue", admin2)).body;
  expect(schedules).toHaveLength(1);
  expect(schedules[0]).toMatchObject({ name: "Suporte em dias úteis", type: "queue", targetIds: [f.queueIds[0]], active: true, messages: { outOfHours: "O suporte atende de segunda a sábado.", holiday: null, lunch: null } });
  expect(schedules[0].days[6]).toEqual({ mode: "specific", morning: { start: "09:00", end: "13:00" }, afternoon: null });
  expect(schedules[0].days[0]).toEqual({ mode: "closed", morning: null, afternoon: null });
  const schedRow = page.locator(`[data-testid=schedule-row-${schedules[0].id}]`);
  await waitText(schedRow.locator("[data-testid=target-tags]"), "Suporte");
  await waitText(schedRow.locator("[data-testid=schedule-summary]"), "Seg–Sex 08:00–12:00, 13:00–18:00 · Sáb 09:00–13:00 · Dom fechado");
  await shot(page, "business-time-schedules");

  // Edited: Sunday open all day. Then switched off from the list.
  await schedRow.locator("button[aria-label=Editar]").click();
  await d.locator("[data-testid=schedule-week-day-0-mode-open]").click();
  await d.locator("[data-testid=schedule-save]").click();
  await waitCount(page.locator(".ant-drawer-body"), 0);
  await waitText(schedRow.locator("[data-testid=schedule-summary]"), "Dom 24 h");
  const edited = (await t.api.get("/business-hours?type=queue", admin2)).body[0];
  expect(edited).toMatchObject({ id: schedules[0].id, name: "Suporte em dias úteis", targetIds: [f.queueIds[0]], active: true });
  expect(edited.days[0]).toEqual({ mode: "open", morning: null, afternoon: null });
  expect(edited.days[6]).toEqual(schedules[0].days[6]);
  await page.click(`[data-testid=schedule-active-${schedules[0].id}]`);
  await poll(async () => (await t.api.get("/business-hours?type=queue", admin2)).body[0].active, (v) => v === false, "the schedule switched off");
  expect((await t.api.get("/business-hours?type=queue", admin2)).body[0].days).toEqual(edited.days);

  // A holiday: date and description are required; then Christmas for the whole company.
  await page.click("[data-testid=business-hours-tab-holidays]");
  await page.waitForSelector("[data-testid=holidays-list]");
  await waitCount(page.locator("[data-testid=holidays-list] .ant-spin-spinning"), 0);
  await page.click("[data-testid=holiday-new]:not([disabled])");
  const m = modal(page);
  await m.locator("[data-testid=holiday-save]").click();
  await waitText(fieldError(m, "holiday-date"), "Campo obrigatório");
  await waitText(fieldError(m, "holiday-description"), "Campo obrigatório");
  // Typed as the Brazilian writes it; a day that does not exist is refused.
  await m.locator("[data-testid=holiday-date]").fill(`3102${year}`);
  await m.locator("[data-testid=holiday-description]").fill("Natal");
  await waitText(fieldError(m, "holiday-date"), "Data inválida");
  await m.locator("[data-testid=holiday-date]").fill(`25/12/${year}`);
  await waitCount(fieldError(m, "holiday-date"), 0);
  await m.locator("[data-testid=holiday-message]").fill("Feliz Natal! Voltamos no dia 26.");
  await shot(page, "business-time-holiday-form");
  await m.locator("[data-testid=holiday-save]").click();
  await waitCount(page.locator(".ant-modal-container"), 0);
  const holidays = (await t.api.get(`/holidays?year=${year}`, admin2)).body;
  expect(holidays).toHaveLength(1);
  expect(holidays[0]).toMatchObject({ date: `${year}-12-25`, description: "Natal", type: "global", targetIds: [], yearly: false, message: "Feliz Natal! Voltamos no dia 26." });
  await waitText(page.locator(`[data-testid=holiday-row-${holidays[0].id}] [data-testid=holiday-date-cell]`), `25/12/${year}`);
  await shot(page, "business-time-holidays");

  // A second one, then deleted after confirming.
  await page.click("[data-testid=holiday-new]");
  await m.locator("[data-testid=holiday-date]").fill(`21/04/${year}`);
  await m.locator("[data-testid=holiday-description]").fill("Tiradentes");
  await m.locator("[data-testid=holiday-yearly]").click();
  await m.locator("[data-testid=holiday-save]").click();
  await waitCount(page.locator(".ant-modal-container"), 0);
  const tiradentes = (await t.api.get(`/holidays?year=${year}`, admin2)).body.find((h: { description: string }) => h.description === "Tiradentes");
  expect(tiradentes).toMatchObject({ date: `${year}-04-21`, yearly: true, type: "global" });
  await waitText(page.locator(`[data-testid=holiday-row-${tiradentes.id}] [data-testid=holiday-date-cell]`), "21/04");
  await page.locator(`[data-testid=holiday-row-${tiradentes.id}] button[aria-label=Excluir]`).click();
  await page.locator(".ant-popconfirm:visible .ant-btn-dangerous").click();
  await waitCount(page.locator(`[data-testid=holiday-row-${tiradentes.id}]`), 0);
  expect((await t.api.get(`/holidays?year=${year}`, admin2)).body.map((h: { description: string }) => h.description)).toEqual(["Natal"]);

  // Smart close on, with the 24-hour window and its message.
  await page.click("[data-testid=business-hours-tab-smart-close]");
  await page.waitForSelector("[data-testid=smart-close-enabled]");
  await page.click("[data-testid=smart-close-enabled]");
  await page.click("[data-testid=smart-close-window]");
  await page.fill("[data-testid=smart-close-outOfOfficeMessage]", "Encerramos este atendimento; escreva de novo quando abrirmos.");
  await page.click("[data-testid=smart-close-save]");
  await success(page, "Encerramento inteligente salvo");
  expect((await t.api.get("/settings", admin2)).body.smartClose).toEqual({
    enabled: true,
    window24h: true,
    outOfOfficeMessage: "Encerramos este atendimento; escreva de novo quando abrirmos.",
    noNextDayMessage: null,
    lunchMessage: null,
  });
  expect(page.url()).toContain("tab=smart-close");
  await shot(page, "business-time-smart-close");

  // ── Disponibilidade: the agent's mornings, 08:00–11:30 from Monday to Friday.
  await page.click("[data-testid=settings-tab-horarios]");
  await page.waitForSelector(`[data-testid=availability-row-${f.agent.userId}]`, { timeout: 15_000 });
  await shot(page, "business-time-availability-empty");
  await page.click(`[data-testid=availability-edit-${f.agent.userId}]`);
  const a = modal(page);
  await a.locator("[data-testid=availability-1-morning-on]").click();
  await a.locator("[data-testid=availability-1-morning-end]").fill("11:30");
  await a.locator("[data-testid=availability-copy-monday]").click();
  await shot(page, "business-time-availability-form");
  await a.locator("[data-testid=availability-save]").click();
  await waitCount(page.locator(".ant-modal-container"), 0);
  await success(page, "Disponibilidade salva");
  const morning = [{ kind: "morning", start: "08:00", end: "11:30" }];
  expect((await t.api.get(`/availability/${f.agent.userId}`, admin2)).body.days).toEqual([[], morning, morning, morning, morning, morning, []]);
  for (const wd of [1, 5]) await waitText(page.locator(`[data-testid=availability-cell-${f.agent.userId}-${wd}]`), "08:00–11:30");
  await waitCount(page.locator(`[data-testid=availability-cell-${f.agent.userId}-6]`), 0);
  await shot(page, "business-time-availability");

  // The dark theme: the tenant's week as the admin reads it at night.
  await page.click("[data-testid=settings-tab-horario]");
  await page.waitForSelector("[data-testid=horario-page] [data-testid=horario-week]");
  await page.click("[data-testid=theme-toggle]");
  await poll(() => page.evaluate(() => document.documentElement.classList.contains("oa-dark")), (v) => v, "the dark theme");
  await page.locator("[data-testid=horario-week-day-2]").scrollIntoViewIfNeeded();
  await shot(page, "business-time-horario-dark");
  await page.click("[data-testid=theme-toggle]");

  expect(screenErrors(page)).toEqual([]);
});
