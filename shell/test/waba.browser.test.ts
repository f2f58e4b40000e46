/**
 * The official WhatsApp API end to end in a real browser (issue 16): against a real core with
 * channel-waba and a local server speaking Meta's Graph API (plugins/channel-waba/test/
 * fake-graph.ts; the form's "Graph API address" points the plugin at it), an admin makes the
 * connection in /configuracoes/canais with the plugin's own form (its rules, the credentials
 * test against the Graph API, the verify token generated), sees the webhook URL to paste in
 * Meta's dashboard, and connects; a customer's message, POSTed to that URL and signed as Meta
 * signs it, appears live in /atendimento; the agent accepts and replies from the composer, and
 * the Graph API receives the text for the customer's number.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { FakeGraph } from "../../plugins/channel-waba/test/fake-graph";
import { envelope, messagesValue, textMessage } from "../../plugins/channel-waba/test/meta-payloads";
import { launchBrowser, newPage, poll, screenshot, sessionLogin, settled } from "./browser";

jest.setTimeout(240_000);

type P = Page & { errors: string[] };
const APP_SECRET = "0123456789abcdef0123456789abcdef";

let t: TestCore;
let f: TenantFixture;
let graph: FakeGraph;
let browser: Browser;
/** A second admin for API checks: the browser's login ends the first admin's API session. */
let admin2: Auth;

beforeAll(async () => {
  graph = await FakeGraph.start();
  // The fake Graph API is on loopback: the platform allow-lists it (outbound URL policy).
  t = await startCore({ env: { NAMESPACE: `waba-browser-${uid()}`, OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
  f = await createTenant(t, { tier: "BASIC" });
  expect((await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin)).status).toBe(200);
  expect((await t.api.put(`/users/${f.admin.userId}/lgpd-consent`, { accepted: true }, f.admin)).status).toBe(200);
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: "Admin Dois", email, password: PASSWORD, profile: "admin" });
  admin2 = await t.api.login(email);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await graph?.close();
});

const waitCount = (loc: Locator, n: number, timeout?: number) => poll(() => loc.count(), (c) => c === n, `${loc} ×${n}`, timeout);
const waitText = (loc: Locator, s: string, timeout?: number) =>
  poll(() => loc.first().innerText({ timeout: 1000 }).catch(() => ""), (v) => v.includes(s), `${loc} to contain "${s}"`, timeout);
const waitAttr = (loc: Locator, name: string, value: string, timeout?: number) =>
  poll(() => loc.first().getAttribute(name, { timeout: 1000 }).catch(() => null), (v) => v === value, `${loc} [${name}=${value}]`, timeout);
const drawer = (page: Page) => page.locator(".ant-drawer-body").last();
const row = (page: Page, text: string) => page.locator(".ant-table-tbody tr.ant-table-row", { hasText: text });
async function shot(page: Page, name: string) {
  await settled(page);
  await screenshot(page, name);
}
/** This screen's errors: refused calls are logged by Chromium as "Failed to load resource". */
const screenErrors = (page: P) => page.errors.filter((e) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(e));

