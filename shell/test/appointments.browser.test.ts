/**
 * Appointments (plugins/module-appointments: PLUS, its services PREMIUM) in Chromium against a
 * real core on a test clock, one journey of a PREMIUM tenant's admin in São Paulo's time zone:
 *
 * - /configuracoes/servicos: a service is created (a negative price refused in the form) and
 *   listed with its user;
 * - /agendamentos from the menu: an appointment is booked for tomorrow 10:00 in the form
 *   (contact, connection, service, date, message, a reminder, a duplicate reminder refused) and
 *   drawn on the calendar; the month, week, day and list views show it; the user filter hides
 *   it for another user;
 * - dragging it to 07:00 (outside the admin's 08:00–18:00 availability) is refused by the
 *   server and it snaps back; dragging it to 14:00 moves it (the server has the new time);
 * - the .ics download holds the event at its (new) time.
 */
import * as fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import { createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, notices, poll, screenErrors, sessionLogin, shot, waitCount, waitText } from "./browser";

jest.setTimeout(240_000);

class Clock {
  constructor(private t: number) {}
  now(): number {
    return this.t;
  }
}

const TZ = "America/Sao_Paulo";
let t: TestCore;
let a: TenantFixture;
let browser: Browser;
let connName: string;

/** The instant of local São Paulo time h:m on the day `days` after today there (UTC−3, no daylight saving). */
function spTime(days: number, h: number, m = 0): number {
  const local = new Date(Date.now() - 3 * 3_600_000);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + days, h + 3, m);
}
const typed = (ms: number) => {
  const d = new Date(ms - 3 * 3_600_000);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
};

/** An antd InputNumber's input, whether the test id lands on the input or its wrapper. */
const num = (id: string) => `input[data-testid=${id}], [data-testid=${id}] input`;

async function newSpPage(): Promise<Page & { errors: string[] }> {
  const ctx = await browser.newContext({ locale: "pt-BR", timezoneId: TZ, viewport: { width: 1366, height: 900 }, acceptDownloads: true });
  const page = (await ctx.newPage()) as Page & { errors: string[] };
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") page.errors.push(`console: ${m.text()}`);
  });
  return page;
}

