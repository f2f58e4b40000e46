/**
 * The main layout and the dashboard (/home) in Chromium against a real core with real
 * tickets: the figures match the API, they follow new tickets live, admins transfer and
 * resolve in bulk, the menu follows the profile, and the colour mode and the language chosen
 * in the header stay with the user.
 */
import type { Browser, Page } from "playwright-core";
import { createTenant, startCore, TestCore, TenantFixture, uid } from "@openatende/core/testkit";
import { launchBrowser, newPage, notices, screenshot, sessionLogin } from "./browser";

type P = Page & { errors: string[] };

/** The page's errors, less the remotes of plugins whose UI is not built in this tree. */
const ownErrors = (page: P) => page.errors.filter((e) => !/\/api\/plugins\/|status of 404/.test(e));

async function connectWebchat(t: TestCore, f: TenantFixture, queueId: number, name: string) {
  const c = await t.api.post("/connections", { name, type: "channel-webchat", settings: {}, queueId }, f.admin);
  expect(c.status).toBe(201);
  expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).status).toBe(200);
  return c.body as { id: number };
}

async function inbound(t: TestCore, tenantId: number, connectionId: number, name = `Cliente ${uid()}`): Promise<number> {
  const r = (await t.core.broker.call("channels.inbound", {
    tenantId,
    connectionId,
    providerMessageId: `p-${uid()}`,
    timestamp: Date.now(),
    from: { externalId: `ext-${uid()}`, name },
    body: "Olá, preciso de ajuda",
  })) as { ticketId: number };
  return r.ticketId;
}

