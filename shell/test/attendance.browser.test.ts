/**
 * The attendance screen (/atendimento) in a real browser against a real core: a visitor on
 * the web-chat widget writes; the agent sees the ticket appear live, accepts it and replies;
 * the visitor reads the reply; a transfer to the agent's own queue is refused with the API's
 * message; the transfer to queue 2 takes it out of the agent's list and into the list of a
 * second agent who belongs to queue 2, who resolves it. Then a tenant with 1,000 tickets:
 * the list stays a window of rows and scrolls to its end.
 */
import type { Browser, Page } from "playwright-core";
import { startCore, createTenant, PASSWORD, uid, type TestCore, type TenantFixture } from "@openatende/core/testkit";
import { launchBrowser, newPage, notices, screenshot, sessionLogin } from "./browser";

jest.setTimeout(240_000);

type P = Page & { errors: string[] };

/** Grants notifications and records what the page shows through the browser's Notification API. */
async function recordNotifications(page: Page) {
  await page.context().grantPermissions(["notifications"]);
  await page.addInitScript(() => {
    const shown: Array<{ title: string; body?: string; n: any }> = [];
    (window as any).__notified = shown;
    class Recorded {
      static permission = "granted";
      static requestPermission = async () => "granted";
      onclick: (() => void) | null = null;
      onclose: (() => void) | null = null;
      constructor(public title: string, opts?: { body?: string }) {
        shown.push({ title, body: opts?.body, n: this });
      }
      close() {}
    }
    (window as any).Notification = Recorded;
  });
}

async function socketReady(page: Page) {
  await page.waitForFunction(() => (window as any).__openatende?.realtime.status === "connected", null, { timeout: 20_000 });
  // The server joins the socket to its rooms right after connecting.
  await page.waitForTimeout(400);
}

async function webchatConnection(t: TestCore, f: TenantFixture, queueId: number) {
  const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId, settings: { title: "Fale com a Loja", mainColor: "#0a7d4f" } }, f.admin);
  expect(c.status).toBe(201);
  expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).body.status).toBe("connected");
  return { id: c.body.id as number, token: c.body.token as string };
}

/**
 * The page's errors that are this screen's: a refused call answers an HTTP error by design
 * (Chromium logs each as "Failed to load resource"), and plugin remotes not built in this
 * checkout are the plugin loader's concern.
 */
function screenErrors(page: P): string[] {
  return page.errors.filter((e) => !/Failed to load resource: the server responded with a status of (404|409)/.test(e) && !/\/api\/plugins\/[^/]+\/remote\//.test(e));
}

/** Picks an option of the antd Select inside `scope` by its text. */
async function pickOption(page: Page, scope: string, text: string) {
  const option = page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: text }).first();
  for (let i = 0; i < 3; i++) {
    await page.locator(`${scope} .ant-select`).first().click();
    try {
      await option.waitFor({ state: "visible", timeout: 2000 });
      break;
    } catch {
      /* the click closed an open list: open it again */
    }
  }
  await option.click();
  await page.locator(".ant-select-dropdown:visible").waitFor({ state: "hidden" }).catch(() => undefined);
}