beforeAll(async () => {
  t = await startCore({ clock: new Clock(Date.now()), schedulerTickMs: 200, env: { NAMESPACE: `appt-ui-${uid()}` } });
  a = await createTenant(t, { name: `Clínica ${uid()}`, tier: "PREMIUM" });
  await acceptTerms(t, a);
  connName = `Site ${uid()}`;
  const conn = await t.api.post("/connections", { name: connName, type: "channel-webchat", queueId: a.queueIds[0], settings: {} }, a.admin);
  expect(conn.status).toBe(201);
  expect((await t.api.post(`/connections/${conn.body.id}/connect`, {}, a.admin)).status).toBe(200);
  expect((await t.api.post("/contacts", { name: "Marina Alves", number: "5511987651234" }, a.admin)).status).toBe(201);
  // The admin works 08:00–18:00 every day (Step 9's availability).
  const days = Array.from({ length: 7 }, () => [{ kind: "fullDay", start: "08:00", end: "18:00" }]);
  expect((await t.api.call("PUT", `/availability/${a.admin.userId}`, { days }, a.admin)).status).toBe(200);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

test("an admin sets up a service, books an appointment on the calendar, drags it (refused outside availability, then moved) and downloads the .ics", async () => {
  const page = await newSpPage();
  try {
    await sessionLogin(page, t.url, a.emails.admin, "/configuracoes/servicos");
    await page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 20_000 });
    await page.waitForSelector("[data-testid=services-page]", { timeout: 20_000 });
    await page.waitForSelector("[data-testid=services-empty]");

    // A service: a negative price is refused in the form.
    await page.click("[data-testid=service-new]");
    const dialog = page.locator(".ant-modal").filter({ has: page.locator("[data-testid=service-name]") });
    await dialog.waitFor();
    await dialog.locator("[data-testid=service-name]").fill("Avaliação odontológica");
    await dialog.locator("[data-testid=service-description]").fill("Primeira consulta");
    await dialog.locator(num("service-duration")).first().fill("60");
    await dialog.locator(num("service-price")).first().fill("-10");
    await dialog.locator("[data-testid=service-users]").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: "Admin" }).click();
    await page.keyboard.press("Escape");
    await page.click("[data-testid=service-save]");
    await waitText(dialog, "O preço não pode ser negativo");
    await dialog.locator(num("service-price")).first().fill("180");
    await shot(page, "appointments-service-form");
    await page.click("[data-testid=service-save]");
    const serviceRows = page.locator("[data-testid=services-table] .ant-table-row");
    await poll(() => serviceRows.count(), (n) => n === 1, "the service's row");
    await waitText(serviceRows.first(), "Avaliação odontológica");
    await waitText(serviceRows.first(), "Admin");
    await shot(page, "appointments-services");

    // /agendamentos from the menu.
    const entry = page.locator("[data-testid=main-menu] .ant-menu-item").filter({ hasText: "Agendamentos" });
    await entry.first().click();
    await page.waitForSelector("[data-testid=appointments-page]", { timeout: 20_000 });
    await poll(() => page.evaluate(() => window.location.hash), (h) => h === "#/agendamentos", "the route");
    const calendar = page.locator("[data-testid=appointments-calendar]");
    await calendar.locator("[data-time]").first().waitFor({ timeout: 20_000 });

    const start = spTime(1, 10);
    await page.click("[data-testid=appointments-new]");
    const form = page.locator(".ant-modal").filter({ has: page.locator("[data-testid=appointment-form]") });
    await form.waitFor();
    await form.locator("[data-testid=appointment-contact]").click();
    await page.keyboard.type("Marina");
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: "Marina Alves" }).click();
    await form.locator("[data-testid=appointment-connection]").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: connName }).click();
    await form.locator("[data-testid=appointment-service]").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: "Avaliação odontológica" }).click();
    expect(await form.locator(num("appointment-duration")).first().inputValue()).toBe("60");
    await form.locator("[data-testid=appointment-date]").fill(typed(start));
    await form.locator("[data-testid=appointment-message]").fill("Oi");
    await page.click("[data-testid=appointment-save]");
    await waitText(form, "A mensagem deve ter ao menos 5 caracteres");
    await form.locator("[data-testid=appointment-message]").fill("Sua avaliação está confirmada");
    // One reminder a day before; the same again is refused.
    await form.locator(num("reminder-amount")).first().fill("1");
    await form.locator("[data-testid=reminder-unit]").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: "dias" }).click();
    await form.locator("[data-testid=reminder-add]").click();
    await form.locator("[data-testid=reminder-1-days]").waitFor();
    await form.locator(num("reminder-amount")).first().fill("24");
    await form.locator("[data-testid=reminder-unit]").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: "horas" }).click();
    await form.locator("[data-testid=reminder-add]").click();
    await form.locator("[data-testid=reminder-duplicate]").waitFor();
    await shot(page, "appointments-form");
    await page.click("[data-testid=appointment-save]");
    await waitCount(page.locator(".ant-modal:visible [data-testid=appointment-form]"), 0);

    const [booked] = (await t.api.get("/appointments", a.supervisor)).body as Array<{ id: number; startAt: string; reminders: unknown[] }>;
    expect(booked).toMatchObject({ startAt: new Date(start).toISOString(), reminders: [{ amount: 1, unit: "days" }] });

    // The day view of tomorrow draws it at 10:00.
    const viewButton = (label: string) => calendar.locator("button").filter({ hasText: new RegExp(`^${label}$`) });
    await viewButton("Dia").click();
    await calendar.locator('button[aria-label^="Próximo"], button[title^="Próximo"]').first().click();
    const event = page.locator(`[data-testid=appointment-event-${booked.id}]`);
    await event.waitFor({ timeout: 10_000 });
    await waitText(event, "Marina Alves");
    await shot(page, "appointments-day");

    // Dragging: the lanes carry their time; the event moves by the distance between two lanes.
    const lane = async (time: string) => {
      const boxes = await Promise.all((await calendar.locator(`[data-time="${time}"]`).all()).map((l) => l.boundingBox()));
      // The lane is the wide one (the other is the time's label).
      return boxes.filter((b): b is NonNullable<typeof b> => !!b).sort((x, y) => y.width - x.width)[0];
    };
    const drag = async (toTime: string) => {
      const box = (await event.boundingBox())!;
      const dy = (await lane(toTime)).y - (await lane("10:00:00")).y;
      const x = box.x + box.width / 2;
      const y = box.y + Math.min(10, box.height / 2);
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x, y + 8, { steps: 4 });
      await page.mouse.move(x, y + dy, { steps: 12 });
      await page.mouse.up();
    };
    const before = (await event.boundingBox())!;
    const serverStart = async () => ((await t.api.get(`/appointments/one?id=${booked.id}`, a.supervisor)).body as { startAt: string }).startAt;

    // 07:00 is outside the admin's 08:00–18:00: the server refuses, the notice says so, the event snaps back.
    await drag("07:00:00");
    await poll(() => notices(page), (n) => n.some((x) => x.title === "Fora da disponibilidade"), "the refusal's notice");
    await poll(async () => (await event.boundingBox())?.y ?? 0, (y) => Math.abs(y - before.y) < 2, "the event back at 10:00");
    expect(await serverStart()).toBe(new Date(start).toISOString());
    await shot(page, "appointments-drag-refused");

    // 14:00 is inside: moved, on the server too.
    await drag("14:00:00");
    await poll(serverStart, (s) => s === new Date(spTime(1, 14)).toISOString(), "the move on the server");
    const at14 = (await lane("14:00:00")).y;
    await poll(async () => (await event.boundingBox())?.y ?? 0, (y) => Math.abs(y - at14) < 4, "the event drawn at 14:00");
    await shot(page, "appointments-drag-moved");

    // The week, month and list views show it too.
    for (const [label, name] of [["Semana", "week"], ["Mês", "month"], ["Lista", "list"]] as const) {
      await viewButton(label).click();
      await event.waitFor({ timeout: 10_000 });
      await shot(page, `appointments-${name}`);
    }

    // The user filter: another user's calendar is empty, all users' shows it again.
    await page.locator("[data-testid=appointments-user-filter]").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: "Agent" }).click();
    await waitCount(event, 0);
    await page.locator("[data-testid=appointments-user-filter]").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: "Admin" }).click();
    await event.waitFor({ timeout: 10_000 });

    // The .ics of the range shown.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=appointments-ics]")]);
    expect(download.suggestedFilename()).toBe("agendamentos.ics");
    const ics = fs.readFileSync((await download.path())!, "utf8");
    expect(ics.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(ics).toContain(`UID:appointment-${booked.id}-t${a.tenantId}@openatende\r\n`);
    const icsTime = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
    expect(ics).toContain(`DTSTART:${icsTime(spTime(1, 14))}\r\n`);
    expect(ics).toContain(`DTEND:${icsTime(spTime(1, 15))}\r\n`);
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.context().close();
  }
});
