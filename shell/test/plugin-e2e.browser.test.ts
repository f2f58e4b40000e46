/**
 * Step 5 end to end: a third party's channel plugin from nothing to a customer's message in a
 * ticket. The SDK's command line (the real bin) creates a channel plugin in a temp folder, runs
 * its tests (the conformance kit), packs it and publishes it to a running platform's
 * marketplace with a publisher token; the platform level installs it (it runs in a plugin node
 * of its own, from DATA_DIR/plugins/<id>/<version>/) and allows it for tenant A only. In a real
 * browser, A's admin finds its connection type with its own connect form (the plugin's UI
 * remote, served from the install folder) and makes a connection with it; B's admin is not
 * offered the type. A message posted to the plugin's webhook lands in a ticket of A, and the
 * agent's reply goes out through the plugin to the customer's endpoint.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { createSuper, createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, poll, screenErrors, sessionLogin, shot, waitCount, waitText } from "./browser";
import { createToEnabled, type PathResult } from "../../marketplace/test/publish-path";

jest.setTimeout(900_000);

let t: TestCore;
let sup: Auth;
let a: TenantFixture;
let b: TenantFixture;
/** Second admins for API checks: a browser login ends that user's API session. */
let adminA2: Auth;
let adminB2: Auth;
let browser: Browser;
let parent: string;
let result: PathResult;
/** What the customer's side of the channel (the plugin's outboundUrl) received. */
const received: Array<Record<string, unknown>> = [];
let customer: http.Server;
let customerUrl: string;

const id = `channel-acme-${uid().slice(0, 6)}`;
const secret = "segredo-da-acme-123";

beforeAll(async () => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), "oa-e2e-plugin-"));
  customer = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.method === "POST") {
        received.push({ ...(JSON.parse(body || "{}") as Record<string, unknown>), secretHeader: req.headers["x-webhook-secret"] });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: `acme-${received.length}` }));
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      }
    });
  });
  await new Promise<void>((r) => customer.listen(0, "127.0.0.1", r));
  customerUrl = `http://127.0.0.1:${(customer.address() as AddressInfo).port}/acme/inbox`;

  t = await startCore({ env: { PLUGIN_INSTALLS: "true", NAMESPACE: `e2e-${uid()}` } });
  sup = await createSuper(t);
  a = await createTenant(t, { tier: "BASIC", name: `Aurora ${uid()}` });
  b = await createTenant(t, { tier: "BASIC", name: `Boreal ${uid()}` });
  await acceptTerms(t, a);
  await acceptTerms(t, b);
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: a.tenantId, name: "Admin Dois", email, password: PASSWORD, profile: "admin" });
  adminA2 = await t.api.login(email);
  const emailB = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: b.tenantId, name: "Admin Dois", email: emailB, password: PASSWORD, profile: "admin" });
  adminB2 = await t.api.login(emailB);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await new Promise((r) => customer?.close(r));
  if (parent) fs.rmSync(parent, { recursive: true, force: true });
});

test("create → test → pack → publish → install → enabled for tenant A, with the commands and the wall time", async () => {
  const pub = await t.api.post("/marketplace/publishers", { name: "Acme Integrações", email: `dev-${uid()}@acme.test` }, sup);
  expect(pub.status).toBe(201);
  result = await createToEnabled({ id, parent, url: t.url, api: t.api, superAuth: sup, publisherToken: pub.body.token, tenantId: a.tenantId });
  expect(result.steps.map((s) => s.step)).toEqual(["create", "test", "pack", "publish", "install", "enable for the tenant"]);
  fs.mkdirSync(path.join(__dirname, "../../artifacts"), { recursive: true });
  fs.writeFileSync(path.join(__dirname, "../../artifacts/plugin-path.json"), JSON.stringify({ commands: result.commands, wallMs: result.wallMs, steps: result.steps }, null, 2));

  // In the catalogue, installed, running in its own node from the install folder.
  const version = (JSON.parse(fs.readFileSync(path.join(result.folder, "package.json"), "utf8")) as { version: string }).version;
  const detail = await t.api.get(`/marketplace/plugins/${id}`, sup);
  expect(detail.body).toMatchObject({ id, kind: "channel", latestVersion: version, installed: { version } });
  const installed = (await t.api.get("/plugins/installed", sup)).body.find((p: { id: string }) => p.id === id);
  expect(installed).toMatchObject({ version, running: true });
  expect(fs.existsSync(path.join(t.config.dataDir, "plugins", id, version, "dist/server/index.js"))).toBe(true);
  expect(t.core.broker.services.some((s) => s.name === id)).toBe(false);
  const remote = (t.core.broker.registry.getServiceList({ onlyAvailable: true }) as Array<{ name: string; nodeID: string }>).find((s) => s.name === id);
  expect(remote?.nodeID).toBeDefined();
  expect(remote!.nodeID).not.toBe(t.core.broker.nodeID);

  // A may use it now; B may not.
  expect((await t.api.get("/plugins/enabled", adminA2)).body.map((p: { id: string }) => p.id)).toContain(id);
  expect((await t.api.get("/plugins/enabled", b.admin)).body.map((p: { id: string }) => p.id)).not.toContain(id);
});

