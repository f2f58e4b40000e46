/**
 * The kanban (plugins/module-kanban) in a real browser against a real core: two agents of a
 * PLUS tenant have /kanban open side by side; one adds a column and drags a card into it, and
 * the other's board follows live (the plugin's board.changed push), with the count and total of
 * each column; a ticket card opens its conversation. A FREE tenant opening /kanban gets the
 * notice naming PLUS and goes back to /home.
 */
import type { Browser, Page } from "playwright-core";
import { createSuper, createTenant, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, poll, screenErrors, screenshot, sessionLogin, shot, waitText } from "./browser";

jest.setTimeout(300_000);

type P = Page & { errors: string[] };

let t: TestCore;
let a: TenantFixture;
let free: TenantFixture;
let browser: Browser;
/** For API checks once the browser logins have ended the fixture's sessions. */
let agent: Auth;
const ids = {} as { novo: number; tk1: number; tk2: number; card1: number };

async function ok<T = any>(p: Promise<{ status: number; body: T }>, status = 200): Promise<T> {
  const r = await p;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `kanban-browser-${uid()}` } });
  const sup = await createSuper(t);
  a = await createTenant(t, { tier: "PLUS", name: `Aurora ${uid()}` });
  free = await createTenant(t, { name: `Livre ${uid()}` });
  for (const f of [a, free]) {
    await ok(t.api.put(`/plugins/module-kanban/tenants/${f.tenantId}`, { allowed: true }, sup));
    await acceptTerms(t, f);
  }
  await ok(t.api.put(`/users/${a.supervisor.userId}/lgpd-consent`, { accepted: true }, a.supervisor));
  agent = a.agent;
  await poll(() => t.api.get("/kanban/board", agent), (r) => r.status === 200, "the kanban's routes");

  const conn = await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", settings: {} }, a.admin), 201);
  await ok(t.api.post(`/connections/${conn.id}/connect`, {}, a.admin));
  const contact = async (name: string, number: string) => (await ok(t.api.post("/contacts", { name, number }, a.admin), 201)).id as number;
  const ticket = async (contactId: number) => (await ok(t.api.post("/tickets", { contactId, connectionId: conn.id, queueId: a.queueIds[0] }, a.admin), 201)).id as number;
  ids.tk1 = await ticket(await contact("Carla Souza", "5511987650001"));
  ids.tk2 = await ticket(await contact("Diego Lima", "5511987650002"));
  await ticket(await contact("Elisa Prado", "5511987650003"));
  ids.novo = (await ok(t.api.post("/kanban/columns", { name: "Novo", color: "#1677ff" }, agent))).id;
  ids.card1 = (await ok(t.api.post("/kanban/cards", { kind: "ticket", targetId: ids.tk1, columnId: ids.novo, leadValue: 1500 }, agent))).id;
  await ok(t.api.post("/kanban/cards", { kind: "ticket", targetId: ids.tk2, columnId: ids.novo, leadValue: 250.5 }, agent));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const column = (page: Page, name: string) => page.locator(`[data-testid=kanban-column][data-name="${name}"]`);
const cardsIn = (page: Page, name: string) => column(page, name).locator("[data-testid=kanban-card]");
const namesIn = (page: Page, name: string) => cardsIn(page, name).locator("[data-testid=kanban-card-name]").allInnerTexts();

async function openBoard(email: string): Promise<P> {
  const page = (await newPage(browser, { viewport: { width: 1280, height: 760 } })) as P;
  await sessionLogin(page, t.url, email, "/kanban");
  await page.waitForSelector("[data-testid=kanban-board]", { timeout: 30_000 });
  return page;
}

