/**
 * The web-chat widget in a real browser (Debian's Chromium driven by playwright-core): a
 * visitor page sends, a socket client standing in for an agent sees the ticket live and
 * replies through the API, and the visitor sees the reply in the widget.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { chromium, Browser } from "playwright-core";
import { io as ioClient } from "socket.io-client";
import { startCore, createTenant, TestCore, TenantFixture } from "../../../core/test/helpers";

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
});