test("tenant A's admin connects with the plugin's own form in the browser; tenant B's admin is not offered it", async () => {
  expect(result).toBeDefined();
  const page = await newPage(browser);
  try {
    await sessionLogin(page, t.url, a.emails.admin, "/configuracoes/canais");
    await page.waitForSelector('[data-testid="channels-page"]', { timeout: 15_000 });
    await page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 15_000 });
    await page.click('[data-testid="channel-new"]');
    await page.click(`[data-testid="channel-type-${id}"]`);
    const d = page.locator(".ant-drawer-body").last();
    const form = d.locator(`[data-testid="${id}-connect-form"]`);
    await form.waitFor({ timeout: 20_000 }).catch(async (err: Error) => {
      await shot(page, "plugin-e2e-connect-form-missing");
      throw new Error(`${err.message}\npage errors: ${page.errors.join("\n")}`);
    });
    await d.locator('[data-testid="channel-name"]').fill("Acme SMS");
    await shot(page, "plugin-e2e-connect-form");
    // The plugin's own rules: both fields required, before any request.
    await page.click('[data-testid="channel-save"]');
    await poll(() => form.locator(".ant-form-item-explain-error").count(), (n) => n >= 2, "the form's errors");
    await shot(page, "plugin-e2e-connect-form-errors");
    await d.locator(`#${id}-outboundUrl`).fill(customerUrl);
    await d.locator(`#${id}-secret`).fill(secret);
    await page.click('[data-testid="channel-save"]');
    await waitCount(page.locator(".ant-drawer-body"), 0, 15_000);
    await waitCount(page.locator(".ant-table-tbody tr.ant-table-row", { hasText: "Acme SMS" }), 1);
    await shot(page, "plugin-e2e-connection-saved");
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.close();
  }

  const pageB = await newPage(browser);
  try {
    await sessionLogin(pageB, t.url, b.emails.admin, "/configuracoes/canais");
    await pageB.waitForSelector('[data-testid="channels-page"]', { timeout: 15_000 });
    await pageB.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 15_000 });
    await pageB.click('[data-testid="channel-new"]');
    await pageB.waitForSelector('[data-testid="channel-type-chooser"]');
    await pageB.waitForSelector('[data-testid="channel-type-channel-webchat"]');
    expect(await pageB.locator(`[data-testid="channel-type-${id}"]`).count()).toBe(0);
    await shot(pageB, "plugin-e2e-tenant-b-types");
    // Nor does its remote reach B's shell.
    expect(await pageB.evaluate((pid) => ((window as any).__openatende?.plugins.enabled ?? []).some((p: { id: string }) => p.id === pid), id)).toBe(false);
  } finally {
    await pageB.close();
  }
});