describe("attendance screen in Chromium", () => {
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

  it("a visitor writes; the agent sees it live, accepts, replies; a transfer to queue 2 reaches the second agent, who resolves it", async () => {
    const [queue1, queue2] = f.queueIds;
    const conn = await webchatConnection(t, f, queue1);
    const agent2Email = `vendas-${uid()}@t.test`;
    const made = await t.api.post("/users", { name: "Bruna Vendas", email: agent2Email, password: PASSWORD, profile: "user", queues: [queue2] }, f.admin);
    expect(made.status).toBe(201);

    const agent = (await newPage(browser)) as P;
    const agent2 = (await newPage(browser)) as P;
    const visitor = await browser.newPage();
    try {
      await recordNotifications(agent);
      await recordNotifications(agent2);
      await sessionLogin(agent, t.url, f.emails.agent, "/atendimento");
      await agent.waitForSelector("[data-testid=ticket-list-empty]");
      await agent.waitForSelector("[data-testid=chat-empty]");
      await socketReady(agent);
      await sessionLogin(agent2, t.url, agent2Email, "/atendimento");
      await agent2.waitForSelector("[data-testid=ticket-list-empty]");
      await socketReady(agent2);
      await screenshot(agent, "attendance-empty");
      // Marks the page: a reload would lose it.
      await agent.evaluate(() => ((window as any).__noReload = true));

      // The visitor writes on the widget.
      const question = `Vocês entregam no sábado? ${uid()}`;
      await visitor.goto(`${t.url}/api/webchat/${conn.token}/page`);
      await visitor.click("#oa-webchat-button");
      await visitor.fill("#oa-webchat-input", question);
      await visitor.click("#oa-webchat-send");
      await visitor.waitForSelector(".oa-msg.oa-out");

      // The agent sees it live: a pending ("Aguardando") row with the message, unread.
      const row = agent.locator("[data-testid=ticket-row]").filter({ hasText: question });
      await row.waitFor({ timeout: 15_000 });
      expect(await agent.evaluate(() => (window as any).__noReload)).toBe(true);
      expect(await row.getAttribute("data-status")).toBe("pending");
      expect(await row.locator(".oa-state-chip").textContent()).toBe("Aguardando");
      expect(await row.locator(".oa-unread-badge").textContent()).toBe("1");
      const ticketId = Number(await row.getAttribute("data-ticket-id"));
      await screenshot(agent, "attendance-list-live");

      // Spec §6: a notification for the agent of queue 1 (unassigned ticket in their queue), none for queue 2's agent.
      await agent.waitForFunction(() => (window as any).__notified.length === 1);
      expect(await agent.evaluate(() => (window as any).__notified.map((n: any) => n.body))).toEqual([question]);
      expect(await agent2.evaluate(() => (window as any).__notified.length)).toBe(0);

      // Clicking the notification opens the chat: the message, and a composer that asks to accept first.
      await agent.evaluate(() => (window as any).__notified[0].n.onclick());
      await agent.waitForSelector(`[data-testid=chat-pane][data-ticket-id="${ticketId}"]`);
      await agent.locator("[data-testid=message-body]").filter({ hasText: question }).waitFor();
      await agent.waitForSelector("[data-testid=composer-blocked]");
      expect(agent.url()).toContain(`#/atendimento/${ticketId}`);
      // Clicking the chat already open does not open it again (spec §2).
      const before = agent.url();
      await row.click();
      expect(agent.url()).toBe(before);

      await agent.click("[data-testid=action-accept]");
      await agent.waitForFunction(() => document.querySelector("[data-testid=chat-status]")?.textContent === "Com você");
      await agent.locator("[data-testid=ticket-row][data-status=open]").filter({ hasText: question }).waitFor();

      // The reply, from the composer.
      const reply = "Sim! Entregamos aos sábados das 9h às 13h.";
      await agent.fill("[data-testid=composer-input]", reply);
      await agent.keyboard.press("Enter");
      const mine = agent.locator("[data-testid=message][data-from-me='1']").filter({ hasText: reply });
      await mine.waitFor();
      await agent.waitForFunction(
        (text) => [...document.querySelectorAll("[data-testid=message][data-from-me='1']")].some((m) => m.textContent?.includes(text) && Number(m.getAttribute("data-message-id")) > 0 && !m.querySelector(".oa-tick.is-pending")),
        reply,
      );
      expect(await agent.locator("[data-testid=message-failed]").count()).toBe(0);
      await visitor.waitForSelector(`.oa-msg.oa-in:has-text("${reply}")`, { timeout: 15_000 });
      // The row shows the reply as the last message, and no unread count.
      await agent.locator("[data-testid=ticket-row]").filter({ hasText: reply }).waitFor();
      expect(await agent.locator(`[data-testid=ticket-row][data-ticket-id="${ticketId}"] .oa-unread-badge`).count()).toBe(0);
      await screenshot(agent, "attendance-chat-open");

      // A note on the ticket.
      if (!(await agent.locator("[data-testid=contact-panel]").count())) await agent.click("[data-testid=toggle-contact]");
      await agent.click("[data-testid=notes-tab]");
      await agent.fill("[data-testid=note-input]", "Cliente quer entrega no sábado.");
      await agent.click("[data-testid=note-add]");
      await agent.locator("[data-testid=note]").filter({ hasText: "Cliente quer entrega no sábado." }).waitFor();
      await agent.click("[data-testid=contact-close]");

      // Transfer to its own queue: refused by the API, its message shown in the modal.
      await agent.click("[data-testid=action-transfer]");
      await agent.waitForSelector("[data-testid=transfer-modal]");
      await pickOption(agent, "[data-testid=transfer-modal]", "Suporte");
      await agent.click("[data-testid=transfer-submit]");
      const err = agent.locator("[data-testid=transfer-error]");
      await err.waitFor();
      expect((await notices(agent)).some((n) => n.kind === "error")).toBe(true);
      await screenshot(agent, "attendance-transfer-refused");

      // Transfer to queue 2: it leaves the agent (not in queue 2)…
      await pickOption(agent, "[data-testid=transfer-modal]", "Vendas");
      await agent.click("[data-testid=transfer-submit]");
      await agent.waitForSelector("[data-testid=transfer-modal]", { state: "detached" });
      await agent.waitForSelector(`[data-testid=ticket-row][data-ticket-id="${ticketId}"]`, { state: "detached", timeout: 10_000 });
      await agent.waitForSelector("[data-testid=chat-empty]");

      // …and reaches the second agent live, waiting in queue 2.
      const row2 = agent2.locator(`[data-testid=ticket-row][data-ticket-id="${ticketId}"]`);
      await row2.waitFor({ timeout: 15_000 });
      expect(await row2.getAttribute("data-status")).toBe("pending");
      expect(await row2.locator(".oa-queue-chip").textContent()).toBe("Vendas");
      await row2.click();
      await agent2.locator("[data-testid=message-body]").filter({ hasText: reply }).waitFor();
      await agent2.click("[data-testid=action-accept]");
      await agent2.waitForFunction(() => document.querySelector("[data-testid=chat-status]")?.textContent === "Com você");
      await screenshot(agent2, "attendance-second-agent");
      await agent2.click("[data-testid=action-resolve]");
      await agent2.waitForFunction(() => document.querySelector("[data-testid=chat-status]")?.textContent === "Resolvido");
      await agent2.waitForSelector("[data-testid=composer-blocked]");
      await agent2.waitForSelector(`[data-testid=ticket-row][data-ticket-id="${ticketId}"]`, { state: "detached" });
      await agent2.click("[data-testid=tab-closed]");
      await agent2.waitForSelector(`[data-testid=ticket-row][data-ticket-id="${ticketId}"][data-status=closed]`);
      await screenshot(agent2, "attendance-resolved-tab");

      const stored = await t.api.get(`/tickets/${ticketId}`, f.admin);
      expect(stored.body).toMatchObject({ status: "closed", queueId: queue2 });
      expect(screenErrors(agent)).toEqual([]);
      expect(screenErrors(agent2)).toEqual([]);
    } catch (e) {
      await screenshot(agent, "attendance-failure-agent").catch(() => undefined);
      await screenshot(agent2, "attendance-failure-agent2").catch(() => undefined);
      throw e;
    } finally {
      await visitor.close();
      await agent.context().close();
      await agent2.context().close();
    }
  });

  it("the composer: quick message, reply-quote, reaction, edit, delete, media in and out, the 10 MB limit, notes, forward; dark mode", async () => {
    const g = await createTenant(t, { tier: "PLUS" });
    const conn = await webchatConnection(t, g, g.queueIds[0]);
    const broker = t.core.broker;
    expect((await t.api.post("/quick-messages", { key: "horario", message: "Nosso horário é de segunda a sexta, das 9h às 18h.", scope: "global" }, g.admin)).status).toBe(201);
    const page = (await newPage(browser)) as P;
    try {
      // A picture drawn by the browser, sent by the visitor with a question and a document.
      await page.goto(`${t.url}/api/ping`);
      const png = await page.evaluate(() => {
        const c = document.createElement("canvas");
        c.width = 360;
        c.height = 220;
        const x = c.getContext("2d")!;
        const gr = x.createLinearGradient(0, 0, 360, 220);
        gr.addColorStop(0, "#0a7d4f");
        gr.addColorStop(1, "#2563eb");
        x.fillStyle = gr;
        x.fillRect(0, 0, 360, 220);
        x.fillStyle = "#fff";
        x.font = "bold 28px sans-serif";
        x.fillText("Pedido #4821", 24, 120);
        return c.toDataURL("image/png").split(",")[1];
      });
      const from = { externalId: `v-${uid()}`, name: "Marina Costa" };
      const now = Date.now();
      const inbound = (n: number, extra: Record<string, unknown>) =>
        broker.call("channels.inbound", { tenantId: g.tenantId, connectionId: conn.id, providerMessageId: `m-${uid()}`, timestamp: now - 60_000 + n * 1000, from, ...extra });
      await inbound(1, { body: "Boa tarde! Meu pedido chegou assim:" });
      await inbound(2, { media: { data: png, mimeType: "image/png", fileName: "pedido.png" } });
      await inbound(3, { media: { data: Buffer.from("%PDF-1.4 nota fiscal").toString("base64"), mimeType: "application/pdf", fileName: "nota-fiscal-4821.pdf" } });
      const last = (await inbound(4, { body: "Vocês podem trocar?" })) as { ticketId: number };
      const other = (await broker.call("channels.inbound", { tenantId: g.tenantId, connectionId: conn.id, providerMessageId: `m-${uid()}`, timestamp: now, from: { externalId: `v-${uid()}`, name: "Rafael Lima" }, body: "Oi" })) as { ticketId: number };
      expect(other.ticketId).not.toBe(last.ticketId);

      await sessionLogin(page, t.url, g.emails.agent, `/atendimento/${last.ticketId}`);
      await page.waitForSelector(`[data-testid=chat-pane][data-ticket-id="${last.ticketId}"]`);
      await page.waitForSelector("[data-testid=media-image] img");
      await page.waitForSelector("[data-testid=media-document]");
      await page.click("[data-testid=composer-accept]");
      await page.waitForSelector("[data-testid=composer-input]");
      await socketReady(page);

      // "/horario" expands to the quick message; Enter then sends it.
      await page.fill("[data-testid=composer-input]", "/hor");
      await page.waitForSelector("[data-testid=quick-list]");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => (document.querySelector("[data-testid=composer-input]") as HTMLTextAreaElement).value.startsWith("Nosso horário"));
      await page.keyboard.press("Enter");
      await page.locator("[data-testid=message][data-from-me='1']").filter({ hasText: "Nosso horário" }).waitFor();

      // Reply to the visitor's question: the bubble carries the quote.
      const question = page.locator("[data-testid=message][data-from-me='0']").filter({ hasText: "Vocês podem trocar?" });
      await question.hover();
      await question.locator("[data-testid=message-reply]").click();
      await page.waitForSelector("[data-testid=composer-reply]");
      await page.fill("[data-testid=composer-input]", "Podemos sim! Vou abrir a troca agora.");
      await page.keyboard.press("Enter");
      const answer = page.locator("[data-testid=message][data-from-me='1']").filter({ hasText: "Vou abrir a troca" });
      await answer.locator("[data-testid=message-quote]").filter({ hasText: "Vocês podem trocar?" }).waitFor();

      // A reaction on the visitor's message.
      await question.hover();
      await question.locator("[data-testid=message-react]").click();
      await page.locator(".ant-popover:visible .oa-emoji-picker button").first().click();
      await question.locator("[data-testid=message-reactions]").filter({ hasText: "👍" }).waitFor();

      // Edit one's own message, then delete another (within 5 minutes).
      await answer.hover();
      await answer.locator("[data-testid=message-menu]").click();
      await page.locator(".ant-dropdown:visible li").filter({ hasText: "Editar" }).click();
      await page.waitForSelector("[data-testid=composer-edit]");
      await page.fill("[data-testid=composer-input]", "Podemos sim! Já abri a troca do pedido #4821.");
      await page.keyboard.press("Enter");
      await answer.filter({ hasText: "editada" }).waitFor().catch(async () => {
        await page.locator("[data-testid=message]").filter({ hasText: "Já abri a troca" }).filter({ hasText: "editada" }).waitFor();
      });
      await page.fill("[data-testid=composer-input]", "mensagem errada");
      await page.keyboard.press("Enter");
      const wrong = page.locator("[data-testid=message][data-from-me='1']").filter({ hasText: "mensagem errada" });
      await wrong.waitFor();
      await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=message][data-from-me='1']")].some((m) => m.textContent?.includes("mensagem errada") && Number(m.getAttribute("data-message-id")) > 0));
      await wrong.hover();
      await wrong.locator("[data-testid=message-menu]").click();
      await page.locator(".ant-dropdown:visible li").filter({ hasText: "Apagar" }).click();
      await page.locator(".ant-modal-confirm .ant-btn-dangerous").click();
      await page.locator("[data-testid=message]").filter({ hasText: "Mensagem apagada" }).waitFor();

      // Files: one over 10 MB is refused before any upload; an image is sent (the web chat has no media: kept as failed, with the reason).
      await page.setInputFiles("[data-testid=composer-file]", { name: "video-grande.mp4", mimeType: "video/mp4", buffer: Buffer.alloc(11 * 1024 * 1024) });
      await page.waitForFunction(() => (window as any).__openatende.ui.history.some((n: any) => n.kind === "error" && /video-grande\.mp4/.test(n.detail ?? "")));
      expect(await page.locator("[data-testid=composer-attachments]").count()).toBe(0);
      await page.setInputFiles("[data-testid=composer-file]", { name: "etiqueta.png", mimeType: "image/png", buffer: Buffer.from(png, "base64") });
      await page.waitForSelector("[data-testid=composer-attachments]");
      await page.click("[data-testid=composer-send]");
      await page.locator("[data-testid=message][data-from-me='1'] [data-testid=media-image]").waitFor();
      await page.locator("[data-testid=message][data-from-me='1'] [data-testid=message-failed]").waitFor();

      // A note.
      if (!(await page.locator("[data-testid=contact-panel]").count())) await page.click("[data-testid=toggle-contact]");
      await page.click("[data-testid=notes-tab]");
      await page.fill("[data-testid=note-input]", "Troca aprovada pelo supervisor.");
      await page.click("[data-testid=note-add]");
      await page.locator("[data-testid=note]").filter({ hasText: "Troca aprovada" }).waitFor();
      await page.click("[data-testid=contact-close]");
      await page.waitForSelector("[data-testid=contact-panel]", { state: "detached" });
      await page.mouse.move(10, 400);
      await screenshot(page, "attendance-composer-features");

      // Forward the visitor's picture to another contact.
      const picture = page.locator("[data-testid=message][data-from-me='0']").filter({ has: page.locator("[data-testid=media-image]") });
      await picture.hover();
      await picture.locator("[data-testid=message-menu]").click();
      await page.locator(".ant-dropdown:visible li").filter({ hasText: "Encaminhar" }).click();
      await page.waitForSelector("[data-testid=select-bar]");
      await page.click("[data-testid=forward-open]");
      await page.fill("[data-testid=contact-search]", "Rafael");
      await page.locator("[data-testid=contact-item]").filter({ hasText: "Rafael Lima" }).click();
      await page.locator(".ant-modal:visible .ant-btn-primary").click();
      await page.waitForFunction(() => (window as any).__openatende.ui.history.some((n: any) => n.kind === "success" && /Rafael Lima/.test(n.title)));
      const forwarded = await t.api.get(`/messages/${other.ticketId}`, g.admin);
      expect(forwarded.body.messages.some((m: { isForwarded: boolean; mediaType: string }) => m.isForwarded && m.mediaType === "image")).toBe(true);

      // A new conversation from the contacts (/atendimento/contatos): Rafael already has one, which the agent is offered to open.
      await page.click("[data-testid=new-chat]");
      await page.waitForSelector("[data-testid=new-chat-pane]");
      expect(page.url()).toContain("#/atendimento/contatos");
      await page.fill("[data-testid=new-chat-pane] [data-testid=contact-search]", "Rafa");
      await page.locator("[data-testid=new-chat-pane] [data-testid=contact-item]").filter({ hasText: "Rafael Lima" }).click();
      await screenshot(page, "attendance-new-chat");
      await page.click("[data-testid=new-chat-start]");
      // The agent is offered Rafael's active ticket (ERR_CONTACT_OTHER_OPEN_TICKET), by name; opening
      // it goes to that ticket's address, the offer closes and the pane shows that ticket.
      const offer = page.locator(".ant-modal-confirm").filter({ hasText: "Rafael Lima" });
      await offer.locator(".ant-btn-primary").click();
      await page.waitForFunction((id) => location.hash === `#/atendimento/${id}`, other.ticketId);
      await offer.waitFor({ state: "detached" });
      await page.waitForSelector(`[data-testid=chat-pane][data-ticket-id="${other.ticketId}"]`);

      // Dark mode (the user's isDark config).
      await page.evaluate(() => (window as any).__openatende.saveConfigs({ isDark: true }));
      await page.waitForSelector(".oa-dark .oa-att");
      await page.mouse.move(10, 400);
      await page.waitForTimeout(300);
      await screenshot(page, "attendance-dark");
      await page.evaluate(() => (window as any).__openatende.saveConfigs({ isDark: false }));
      expect(screenErrors(page)).toEqual([]);
    } catch (e) {
      await screenshot(page, "attendance-failure-composer").catch(() => undefined);
      throw e;
    } finally {
      await page.context().close();
    }
  });

  it("1,000 tickets: only a window of rows is in the page, and the list scrolls to its last ticket", async () => {
    const g = await createTenant(t, { tier: "PLUS" });
    const conn = await webchatConnection(t, g, g.queueIds[0]);
    const broker = t.core.broker;
    const base = Date.now() - 1000 * 60_000;
    // Through the channels' inbound path, as a channel plugin hands messages to the core.
    for (let i = 0; i < 1000; i += 25) {
      await Promise.all(
        Array.from({ length: 25 }, (_, k) => {
          const n = i + k;
          const name = `Visitante ${String(n).padStart(4, "0")}`;
          return broker.call("channels.inbound", {
            tenantId: g.tenantId,
            connectionId: conn.id,
            providerMessageId: `seed-${n}`,
            timestamp: base + n * 60_000,
            from: { externalId: `visitor-${n}`, name },
            body: `Mensagem do ${name}`,
          });
        }),
      );
    }
    // The oldest ticket holds more than a page of messages.
    for (let k = 1; k <= 45; k++) {
      await broker.call("channels.inbound", { tenantId: g.tenantId, connectionId: conn.id, providerMessageId: `seed-0-${k}`, timestamp: base + k, from: { externalId: "visitor-0", name: "Visitante 0000" }, body: `Continuação ${k}` });
    }
    const page = (await newPage(browser)) as P;
    try {
      await sessionLogin(page, t.url, g.emails.agent, "/atendimento");
      await page.waitForSelector("[data-testid=ticket-row]");
      // The newest first; a window of rows, not a thousand.
      expect(await page.locator("[data-testid=ticket-row]").first().textContent()).toContain("Visitante 0999");
      const rendered = await page.locator("[data-testid=ticket-row]").count();
      expect(rendered).toBeGreaterThan(5);
      expect(rendered).toBeLessThan(100);
      await screenshot(page, "attendance-list-1000");

      // Scroll to the end: pages load as the end comes into view, until the oldest ticket shows.
      const t0 = Date.now();
      for (let i = 0; i < 80; i++) {
        await page.evaluate(() => {
          const el = document.querySelector("[data-testid=ticket-list]")!;
          el.scrollTop = el.scrollHeight;
        });
        await page.waitForTimeout(150);
        if (await page.locator("[data-testid=ticket-row]").filter({ hasText: "Visitante 0000" }).count()) break;
      }
      await page.locator("[data-testid=ticket-row]").filter({ hasText: "Visitante 0000" }).waitFor({ timeout: 10_000 });
      const scrollMs = Date.now() - t0;
      const total = await page.evaluate(() => (document.querySelector("[data-testid=ticket-list] > div") as HTMLElement).style.height);
      expect(total).toBe(`${1000 * 86}px`);
      expect(await page.locator("[data-testid=ticket-row]").count()).toBeLessThan(100);
      expect(scrollMs).toBeLessThan(30_000);
      await screenshot(page, "attendance-list-1000-bottom");

      // A chat opened from the bottom of the list: its newest page, then older ones as it scrolls up.
      await page.locator("[data-testid=ticket-row]").filter({ hasText: "Visitante 0000" }).click();
      await page.locator("[data-testid=message-body]").filter({ hasText: "Continuação 45" }).waitFor();
      expect(await page.locator("[data-testid=message]").count()).toBe(30);
      for (let i = 0; i < 20 && !(await page.locator(".oa-start").count()); i++) {
        await page.evaluate(() => (document.querySelector("[data-testid=message-list]")!.scrollTop = 0));
        await page.waitForTimeout(250);
      }
      await page.locator("[data-testid=message-body]").filter({ hasText: "Mensagem do Visitante 0000" }).waitFor();
      expect(await page.locator("[data-testid=message]").count()).toBe(46);

      // Search (2 letters at least): the server's search, then back to everything.
      await page.fill("[data-testid=ticket-search]", "Visitante 0500");
      await page.waitForFunction(() => {
        const rows = [...document.querySelectorAll("[data-testid=ticket-row]")];
        return rows.length === 1 && rows[0].textContent!.includes("Visitante 0500");
      });
      await page.fill("[data-testid=ticket-search]", "");
      await page.locator("[data-testid=ticket-row]").filter({ hasText: "Visitante 0999" }).waitFor();

      // A filter is saved in the user's configs (filtrosAtendimento) and survives a reload.
      await page.click("[data-testid=filters-button]");
      await page.click("[data-testid=filter-not-assigned]");
      await page.waitForFunction(() => (window as any).__openatende.session.attendanceFilter.isNotAssignedUser === true);
      await screenshot(page, "attendance-filters");
      await page.keyboard.press("Escape");
      await page.waitForTimeout(500);
      await page.reload();
      await page.waitForSelector("[data-testid=ticket-row]");
      expect(await page.locator("[data-testid=filters-button]").locator("xpath=..").locator(".ant-badge-count").textContent()).toBe("1");
      // Saved on the server, not only in this browser.
      const configs = await page.evaluate(async () => {
        const r = (window as any).__openatende;
        return (await r.api.get(`/users/${r.session.userId}`)).configs;
      });
      expect(configs.filtrosAtendimento).toMatchObject({ isNotAssignedUser: true, status: ["open", "pending"] });
      await page.click("[data-testid=filters-button]");
      await page.click("[data-testid=filter-not-assigned]");
      await page.waitForFunction(() => (window as any).__openatende.session.attendanceFilter.isNotAssignedUser === false);
      await page.keyboard.press("Escape");

      expect(screenErrors(page)).toEqual([]);
    } catch (e) {
      await screenshot(page, "attendance-failure-1000").catch(() => undefined);
      throw e;
    } finally {
      await page.context().close();
    }
  });
});
