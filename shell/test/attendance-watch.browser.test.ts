/**
 * Attendance gaps of spec §2/§4 in a real browser against a real core: the agent switches
 * themselves offline and online in the header (the API records it); picks the ticket order
 * "oldest first", which stays after a reload (kept in their filter); opens a waiting ticket
 * and only watches it — nothing read, nobody assigned — then takes it.
 */
import type { Browser } from "playwright-core";
import { startCore, createTenant, uid, PASSWORD, type TestCore, type TenantFixture } from "@openatende/core/testkit";
import { launchBrowser, newPage, poll, screenErrors, screenshot, sessionLogin, waitAttr, waitText } from "./browser";

jest.setTimeout(180_000);

describe("attendance: presence, order and watching in Chromium", () => {
  let t: TestCore;
  let f: TenantFixture;
  let browser: Browser;

  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t, { tier: "PLUS" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it("toggles online/offline, keeps the chosen order across a reload, watches a waiting ticket and then takes it", async () => {
    const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: f.queueIds[0], settings: { title: "Loja" } }, f.admin);
    expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).status).toBe(200);
    const b0 = Date.now() - 600_000;
    const made: number[] = [];
    for (const [i, name] of ["Ana Souza", "Bruno Lima", "Carla Dias"].entries()) {
      const r = (await t.core.broker.call("channels.inbound", { tenantId: f.tenantId, connectionId: c.body.id, providerMessageId: `p-${uid()}`, timestamp: b0 + i * 60_000, from: { externalId: `e-${uid()}`, name }, body: `Olá, sou ${name}` })) as { ticketId: number };
      made.push(r.ticketId);
    }
    const statusOf = async () => (await t.api.get(`/users/${f.agent.userId}`, f.admin)).body.status as string;

    const page = await newPage(browser);
    await sessionLogin(page, t.url, f.emails.agent, "/atendimento");
    const rows = page.locator("[data-testid=ticket-row]");
    const order = async () => Promise.all((await rows.all()).map(async (r) => Number(await r.getAttribute("data-ticket-id"))));
    await poll(order, (ids) => ids.length === 3, "three tickets listed", 30_000);

    // Presence: online after the login; off, then on again, and the API agrees.
    const presence = page.locator("[data-testid=presence]");
    await waitAttr(presence, "data-status", "online");
    await page.click("[data-testid=presence-toggle]");
    await waitAttr(presence, "data-status", "offline");
    await poll(statusOf, (s) => s === "offline", "the agent offline in the API");
    await screenshot(page, "attendance-presence-offline");
    await page.click("[data-testid=presence-toggle]");
    await waitAttr(presence, "data-status", "online");
    await poll(statusOf, (s) => s === "online", "the agent online in the API");

    // Order: newest first by default; oldest first once picked, and still after a reload.
    expect(await order()).toEqual([...made].reverse());
    await page.click("[data-testid=filters-button]");
    // The choice is made once the control shows it (a click on the panel while it still opens,
    // on a loaded machine, can miss: clicked again then); the list's reload is what is checked.
    const oldestChosen = () => page.locator("[data-testid=filter-order] .ant-segmented-item-selected [data-testid=order-oldest]").count();
    const chooseOldest = async () => {
      if (!(await oldestChosen())) await page.click("[data-testid=order-oldest]", { timeout: 2000 }).catch(() => undefined);
      return oldestChosen();
    };
    await poll(chooseOldest, (n) => n === 1, "oldest first chosen");
    await poll(order, (ids) => JSON.stringify(ids) === JSON.stringify(made), "oldest first");
    await screenshot(page, "attendance-order-oldest");
    await page.reload();
    await poll(order, (ids) => JSON.stringify(ids) === JSON.stringify(made), "oldest first after a reload", 30_000);
    expect((await t.api.get(`/users/${f.agent.userId}`, f.admin)).body.configs.filtrosAtendimento.orderBy).toBe("oldest");

    // Watch: the oldest waiting ticket opens read-only; nothing is read, nobody holds it.
    await rows.first().click();
    await page.waitForSelector(`[data-testid=chat-pane][data-ticket-id="${made[0]}"]`);
    await page.waitForSelector("[data-testid=watching-chip]");
    await page.waitForSelector("[data-testid=composer-blocked]");
    await page.locator(".oa-bubble, [data-testid=message]").first().waitFor({ timeout: 10_000 }).catch(() => undefined);
    await screenshot(page, "attendance-watching");
    const watched = (await t.api.get(`/tickets/${made[0]}`, f.admin)).body;
    expect({ status: watched.status, userId: watched.userId, unread: watched.unreadMessages }).toEqual({ status: "pending", userId: null, unread: 1 });
    const unreadMessages = async () => ((await t.api.get(`/messages/${made[0]}`, f.admin)).body.messages as Array<{ fromMe: boolean; read: boolean }>).filter((m) => !m.fromMe && !m.read).length;
    expect(await unreadMessages()).toBe(1);

    // Take: the ticket is the agent's, the composer opens, the watch ends.
    await page.click("[data-testid=composer-accept]");
    await page.waitForFunction(() => document.querySelector("[data-testid=chat-status]")?.textContent === "Com você");
    await page.waitForSelector("[data-testid=composer-input]");
    expect(await page.locator("[data-testid=watching-chip]").count()).toBe(0);
    const taken = (await t.api.get(`/tickets/${made[0]}`, f.admin)).body;
    expect({ status: taken.status, userId: taken.userId }).toEqual({ status: "open", userId: f.agent.userId });
    // Taken: now the agent reads the message.
    await poll(unreadMessages, (n) => n === 0, "the message read by the new holder");
    await screenshot(page, "attendance-taken");

    // A colleague's open ticket: the agent only watches it (no composer, nothing to take).
    const email2 = `bruna-${uid()}@t.test`;
    expect((await t.api.post("/users", { name: "Bruna Colega", email: email2, password: PASSWORD, profile: "user", queues: [f.queueIds[0]] }, f.admin)).status).toBe(201);
    const agent2 = await t.api.login(email2);
    expect((await t.api.put(`/tickets/${made[1]}`, { status: "open" }, agent2)).status).toBe(200);
    await rows.filter({ hasText: "Bruno Lima" }).click();
    await page.waitForSelector(`[data-testid=chat-pane][data-ticket-id="${made[1]}"]`);
    await waitText(page.locator("[data-testid=watch-bar]"), "Com Bruna Colega");
    expect(await page.locator("[data-testid=composer-input]").count()).toBe(0);
    expect(await page.locator("[data-testid=watch-take]").count()).toBe(0);
    await page.waitForSelector("[data-testid=watching-chip]");

    // The supervisor sees the team's presence live, watches the colleague's ticket and takes it over.
    const sup = await newPage(browser);
    await sessionLogin(sup, t.url, f.emails.supervisor, `/atendimento/${made[1]}`);
    await sup.waitForSelector("[data-testid=watch-take]");
    await sup.waitForFunction(() => (window as any).__openatende?.realtime.status === "connected", null, { timeout: 20_000 });
    await page.click("[data-testid=presence-toggle]");
    await waitAttr(presence, "data-status", "offline");
    await sup.click("[data-testid=action-transfer]");
    await sup.locator("[data-testid=transfer-user]").click();
    const agentOption = sup.locator("[data-testid=transfer-user-option]").filter({ hasText: "Agent" }).first();
    await waitAttr(agentOption, "data-status", "offline");
    await screenshot(sup, "attendance-team-presence");
    await page.click("[data-testid=presence-toggle]");
    await waitAttr(agentOption, "data-status", "online");
    await sup.keyboard.press("Escape");
    await sup.locator(".ant-modal-close").click();
    await sup.locator(".ant-modal").waitFor({ state: "hidden" });
    await sup.click("[data-testid=watch-take]");
    await sup.waitForFunction(() => document.querySelector("[data-testid=chat-status]")?.textContent === "Com você");
    await sup.waitForSelector("[data-testid=composer-input]");
    expect((await t.api.get(`/tickets/${made[1]}`, f.admin)).body.userId).toBe(f.supervisor.userId);
    expect(screenErrors(page)).toEqual([]);
    expect(screenErrors(sup)).toEqual([]);
  });
});
