/**
 * The web-chat widget in a real browser (Debian's Chromium driven by playwright-core): a
 * visitor page sends, a socket client standing in for an agent sees the ticket live and
 * replies through the API, and the visitor sees the reply in the widget.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as http from "node:http";
import { chromium, Browser } from "playwright-core";
import { io as ioClient } from "socket.io-client";
import { startCore, createTenant, TestCore, TenantFixture } from "@openatende/core/testkit";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = path.resolve(__dirname, "../../../artifacts/screenshots");

describe("web-chat widget in Chromium", () => {
  let t: TestCore;
  let f: TenantFixture;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
    t = await startCore();
    f = await createTenant(t, { tier: "PLUS" });
    const c = await t.api.post("/connections", { name: "Loja", type: "channel-webchat", queueId: f.queueIds[0], settings: { title: "Fale com a Loja", mainColor: "#0a7d4f" } }, f.admin);
    expect(c.status).toBe(201);
    token = c.body.token;
    expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).body.status).toBe("connected");
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it("a visitor writes, the agent sees it live and replies, the visitor reads the reply", async () => {
    const events: Array<{ event: string; payload: any }> = [];
    const agent = ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth: { token: f.agent.token, sessionId: f.agent.sessionId }, reconnection: false });
    agent.onAny((event, payload) => events.push({ event, payload }));
    await new Promise((resolve, reject) => {
      agent.on("ready", resolve);
      agent.on("connect_error", reject);
    });
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    try {
      await page.goto(`${t.url}/api/webchat/${token}/page`);
      await page.click("#oa-webchat-button");
      await page.waitForSelector("#oa-webchat-panel.oa-open");
      expect(await page.textContent("#oa-webchat-head")).toBe("Fale com a Loja");
      await page.fill("#oa-webchat-input", "Vocês entregam no sábado?");
      await page.click("#oa-webchat-send");
      await page.waitForSelector(".oa-msg.oa-out");

      // The agent's socket gets the new ticket live.
      const t0 = Date.now();
      while (!events.some((e) => e.payload?.type === "chat:create") && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50));
      const created = events.find((e) => e.event === `${f.tenantId}:ticketList` && e.payload?.type === "chat:create");
      expect(created?.payload.payload.body).toBe("Vocês entregam no sábado?");
      const ticketId = created!.payload.payload.ticket.id as number;

      expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.agent)).status).toBe(200);
      expect((await t.api.post(`/messages/${ticketId}`, { body: "Sim, das 9h às 13h!" }, f.agent)).status).toBe(201);

      await page.waitForSelector(".oa-msg.oa-in:has-text('Sim, das 9h às 13h!')", { timeout: 15_000 });
      await page.screenshot({ path: path.join(ARTIFACTS, "webchat-widget-reply.png") });
      expect(pageErrors).toEqual([]);
    } finally {
      agent.disconnect();
      await page.close();
    }
  });

  it("works embedded on another site (cross-origin), while that site still cannot call the agents' API", async () => {
    const site = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html><body><h1>Loja parceira</h1><script src="${t.url}/api/webchat/widget.js" data-token="${token}"></script></body></html>`);
    });
    await new Promise<void>((r) => site.listen(0, "127.0.0.1", () => r()));
    const siteUrl = `http://localhost:${(site.address() as { port: number }).port}/`;
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on("requestfailed", (r) => failed.push(r.url()));
    try {
      await page.goto(siteUrl);
      await page.click("#oa-webchat-button");
      await page.fill("#oa-webchat-input", "Oi, vim do site parceiro");
      await page.click("#oa-webchat-send");
      await page.waitForSelector(".oa-msg.oa-out");
      // The message reached the core as a ticket of this tenant.
      const t0 = Date.now();
      let found = false;
      while (!found && Date.now() - t0 < 10_000) {
        const r = await t.api.get("/tickets?status=pending&showAll=true", f.admin);
        found = r.body.tickets.some((x: { lastMessage: string }) => x.lastMessage === "Oi, vim do site parceiro");
        if (!found) await new Promise((r2) => setTimeout(r2, 100));
      }
      expect(found).toBe(true);
      expect(failed).toEqual([]);
      // The same site calling an agent route is refused by the same-origin rule.
      const status = await page.evaluate(async (api) => {
        const r = await fetch(`${api}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "x@y.z", password: "Abcdefg1" }) }).catch(() => null);
        return r ? r.status : "blocked";
      }, t.url);
      expect(status).toBe("blocked"); // preflight refused: no CORS for agent routes
      await page.screenshot({ path: path.join(ARTIFACTS, "webchat-widget-cross-origin.png") });
    } finally {
      await page.close();
      site.close();
    }
  });
});