test("two agents on /kanban: one adds a column and drags a card into it, the other sees both live; a ticket card opens its conversation", async () => {
  const one = await openBoard(a.emails.admin);
  const two = await openBoard(a.emails.supervisor);
  try {
    for (const page of [one, two]) {
      await poll(() => namesIn(page, "Novo"), (n) => n.join() === "Carla Souza,Diego Lima", "the board's cards");
      await waitText(column(page, "Novo").locator("[data-testid=kanban-column-total]"), "1.750,50");
    }
    // The menu has the plugin's entry.
    await one.waitForSelector("[data-testid=main-menu] >> text=Kanban");

    // Agent one adds a column through the form; agent two's board gets it without a reload.
    await one.click("[data-testid=kanban-new-column]");
    await one.click(".ant-modal .ant-btn-primary");
    await one.waitForSelector(".ant-modal >> text=Informe o nome da coluna");
    await one.fill("[data-testid=kanban-column-name-input]", "Ganho");
    await one.click(".ant-modal .ant-btn-primary");
    await column(one, "Ganho").waitFor();
    await column(two, "Ganho").waitFor({ timeout: 15_000 });

    // Agent one drags Carla's card onto the new column; agent two sees it move.
    const card = cardsIn(one, "Novo").filter({ hasText: "Carla Souza" });
    await card.dragTo(column(one, "Ganho").locator("[data-testid=kanban-column-cards]"), { targetPosition: { x: 100, y: 30 } });
    await poll(() => namesIn(one, "Ganho"), (n) => n.join() === "Carla Souza", "the card in Ganho on agent one's board");
    await poll(() => namesIn(two, "Ganho"), (n) => n.join() === "Carla Souza", "the card in Ganho on agent two's board", 15_000);
    await poll(() => namesIn(two, "Novo"), (n) => n.join() === "Diego Lima", "Novo without the card on agent two's board");
    await waitText(column(two, "Ganho").locator("[data-testid=kanban-column-total]"), "1.500,00");
    await waitText(column(two, "Ganho").locator("[data-testid=kanban-column-count]"), "1");
    await waitText(column(two, "Novo").locator("[data-testid=kanban-column-total]"), "250,50");
    await shot(one, "kanban-agent-one-dragged");
    await shot(two, "kanban-agent-two-live");

    // Agent one puts another ticket on the board by searching for it, with a lead value.
    await one.click("[data-testid=kanban-add-card]");
    await one.fill("input[data-testid=kanban-card-search], [data-testid=kanban-card-search] input", "Elisa");
    await one.locator("[data-testid=kanban-card-hit]", { hasText: "Elisa Prado" }).click();
    await one.click("[data-testid=kanban-card-column]");
    await one.locator(".ant-select-dropdown .ant-select-item-option", { hasText: "Ganho" }).click();
    await one.fill("input[data-testid=kanban-card-lead-input], [data-testid=kanban-card-lead-input] input", "99.9");
    await shot(one, "kanban-add-card");
    await one.click(".ant-modal .ant-btn-primary");
    await poll(() => namesIn(two, "Ganho"), (n) => n.join() === "Carla Souza,Elisa Prado", "the added card on agent two's board", 15_000);
    await waitText(column(two, "Ganho").locator("[data-testid=kanban-column-total]"), "1.599,90");

    // The server agrees: the card is in the new column, at the top.
    const board = await ok(t.api.get("/kanban/board", agent));
    const ganho = board.columns.find((c: { name: string }) => c.name === "Ganho");
    expect(ganho.cards.map((c: { id: number; position: number }) => [c.id, c.position])[0]).toEqual([ids.card1, 0]);
    expect(ganho.cards.map((c: { leadValue: number }) => c.leadValue)).toEqual([1500, 99.9]);

    // A ticket card opens its conversation.
    await cardsIn(two, "Ganho").locator("[data-testid=kanban-card-name]", { hasText: "Carla Souza" }).click();
    await poll(() => two.evaluate(() => window.location.hash), (h) => h.startsWith(`#/atendimento/${ids.tk1}`), "the conversation's route");

    expect(screenErrors(one)).toEqual([]);
    expect(screenErrors(two)).toEqual([]);
  } finally {
    await one.context().close();
    await two.context().close();
  }
});

test("a FREE tenant opening /kanban sees the notice naming PLUS and is back on /home", async () => {
  const page = (await newPage(browser)) as P;
  try {
    await sessionLogin(page, t.url, free.emails.admin, "/home");
    await page.waitForSelector("[data-testid=main-menu]");
    await page.evaluate(() => (window.location.hash = "#/kanban"));
    await page.waitForSelector(".oa-notice.oa-banner");
    await screenshot(page, "kanban-free-notice");
    expect(await page.textContent(".oa-notice.oa-banner")).toContain("PLUS");
    await poll(() => page.evaluate(() => window.location.hash), (h) => h === "#/home", "back on /home");
    expect(await page.locator("[data-testid=kanban-page]").count()).toBe(0);
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.context().close();
  }
});