test("an admin connects a WABA number through the plugin's form; a customer's signed message arrives live and the agent's reply reaches the Graph API", async () => {
  const n = graph.addNumber();
  const page = (await newPage(browser)) as P;
  try {
    await sessionLogin(page, t.url, f.emails.admin, "/configuracoes/canais");
    await page.waitForSelector('[data-testid="channels-page"]', { timeout: 15_000 });
    await page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 15_000 });

    // New → WhatsApp (official API): the plugin's own form, loaded from its remote.
    await page.click('[data-testid="channel-new"]');
    await page.click('[data-testid="channel-type-channel-waba"]');
    const d = drawer(page);
    const form = d.locator('[data-testid="waba-connect-form"]');
    await form.waitFor({ timeout: 15_000 });
    await d.locator('[data-testid="channel-name"]').fill("WhatsApp oficial da loja");
    // The form's own rules stop a save with the fields empty or malformed, before any request.
    await d.locator('[data-testid="waba-phoneNumberId"]').fill("12ab");
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/api/connections")) posts.push(r.url());
    });
    await page.click('[data-testid="channel-save"]');
    await poll(() => form.locator(".ant-form-item-explain-error").count(), (c) => c > 0, "the form's own errors", 10_000);
    expect(posts).toHaveLength(0);
    await shot(page, "waba-form-invalid");

    await d.locator('[data-testid="waba-phoneNumberId"]').fill(n.pnid);
    await d.locator('[data-testid="waba-businessAccountId"]').fill(n.wabaId);
    await d.locator('[data-testid="waba-appId"]').fill("123456789012345");
    await d.locator('[data-testid="waba-accessToken"]').fill(n.token);
    await d.locator('[data-testid="waba-appSecret"]').fill(APP_SECRET);
    await d.locator('[data-testid="waba-verify-generate"]').click();
    expect((await d.locator('[data-testid="waba-verifyToken"]').inputValue()).length).toBeGreaterThanOrEqual(8);
    const version = d.locator('[data-testid="waba-apiVersion"]');
    if (!(await version.inputValue())) await version.fill("v23.0");
    await d.locator(".ant-collapse-header").last().click();
    await d.locator('[data-testid="waba-graphUrl"]').fill(graph.url);
    // The credentials tested against the Graph API before saving.
    await d.locator('[data-testid="waba-test"]').click();
    const result = d.locator('[data-testid="waba-test-result"]');
    await result.waitFor({ timeout: 15_000 });
    await waitText(result, "A Meta aceitou as credenciais");
    await waitText(result, "Loja Teste");
    await shot(page, "waba-form-tested");
    await page.click('[data-testid="channel-save"]');
    await waitCount(page.locator(".ant-drawer-body"), 0, 10_000);
    await waitCount(row(page, "WhatsApp oficial da loja"), 1);
    expect(posts).toHaveLength(1);

    const conn = ((await t.api.get("/connections", admin2)).body as Array<{ id: number; name: string }>).find((c) => c.name === "WhatsApp oficial da loja")!;
    const full = (await t.api.get(`/connections/${conn.id}`, admin2)).body;
    expect(full).toMatchObject({ type: "channel-waba", settings: { phoneNumberId: n.pnid, accessToken: "********", appSecret: "********", graphUrl: graph.url } });

    // The webhook URL to paste in Meta's dashboard is shown on the saved connection.
    await page.click(`[data-testid="channel-edit-${conn.id}"]`);
    const e = drawer(page);
    await e.locator('[data-testid="waba-connect-form"]').waitFor({ timeout: 15_000 });
    await waitText(e.locator('[data-testid="waba-connect-form"]'), `/api/waba/${full.token}/webhook`);
    await shot(page, "waba-form-webhook-url");
    await page.locator(".ant-drawer-close").click();
    await waitCount(page.locator(".ant-drawer-body"), 0);

    // Connect: the Graph API answers, the row shows it connected.
    await page.click(`[data-testid="channel-connect-${conn.id}"]`);
    await waitAttr(page.locator(`[data-testid="channel-status-${conn.id}"]`), "data-status", "connected", 20_000);
    await shot(page, "waba-connected");

    // /atendimento, live: the customer writes; Meta POSTs the signed webhook to the URL shown.
    await page.evaluate(() => (window.location.hash = "#/atendimento"));
    await page.waitForSelector("[data-testid=ticket-list-empty]", { timeout: 15_000 });
    await page.waitForFunction(() => (window as any).__openatende?.realtime.status === "connected", null, { timeout: 20_000 });
    const customer = { waId: `55119${String(Date.now()).slice(-8)}`, name: "Carla Mendes" };
    const question = `Bom dia! Vocês entregam em Campinas? ${uid()}`;
    const delivered = await FakeGraph.deliver(`${t.url}/api/waba/${full.token}/webhook`, envelope([{ wabaId: n.wabaId, changes: [{ value: messagesValue(n.pnid, { contacts: [customer], messages: [textMessage(customer, question)] }) }] }]), APP_SECRET);
    expect(delivered.status).toBe(200);

    const ticketRow = page.locator("[data-testid=ticket-row]").filter({ hasText: question });
    await ticketRow.waitFor({ timeout: 20_000 });
    await waitText(ticketRow, "Carla Mendes");
    expect(await ticketRow.getAttribute("data-status")).toBe("pending");
    const ticketId = Number(await ticketRow.getAttribute("data-ticket-id"));
    await shot(page, "waba-atendimento-live");

    await ticketRow.click();
    await page.waitForSelector(`[data-testid=chat-pane][data-ticket-id="${ticketId}"]`);
    await page.locator("[data-testid=message-body]").filter({ hasText: question }).waitFor();
    await page.click("[data-testid=action-accept]");
    await page.waitForFunction(() => document.querySelector("[data-testid=chat-status]")?.textContent === "Com você");

    // Inside the 24-hour window the composer takes free text; the reply goes to the Graph API.
    expect(await page.locator("[data-testid=waba-template-picker]").count()).toBe(0);
    const reply = "Bom dia, Carla! Entregamos sim, em até 2 dias úteis.";
    await page.fill("[data-testid=composer-input]", reply);
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      (text) => [...document.querySelectorAll("[data-testid=message][data-from-me='1']")].some((m) => m.textContent?.includes(text) && Number(m.getAttribute("data-message-id")) > 0 && !m.querySelector(".oa-tick.is-pending")),
      reply,
      { timeout: 15_000 },
    );
    expect(await page.locator("[data-testid=message-failed]").count()).toBe(0);
    const sent = await poll(async () => graph.sentTo(n.pnid, customer.waId).filter((b) => b.type === "text"), (s) => s.length > 0, "the text for the customer's number");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ messaging_product: "whatsapp", to: customer.waId, type: "text", text: { body: reply } });
    await shot(page, "waba-atendimento-reply");

    const messages = (await t.api.get(`/messages/${ticketId}`, admin2)).body.messages as Array<{ fromMe: boolean; body: string; status: string }>;
    expect(messages.map((m) => [m.fromMe, m.body])).toEqual([
      [false, question],
      [true, reply],
    ]);
    expect(screenErrors(page)).toEqual([]);
  } catch (err) {
    await screenshot(page, "waba-failure").catch(() => undefined);
    throw err;
  } finally {
    await page.close();
  }
});
