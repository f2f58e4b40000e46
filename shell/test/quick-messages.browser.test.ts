/**
 * /mensagens-rapidas in a real browser against a real core (spec §2, §6): an agent opens it
 * from the main menu and creates a personal quick message with no scope to choose; an admin
 * creates a global one there (the old settings address leads to the page); the agent sees the
 * global one read-only, filters by tab and search, uses it with "/" in the attendance composer,
 * and deletes their own after confirming.
 */
import type { Browser, Page } from "playwright-core";
import { createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { launchBrowser, newPage, screenErrors, sessionLogin, shot, waitCount, waitText } from "./browser";

jest.setTimeout(180_000);

type P = Page & { errors: string[] };
type Qm = { id: number; key: string; scope: string; userId: number };

let t: TestCore;
let f: TenantFixture;
let browser: Browser;
/** A second admin for API checks: the browser's logins end the fixture users' API sessions. */
let admin2: Auth;

beforeAll(async () => {
  t = await startCore();
  f = await createTenant(t, { tier: "PLUS" });
  for (const who of [f.admin, f.agent]) {
    expect((await t.api.put(`/users/${who.userId}/lgpd-consent`, { accepted: true }, who)).status).toBe(200);
  }
  expect((await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin)).status).toBe(200);
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: "Admin Dois", email, password: PASSWORD, profile: "admin" });
  admin2 = await t.api.login(email);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const modal = (page: Page) => page.locator(".ant-modal-container").last();
const row = (page: Page, text: string) => page.locator('[data-testid="quick-messages-page"] .ant-table-tbody tr.ant-table-row', { hasText: text });

async function openPage(page: P) {
  await page.waitForSelector('[data-testid="quick-messages-page"]', { timeout: 15_000 });
  await waitCount(page.locator('[data-testid="quick-messages-page"] .ant-spin-spinning'), 0);
}

async function save(page: Page) {
  await modal(page).locator(".ant-modal-footer .ant-btn-primary").click();
  await waitCount(page.locator(".ant-modal-container"), 0);
}

