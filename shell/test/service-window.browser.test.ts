/**
 * The 24-hour window of the WhatsApp Cloud API (Step 11 item 2) in a real browser against a
 * real core and channel-waba (its Graph API a local fake): a customer who last wrote 25 hours
 * ago cannot be answered with free text — the composer gives way to the plugin's template
 * picker, which says the window closed — and once they write again the composer is back, live. A linked-device-like
 * channel without a window (web chat) keeps its composer whatever the age of the last message.
 */
import type { Browser } from "playwright-core";
import { startCore, createTenant, uid, type TestCore, type TenantFixture } from "@openatende/core/testkit";
import { launchBrowser, newPage, poll, screenErrors, screenshot, sessionLogin } from "./browser";
import { FakeGraph } from "../../plugins/channel-waba/test/fake-graph";

jest.setTimeout(180_000);

const HOUR = 3_600_000;

describe("the customer-service window in the chat", () => {
  let t: TestCore;
  let f: TenantFixture;
  let graph: FakeGraph;
  let browser: Browser;

  beforeAll(async () => {
    graph = await FakeGraph.start();
    t = await startCore({ env: { OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
    // PLUS: the free plan allows one connection, and this test makes two.
    f = await createTenant(t, { tier: "PLUS" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    await graph?.close();
  });

  /** A connection made and connected through the API, as an admin does. */
  async function connection(type: string, settings: Record<string, unknown>): Promise<number> {
    const c = await t.api.post("/connections", { name: `${type} ${uid()}`, type, queueId: f.queueIds[0], settings }, f.admin);
    expect(c.status).toBe(201);
    expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).status).toBe(200);
    return c.body.id as number;
  }

  /** A customer's message with the channel's timestamp `at`; answers its ticket. */
  async function inbound(connectionId: number, externalId: string, at: number, body: string): Promise<number> {
    const r = (await t.core.broker.call("channels.inbound", { tenantId: f.tenantId, connectionId, providerMessageId: `wamid.${uid()}`, timestamp: at, from: { externalId, name: "Cliente Antigo" }, body })) as { ticketId: number };
    return r.ticketId;
  }

  it("offers no free text after 24 hours without the customer, and the composer again when they write", async () => {
    const n = graph.addNumber();
    const waba = await connection("channel-waba", { phoneNumberId: n.pnid, accessToken: n.token, businessAccountId: n.wabaId, appId: "123456789012345", apiVersion: "v23.0", verifyToken: "verify-me-please-42", appSecret: "0123456789abcdef0123456789abcdef", graphUrl: graph.url });
    const customer = `55119${String(Date.now()).slice(-8)}`;
    const ticketId = await inbound(waba, customer, Date.now() - 25 * HOUR, "Oi, vocês abrem amanhã?");
    // The agent took it (the API's accept), then opens it.
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.agent)).status).toBe(200);
    const api = await t.api.get(`/tickets/${ticketId}`, f.agent);
    // Nothing from the customer within the last 24 hours: closed, with no time it closes at.
    expect(api.body.serviceWindow).toEqual({ hours: 24, open: false, lastInboundAt: null, closesAt: null });

    const page = await newPage(browser);
    await sessionLogin(page, t.url, f.emails.agent, `/atendimento/${ticketId}`);
    // channel-waba's template picker takes the composer's place (the shell's own notice, data-testid=window-closed, is for channels without one).
    await page.waitForSelector("[data-testid=composer-replacement-channel-waba-template-picker]", { timeout: 30_000 });
    expect(await page.locator("[data-testid=composer]").count()).toBe(0);
    expect(await page.locator("[data-testid=composer-replacement-channel-waba-template-picker]").innerText()).toMatch(/janela de 24 horas/i);
    await screenshot(page, "service-window-closed");

    // The customer writes again: the window opens, live, and the composer is back.
    await inbound(waba, customer, Date.now(), "Alguém aí?");
    await page.waitForSelector("[data-testid=composer]", { timeout: 30_000 });
    expect(await page.locator("[data-testid=composer-replacement-channel-waba-template-picker]").count()).toBe(0);
    // (The admin asks: the browser's login ended the agent's API session, one session per user.)
    expect((await t.api.get(`/tickets/${ticketId}`, f.admin)).body.serviceWindow).toMatchObject({ hours: 24, open: true });
    await screenshot(page, "service-window-open-again");

    // Web chat has no window: an old conversation keeps its composer.
    const site = await connection("channel-webchat", { title: "Loja" });
    const old = await inbound(site, `v-${uid()}`, Date.now() - 48 * HOUR, "Mensagem antiga");
    expect((await t.api.put(`/tickets/${old}`, { status: "open", userId: f.agent.userId }, f.admin)).status).toBe(200);
    expect((await t.api.get(`/tickets/${old}`, f.admin)).body.serviceWindow).toBeUndefined();
    await page.goto(`${t.url}/#/atendimento/${old}`);
    await poll(() => page.locator(`[data-testid=chat-pane][data-ticket-id="${old}"] [data-testid=composer]`).count(), (c) => c === 1, "the web chat's composer");
    expect(await page.locator("[data-testid=composer-replacement-channel-waba-template-picker]").count()).toBe(0);
    expect(screenErrors(page)).toEqual([]);
  });
});