/** Retries `read` until `check` passes (the configs are saved in the background). */
async function eventually<T>(read: () => Promise<T>, check: (v: T) => void, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    try {
      return check(v);
    } catch (e) {
      if (Date.now() > end) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const kpi = async (page: Page, id: string) => (await page.textContent(`[data-testid=kpi-${id}] .oa-kpi-value`))?.trim();

describe("main layout and dashboard", () => {
  let t: TestCore;
  let f: TenantFixture;
  let browser: Browser;
  let site: { id: number };
  let shop: { id: number };

  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t, { tier: "PLUS" });
    site = await connectWebchat(t, f, f.queueIds[0], "Site");
    shop = await connectWebchat(t, f, f.queueIds[1], "Loja");
    // Suporte: 3 tickets, one in service, one resolved; Vendas: 2 waiting.
    const s1 = await inbound(t, f.tenantId, site.id, "Ana Souza");
    const s2 = await inbound(t, f.tenantId, site.id, "Bruno Lima");
    await inbound(t, f.tenantId, site.id, "Carla Dias");
    await inbound(t, f.tenantId, shop.id, "Diego Alves");
    await inbound(t, f.tenantId, shop.id, "Elisa Rocha");
    expect((await t.api.put(`/tickets/${s1}`, { status: "open" }, f.agent)).status).toBe(200);
    expect((await t.api.put(`/tickets/${s2}`, { status: "open" }, f.agent)).status).toBe(200);
    expect((await t.api.put(`/tickets/${s2}`, { status: "closed" }, f.agent)).status).toBe(200);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it("an admin's dashboard shows the API's figures, the channels, the queues and the team", async () => {
    const page = await newPage(browser);
    try {
      await sessionLogin(page, t.url, f.emails.admin, "/home");
      await page.waitForSelector("[data-testid=kpi-open]");
      const api = await t.api.login(f.emails.supervisor);
      const figures = (await t.api.get("/dashboard/tickets", api)).body;
      expect(figures.byStatus).toMatchObject({ open: 1, pending: 3, closed: 1 });
      expect(await kpi(page, "open")).toBe("1");
      expect(await kpi(page, "pending")).toBe("3");
      expect(await page.textContent("[data-testid=kpi-pending] .oa-kpi-hint")).toBe("3 sem atendente");
      expect(await kpi(page, "closed")).toBe("1");
      expect(await kpi(page, "created")).toBe("5");
      expect(await page.textContent("[data-testid=status-pending] strong")).toBe("3");
      expect(await page.locator("[data-testid=channels] li").allInnerTexts()).toEqual([expect.stringMatching(/^Site[\s\S]*3$/), expect.stringMatching(/^Loja[\s\S]*2$/)]);
      expect(await page.locator("[data-testid=queues] li .oa-queue-name").allInnerTexts()).toEqual(["Suporte", "Vendas"]);
      const agentRow = page.locator("[data-testid=team] tr", { hasText: "Agent" });
      expect((await agentRow.innerText()).replace(/\s+/g, " ")).toMatch(/Agent 1 1 .+ 100%/);

      // The menu: every core page, the plugins of the tenant's tier an admin uses (no PREMIUM campaigns on this tier), settings, the unread badge from the API.
      // Plugins add their items as their remotes register, after the page's own blocks are up.
      await page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 30_000 });
      const menu = await page.locator("[data-testid=main-menu] .ant-menu-item").allInnerTexts();
      expect(menu.map((m) => m.split("\n")[0].replace(/\d+/g, "").trim())).toEqual(["Painel", "Atendimentos", "Contatos", "Mensagens rápidas", "Campanhas", "Auto-resposta", "Agendamentos", "Chat interno", "Kanban", "Notas", "Mensagens agendadas", "Painel de atendimentos", "Relatórios", "Módulos", "Configurações"]);
      // The admin's own count (it depends on the caller's queues), through the page's session.
      const unread = await page.evaluate(() => (window as any).__openatende.api.get("/tickets/unread-count"));
      expect(unread.open + unread.pending).toBeGreaterThan(0);
      expect(await page.textContent("[data-testid=unread-badge]")).toContain(String(unread.open + unread.pending));
      expect(await page.getAttribute("[data-testid=realtime-status]", "data-status")).toBe("connected");
      await page.waitForSelector("[data-testid=live-tag]");
      await screenshot(page, "dashboard-admin");
      await page.evaluate(() => document.querySelector(".oa-content")!.scrollTo(0, 640));
      await screenshot(page, "dashboard-admin-lower");
      expect(ownErrors(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it("follows new tickets live, without a reload", async () => {
    const page = await newPage(browser);
    try {
      await sessionLogin(page, t.url, f.emails.supervisor, "/home");
      await page.waitForSelector("[data-testid=kpi-pending]");
      const before = Number(await kpi(page, "pending"));
      await inbound(t, f.tenantId, shop.id, "Fábio Nunes");
      await page.waitForFunction((n) => document.querySelector("[data-testid=kpi-pending] .oa-kpi-value")?.textContent === String(n), before + 1, { timeout: 15_000 });
      expect(Number(await kpi(page, "created"))).toBe(6);
      expect(ownErrors(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it("an admin transfers and resolves tickets in bulk", async () => {
    const page = await newPage(browser);
    try {
      await sessionLogin(page, t.url, f.emails.admin, "/home");
      const table = page.locator("[data-testid=mass-actions]");
      await table.locator("tbody tr", { hasText: "Diego Alves" }).waitFor();
      const api = await t.api.login(f.emails.supervisor);
      const waiting = (await t.api.get("/tickets?status=pending&showAll=true", api)).body.tickets as Array<{ id: number; contact: { name: string }; queueId: number }>;
      const diego = waiting.find((x) => x.contact.name === "Diego Alves")!;
      const elisa = waiting.find((x) => x.contact.name === "Elisa Rocha")!;
      expect(diego.queueId).toBe(f.queueIds[1]);

      // Transfer two waiting tickets of Vendas to Suporte.
      for (const name of ["Diego Alves", "Elisa Rocha"]) await table.locator("tbody tr", { hasText: name }).locator("input[type=checkbox]").check();
      await page.click("[data-testid=mass-transfer]");
      await page.waitForSelector(".ant-modal [data-testid=transfer-queue]");
      await page.click(".ant-modal [data-testid=transfer-queue]");
      await page.click(".ant-select-dropdown .ant-select-item-option[title='Suporte']");
      await screenshot(page, "dashboard-transfer");
      await page.click(".ant-modal .ant-btn-primary");
      await page.waitForFunction(() => !document.querySelector(".ant-modal-wrap:not([style*='display: none']) .ant-modal"));
      await page.waitForFunction(() => (window as any).__openatende.ui.history.some((n: any) => n.title === "2 de 2 atendimentos transferidos"));
      for (const id of [diego.id, elisa.id]) expect((await t.api.get(`/tickets/${id}`, api)).body).toMatchObject({ queueId: f.queueIds[0], status: "pending" });

      // Resolve them.
      await table.locator("tbody tr", { hasText: "Diego Alves" }).waitFor();
      for (const name of ["Diego Alves", "Elisa Rocha"]) await table.locator("tbody tr", { hasText: name }).locator("input[type=checkbox]").check();
      await page.click("[data-testid=mass-resolve]");
      await page.click(".ant-popconfirm .ant-btn-primary");
      await page.waitForFunction(() => (window as any).__openatende.ui.history.some((n: any) => n.title === "2 atendimentos resolvidos"));
      for (const id of [diego.id, elisa.id]) expect((await t.api.get(`/tickets/${id}`, api)).body.status).toBe("closed");
      await page.waitForFunction(() => document.querySelector("[data-testid=kpi-closed] .oa-kpi-value")?.textContent === "3");
      await table.locator("tbody tr", { hasText: "Diego Alves" }).waitFor({ state: "detached" });
      // (A plugin whose UI remote is not built in this tree reports itself; that is not these actions' doing.)
      expect((await notices(page)).filter((n) => n.kind === "error" && n.title !== "Módulo indisponível")).toEqual([]);
      expect(ownErrors(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it("an agent sees their own figures, no settings and no bulk actions; settings send them back with a notice", async () => {
    const page = await newPage(browser);
    try {
      await sessionLogin(page, t.url, f.emails.agent, "/home");
      await page.waitForSelector("[data-testid=kpi-open]");
      expect(await page.isVisible("text=Seus atendimentos e os das suas filas")).toBe(true);
      expect(await page.isVisible("text=Seu desempenho")).toBe(true);
      expect(await page.locator("[data-testid=mass-actions]").count()).toBe(0);
      const menu = await page.locator("[data-testid=main-menu] .ant-menu-item").allInnerTexts();
      expect(menu.map((m) => m.split("\n")[0].replace(/\d+/g, "").trim())).toEqual(["Painel", "Atendimentos", "Contatos", "Mensagens rápidas", "Agendamentos", "Chat interno", "Kanban", "Notas", "Mensagens agendadas"]);
      await page.evaluate(() => (window.location.hash = "#/configuracoes/usuarios"));
      await page.waitForFunction(() => (window as any).__openatende.ui.history.some((n: any) => n.title === "Sem permissão"));
      await page.waitForFunction(() => window.location.hash === "#/home");
      await page.waitForSelector("[data-testid=kpi-open]");
      await page.waitForLoadState("networkidle");
      await screenshot(page, "dashboard-agent");
      expect(ownErrors(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it("the colour mode and the language chosen in the header stay with the user; the menu collapses", async () => {
    const page = await newPage(browser);
    try {
      const login = await sessionLogin(page, t.url, f.emails.supervisor, "/home");
      await page.waitForSelector("[data-testid=kpi-open]");
      await page.click("[data-testid=theme-toggle]");
      await page.waitForFunction(() => document.documentElement.classList.contains("oa-dark"));
      const bg = await page.evaluate(() => getComputedStyle(document.querySelector(".oa-header")!).backgroundColor);
      expect(bg).not.toBe("rgb(255, 255, 255)");
      await page.waitForLoadState("networkidle");
      await screenshot(page, "dashboard-dark");
      const auth = { token: login.token, sessionId: login.sessionId, userId: login.userId, tenantId: login.tenantId };
      const saved = async () => (await t.api.get(`/users/${login.userId}`, auth)).body.configs;
      await eventually(saved, (c) => expect(c).toMatchObject({ isDark: true }));

      await page.click("[data-testid=language-menu]");
      await page.click(".ant-dropdown-menu-item:has-text('English')");
      await page.waitForFunction(() => document.querySelector("[data-testid=main-menu]")?.textContent?.includes("Dashboard"));
      expect(await page.textContent(".oa-kpi-label")).toBe("In service");
      expect(await page.evaluate(() => localStorage.getItem("user-locale"))).toBe("en");
      await eventually(saved, (c) => expect(c).toMatchObject({ isDark: true, language: "en" }));

      await page.reload();
      await page.waitForSelector("[data-testid=kpi-open]");
      expect(await page.evaluate(() => document.documentElement.classList.contains("oa-dark"))).toBe(true);
      expect(await page.textContent(".oa-kpi-label")).toBe("In service");

      await page.click("[data-testid=menu-toggle]");
      await page.waitForFunction(() => (document.querySelector(".oa-sider") as HTMLElement).offsetWidth < 100);
      expect(await page.evaluate(() => localStorage.getItem("oa-menu-collapsed"))).toBe("1");
      await page.click("[data-testid=theme-toggle]");
      await page.waitForFunction(() => !document.documentElement.classList.contains("oa-dark"));
      await eventually(saved, (c) => expect(c).toMatchObject({ isDark: false }));
      expect(ownErrors(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it("on a phone the menu is a drawer; signing out from the user menu goes to /login", async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
    try {
      await sessionLogin(page, t.url, f.emails.supervisor, "/home");
      await page.waitForSelector("[data-testid=kpi-open]");
      expect(await page.locator(".oa-sider").count()).toBe(0);
      await screenshot(page, "dashboard-mobile");
      await page.click("[data-testid=menu-toggle]");
      await page.waitForSelector(".ant-drawer [data-testid=main-menu]");
      await page.waitForTimeout(400); // the drawer's slide-in
      await screenshot(page, "dashboard-mobile-menu");
      await page.click(".ant-drawer .ant-menu-item:has-text('Contatos')");
      await page.waitForFunction(() => window.location.hash === "#/contatos");
      await page.waitForSelector(".ant-drawer-open", { state: "detached" }).catch(() => undefined);
      await page.click("[data-testid=user-menu]");
      await page.click(".ant-dropdown-menu-item-danger");
      await page.waitForSelector("[data-testid=login-form]");
      expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
      expect(await page.evaluate(() => document.documentElement.classList.contains("oa-dark"))).toBe(false);
      expect(ownErrors(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
