/**
 * One journey in the built shell, in Debian's Chromium, against a real core: the admin finds the
 * panel in the menu and opens /painel-atendimentos; one ticket waits in Suporte (created 3
 * minutes ago), its wait ticks in the browser; a new ticket arrives through the API and the
 * waiting counts change without a reload (the socket's push); an admin rebuilds the projection
 * and, while it fills, the panel says "rebuilding… x%" instead of figures, then is live again.
 * The page had no errors. Browser support is report-tickets' (imported, not copied).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Browser } from "playwright-core";
import { createSuper, createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { launchBrowser, newPage, poll, screenErrors, sessionLogin, shot, waitText } from "../../report-tickets/test/support/browser";
import { MIN, ok, seedOf, setTickets } from "../../report-users/test/kit";
import { holdPanelBackfill } from "./hold-backfill";

jest.setTimeout(240_000);

let t: TestCore;
let f: TenantFixture;
let browser: Browser;
let seed: Awaited<ReturnType<typeof seedOf>>;
let admin2: Auth;

beforeAll(async () => {
  if (!fs.existsSync(path.resolve(__dirname, "../dist/ui/remoteEntry.js"))) throw new Error("report-panel's UI is not built: run `node scripts/build-ui.cjs`");
  t = await startCore({ env: { NAMESPACE: `panel-ui-${uid()}` } });
  f = await createTenant(t, { tier: "BASIC" });
  await ok(t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin));
  await ok(t.api.put(`/users/${f.admin.userId}/lgpd-consent`, { accepted: true }, f.admin));
  // The browser's login ends the admin's API session: the API calls are a second admin's (in no queue).
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: "Admin 2", email, password: PASSWORD, profile: "admin", queues: [] });
  admin2 = await t.api.login(email);
  seed = await seedOf(t, { ...f, admin: admin2 });
  const first = await seed.ticket(await seed.contact("Mariana Costa", "5511931200001"), { queueId: f.queueIds[0], status: "pending" });
  await setTickets(t, [{ id: first, status: "pending", userId: null, queueId: f.queueIds[0], createdAt: Date.now() - 3 * MIN }]);
  const sup = await createSuper(t);
  await ok(t.api.put(`/plugins/report-panel/tenants/${f.tenantId}`, { allowed: true }, sup));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

it("opens the panel from the menu, ticks the longest wait and counts a new ticket without reloading", async () => {
  const page = await newPage(browser);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await sessionLogin(page, t.url, f.emails.admin, "/home");
  await page.locator('[data-testid="menu-icon-report-panel"]').click({ timeout: 30_000 });
  await page.locator('[data-testid="service-panel"]').waitFor({ timeout: 30_000 });
  const q1 = `queue-${f.queueIds[0]}`;
  await waitText(page.locator('[data-testid="total-waiting"]'), "1", 30_000);
  await waitText(page.locator(`[data-testid="panel-queue-${f.queueIds[0]}"]`), "Suporte");
  expect(await page.locator(`[data-testid="${q1}-waiting"]`).innerText()).toBe("1");
  expect(await page.locator(`[data-testid="${q1}-in-service"]`).innerText()).toBe("0");
  // Suporte's members (Admin, Supervisor, Agent) are online: they logged in (Admin 2 is in no queue).
  expect(await page.locator(`[data-testid="${q1}-online"]`).innerText()).toBe("3");
  // Three minutes and the time this took (m:ss), ticking every second.
  const wait = page.locator(`[data-testid="${q1}-longest-wait"]`);
  const minutes = /^[345]:\d\d$/;
  const before = await poll(() => wait.innerText(), (v) => minutes.test(v), "the wait of about 3 minutes");
  await poll(() => wait.innerText(), (v) => v !== before && minutes.test(v), "the wait to tick");
  await shot(page, "painel-atendimentos");

  // A new ticket arrives in Vendas: the counts change on the open page.
  await page.evaluate(() => Object.assign(globalThis, { panelNotReloaded: true }));
  await seed.ticket(await seed.contact("Сергей Петров", "5511931200002"), { queueId: f.queueIds[1], status: "pending" });
  await waitText(page.locator('[data-testid="total-waiting"]'), "2", 15_000);
  expect(await page.locator(`[data-testid="queue-${f.queueIds[1]}-waiting"]`).innerText()).toBe("1");
  expect(await page.evaluate(() => (globalThis as { panelNotReloaded?: boolean }).panelNotReloaded)).toBe(true);
  await shot(page, "painel-atendimentos-new-ticket");

  // A rebuild: the open panel is told when it starts and shows how far it is, no figures.
  const gate = holdPanelBackfill(t.core.broker.getLocalService({ name: "report-panel", version: 1 }));
  const rebuilt = t.api.post("/painel-atendimentos/rebuild", {}, admin2);
  await waitText(page.locator('[data-testid="report-building"]'), "Reconstruindo os dados… 25%", 15_000);
  expect(await page.locator('[data-testid="panel-total"]').count()).toBe(0);
  await shot(page, "painel-atendimentos-rebuilding");
  gate.open();
  expect((await ok(rebuilt)).status).toBe("ready");
  await waitText(page.locator('[data-testid="total-waiting"]'), "2", 15_000);
  expect(await page.locator('[data-testid="report-building"]').count()).toBe(0);
  // The board's answers while it filled were 503 on purpose (Chromium logs them as failed resources).
  expect(screenErrors(page).filter((e) => !/status of 503/.test(e))).toEqual([]);
});