test("a customer's message flows through the plugin into a ticket of tenant A, and the reply goes back out", async () => {
  const conn = ((await t.api.get("/connections", adminA2)).body as Array<{ id: number; name: string; type: string }>).find((c) => c.name === "Acme SMS")!;
  expect(conn.type).toBe(id);
  const connected = await t.api.post(`/connections/${conn.id}/connect`, {}, adminA2);
  expect(connected.status).toBe(200);
  const full = (await t.api.get(`/connections/${conn.id}`, adminA2)).body as { token: string };
  const inbound = `${t.url}/api/${result.type}/${full.token}/messages`;
  const text = `Olá, quero saber do meu pedido ${uid()}`;

  // A wrong secret stores nothing.
  const refused = await fetch(inbound, { method: "POST", headers: { "content-type": "application/json", "x-webhook-secret": "errado-errado" }, body: JSON.stringify({ id: "m-0", from: "5511999990000", name: "Carla Souza", text }) });
  expect(refused.status).toBe(401);

  const post = () => fetch(inbound, { method: "POST", headers: { "content-type": "application/json", "x-webhook-secret": secret }, body: JSON.stringify({ id: "m-1", from: "5511999990000", name: "Carla Souza", text }) });
  expect((await post()).status).toBe(200);
  // The same message again (a retry) is the same message.
  expect((await post()).status).toBe(200);

  const tickets = await poll(
    async () => ((await t.api.get("/tickets?status=pending,open&showAll=true", adminA2)).body.tickets ?? []) as Array<{ id: number; connectionId: number }>,
    (rows) => rows.some((r) => r.connectionId === conn.id),
    "the ticket of the plugin's message",
    20_000,
  );
  const ticket = tickets.find((r) => r.connectionId === conn.id)!;
  const messages = (await t.api.get(`/messages/${ticket.id}`, adminA2)).body.messages as Array<{ fromMe: boolean; body: string }>;
  expect(messages.map((m) => [m.fromMe, m.body])).toEqual([[false, text]]);
  // B sees nothing of it.
  expect((await t.api.get(`/tickets/${ticket.id}`, adminB2)).status).toBe(404);
  expect(((await t.api.get("/tickets?status=pending,open&showAll=true", adminB2)).body.tickets ?? []).length).toBe(0);

  const reply = "Oi, Carla! Seu pedido saiu hoje.";
  expect((await t.api.post(`/messages/${ticket.id}`, { body: reply }, adminA2)).status).toBe(201);
  const out = await poll(async () => received.filter((r) => r.text === reply), (r) => r.length === 1, "the reply at the customer's endpoint", 20_000);
  expect(out[0]).toMatchObject({ to: "5511999990000", text: reply, secretHeader: secret });
});

test("the platform level takes the plugin away from tenant A: A's open screen follows at once, and gets it back", async () => {
  const page = await newPage(browser);
  const has = () => page.evaluate((pid) => ((window as any).__openatende?.plugins.enabled ?? []).some((p: { id: string }) => p.id === pid), id);
  try {
    await sessionLogin(page, t.url, a.emails.admin, "/configuracoes/canais");
    await page.waitForSelector('[data-testid="channels-page"]', { timeout: 15_000 });
    await page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 15_000 });
    await page.waitForFunction(() => (window as any).__openatende?.realtime.status === "connected", null, { timeout: 20_000 });
    expect(await has()).toBe(true);
    const conn = ((await t.api.get("/connections", adminA2)).body as Array<{ id: number; name: string }>).find((c) => c.name === "Acme SMS")!;
    const status = page.locator(`[data-testid="channel-status-${conn.id}"]`);
    await page.evaluate(() => ((window as any).__noReload = true));

    expect((await t.api.put(`/plugins/${id}/tenants/${a.tenantId}`, { allowed: false }, sup)).status).toBe(200);
    await poll(has, (v) => v === false, "the plugin gone from the open shell", 15_000);
    await poll(() => status.getAttribute("data-status"), (s) => s === "inactive", "the connection shown inactive", 15_000);
    await waitText(page.locator(`[data-testid="channel-inactive-reason-${conn.id}"]`), "Módulo não liberado");
    await page.click('[data-testid="channel-new"]');
    await page.waitForSelector('[data-testid="channel-type-chooser"]');
    expect(await page.locator(`[data-testid="channel-type-${id}"]`).count()).toBe(0);
    await shot(page, "plugin-e2e-taken-away");
    await page.locator(".ant-drawer-close").click();
    // The messages of a connection taken away are refused, nothing stored.
    const full = (await t.api.get(`/connections/${conn.id}`, adminA2)).body as { token: string };
    const refused = await fetch(`${t.url}/api/${result.type}/${full.token}/messages`, { method: "POST", headers: { "content-type": "application/json", "x-webhook-secret": secret }, body: JSON.stringify({ id: "m-9", from: "5511999990000", name: "Carla Souza", text: "ainda aí?" }) });
    expect(refused.status).toBeGreaterThanOrEqual(400);

    expect((await t.api.put(`/plugins/${id}/tenants/${a.tenantId}`, { allowed: true }, sup)).status).toBe(200);
    await poll(has, (v) => v === true, "the plugin back in the open shell", 15_000);
    await poll(() => status.getAttribute("data-status"), (s) => s !== "inactive", "the connection active again", 15_000);
    // All of it without a page load.
    expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.close();
  }
});