test("an agent's personal quick message, an admin's global one used read-only and in the composer", async () => {
  // A conversation in the agent's queue, for the composer at the end.
  const conn = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: f.queueIds[0] }, admin2);
  expect(conn.status).toBe(201);
  expect((await t.api.post(`/connections/${conn.body.id}/connect`, {}, admin2)).body.status).toBe("connected");
  const inbound = (await t.core.broker.call("channels.inbound", {
    tenantId: f.tenantId,
    connectionId: conn.body.id,
    providerMessageId: `m-${uid()}`,
    timestamp: Date.now(),
    from: { externalId: `v-${uid()}`, name: "Marina Costa" },
    body: "Vocês têm promoção?",
  })) as { ticketId: number };

  const agent = (await newPage(browser)) as P;
  const admin = (await newPage(browser)) as P;
  try {
    // The agent finds the page in the main menu.
    await sessionLogin(agent, t.url, f.emails.agent, "/home");
    await agent.locator('[data-testid="main-menu"] .ant-menu-item', { hasText: "Mensagens rápidas" }).click();
    await openPage(agent);
    expect(agent.url()).toContain("#/mensagens-rapidas");

    // A personal one: no scope to choose, only the note that it is theirs.
    await agent.click('[data-testid="quick-new"]');
    await modal(agent).locator('[data-testid="quick-personal-only"]').waitFor();
    expect(await modal(agent).locator('[data-testid="quick-scope"]').count()).toBe(0);
    await modal(agent).locator('[data-testid="quick-key"]').fill("/assinatura");
    await modal(agent).locator('[data-testid="quick-message"]').fill("Att., Agente da Loja");
    await shot(agent, "quick-messages-agent-form");
    await save(agent);
    await waitCount(row(agent, "/assinatura"), 1);
    await waitText(row(agent, "/assinatura"), "Pessoal");

    // The admin: the old settings address leads to the page, where the scope is chosen.
    await sessionLogin(admin, t.url, f.emails.admin, "/configuracoes/mensagens-rapidas");
    await openPage(admin);
    expect(admin.url()).toContain("#/mensagens-rapidas");
    await admin.click('[data-testid="quick-new"]');
    const m = modal(admin);
    await m.locator('[data-testid="quick-scope"] .ant-segmented-item', { hasText: "Global" }).click();
    await m.locator('[data-testid="quick-key"]').fill("promocao");
    await m.locator('[data-testid="quick-message"]').fill("Nesta semana, frete grátis em compras acima de R$ 150!");
    await shot(admin, "quick-messages-admin-form");
    await save(admin);
    await waitCount(row(admin, "/promocao"), 1);
    await waitText(row(admin, "/promocao"), "Global");
    // The agent's personal one is not the admin's to see.
    expect(await row(admin, "/assinatura").count()).toBe(0);
    // Settings no longer list quick messages.
    await admin.goto(`${t.url}/#/configuracoes/usuarios`);
    await admin.waitForSelector('[data-testid="settings-tab-usuarios"]');
    expect(await admin.locator('[data-testid="settings-tab-mensagens-rapidas"]').count()).toBe(0);

    const all = (await t.api.get("/quick-messages?all=true", admin2)).body as Qm[];
    expect(all.find((q) => q.key === "promocao")).toMatchObject({ scope: "global" });
    expect(all.some((q) => q.key === "assinatura")).toBe(false);

    // The agent sees the global one, read-only; tabs and search narrow the list.
    await agent.reload();
    await openPage(agent);
    await waitCount(row(agent, "/promocao"), 1);
    const global = all.find((q) => q.key === "promocao")!;
    await agent.locator(`[data-testid="quick-readonly-${global.id}"]`).waitFor();
    expect(await row(agent, "/promocao").locator('button[aria-label="Editar"]').count()).toBe(0);
    await shot(agent, "quick-messages-agent");
    await agent.click('[data-testid="quick-tab-global"]');
    await waitCount(row(agent, "/assinatura"), 0);
    await waitCount(row(agent, "/promocao"), 1);
    await agent.click('[data-testid="quick-tab-all"]');
    await agent.locator('[data-testid="quick-search"]').fill("agente");
    await waitCount(row(agent, "/promocao"), 0);
    await waitCount(row(agent, "/assinatura"), 1);
    await agent.locator('[data-testid="quick-search"]').fill("");

    // In the composer, "/promo" offers the global one and Enter puts its text in the box.
    await agent.goto(`${t.url}/#/atendimento/${inbound.ticketId}`);
    await agent.waitForSelector(`[data-testid=chat-pane][data-ticket-id="${inbound.ticketId}"]`, { timeout: 15_000 });
    await agent.click("[data-testid=composer-accept]");
    await agent.waitForSelector("[data-testid=composer-input]");
    await agent.fill("[data-testid=composer-input]", "/promo");
    await waitText(agent.locator("[data-testid=quick-list]"), "/promocao");
    await shot(agent, "quick-messages-composer");
    await agent.keyboard.press("Enter");
    await agent.waitForFunction(() => (document.querySelector("[data-testid=composer-input]") as HTMLTextAreaElement).value.startsWith("Nesta semana, frete grátis"));

    // Back on the page, the agent deletes their own after confirming.
    await agent.goto(`${t.url}/#/mensagens-rapidas`);
    await openPage(agent);
    await row(agent, "/assinatura").locator('button[aria-label="Excluir"]').click();
    await agent.locator(".ant-popconfirm:visible .ant-btn-dangerous").click();
    await waitCount(row(agent, "/assinatura"), 0);
    await waitCount(row(agent, "/promocao"), 1);

    expect(screenErrors(agent)).toEqual([]);
    expect(screenErrors(admin)).toEqual([]);
  } finally {
    await agent.context().close();
    await admin.context().close();
  }
  // Gone for the agent too (a new API session: the browser's ended the fixture's).
  const agentApi = await t.api.login(f.emails.agent);
  expect(((await t.api.get("/quick-messages", agentApi)).body as Qm[]).map((q) => q.key)).toEqual(["promocao"]);
});
