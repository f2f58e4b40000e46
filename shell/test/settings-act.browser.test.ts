/**
 * The general settings act on the screens (spec §3 General settings, §6 visibility; issue 14
 * item 6), in Chromium against a real core, each set through the API as the admin's screen
 * saves it and picked up by the agent's shell at once (the socket's settings event) or at its
 * next navigation, never needing a reload:
 * - hideContactInfo: the agent sees the contact's phone and e-mail, then no longer does;
 * - ticketListLimit: the chat list loads the tenant's number of tickets per page;
 * - sla: each waiting ticket's age chip is green, yellow, red or overdue by the thresholds;
 * - menuColors and hideMenuSubtitles: the menu takes the theme's colour, its subtitles go;
 * - wallpapers: the chat pane shows the theme's wallpaper behind readable messages;
 * - pageSize: the contacts page opens on the tenant's page size.
 */
import sharp from "sharp";
import type { Browser, Page } from "playwright-core";
import { createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, poll, screenErrors, sessionLogin, shot, waitAttr, waitCount } from "./browser";

jest.setTimeout(180_000);

let t: TestCore;
let f: TenantFixture;
let browser: Browser;
let conn: number;

const set = async (key: string, value: unknown) => expect((await t.api.put(`/settings/${key}`, { value }, f.admin)).status).toBe(200);

/** A customer's message through the core's channel entry point: a waiting ticket in the first queue. */
async function inbound(name: string, body: string, from: { externalId?: string; phone?: string; email?: string } = {}) {
  return (await t.core.broker.call("channels.inbound", {
    tenantId: f.tenantId,
    connectionId: conn,
    providerMessageId: `p-${uid()}`,
    timestamp: Date.now(),
    from: { externalId: `ext-${uid()}`, name, ...from },
    body,
  })) as { ticketId: number };
}

/** A 16:9 wallpaper: soft diagonal bands, as a tenant would upload. */
async function wallpaper(from: string, to: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs><rect width="1600" height="900" fill="url(#g)"/>${Array.from({ length: 9 }, (_, i) => `<circle cx="${120 + i * 180}" cy="${(i % 3) * 300 + 150}" r="${60 + (i % 4) * 25}" fill="#ffffff" fill-opacity="0.18"/>`).join("")}</svg>`;
  return (await sharp(Buffer.from(svg)).png().toBuffer()).toString("base64");
}

/**
 * Leaves for the dashboard and comes back to the ticket through the menu and the list: the
 * shell reads the settings again at its next navigation.
 */
async function navigateAway(page: Page, ticketId: number) {
  const read = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/settings");
  await page.click("[data-testid=main-menu] li[data-menu-id$='/home']");
  await read;
  await page.waitForSelector("[data-testid=period]");
  await page.click("[data-testid=main-menu] li[data-menu-id$='/atendimento']");
  await page.click(`[data-testid=ticket-row][data-ticket-id="${ticketId}"]`);
  await page.waitForFunction((id) => location.hash === `#/atendimento/${id}`, ticketId);
}

beforeAll(async () => {
  t = await startCore();
  f = await createTenant(t, { tier: "PLUS" });
  await acceptTerms(t, f);
  const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: f.queueIds[0] }, f.admin);
  expect(c.status).toBe(201);
  conn = c.body.id;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

test("an agent's screens follow the general settings: hidden phone, list limit, SLA colours, menu colour and subtitles, chat wallpaper", async () => {
  // Twelve customers waiting, four of them for a while; and one known contact with phone and e-mail.
  const names = ["Ana Lima", "Bruno Costa", "Carla Dias", "Diego Alves", "Elisa Rocha", "Fábio Nunes", "Gabi Torres", "Hugo Reis", "Iara Melo", "João Pires", "Kátia Brito", "Lucas Faria"];
  const made: number[] = [];
  const exts = names.map(() => `ext-${uid()}`);
  for (const [i, n] of names.entries()) made.push((await inbound(n, `Olá, aqui é ${n.split(" ")[0]}`, { externalId: exts[i] })).ticketId);
  const ages: Array<[number, number, string]> = [
    [made[0], 20, "onTime"],
    [made[1], 45, "attention"],
    [made[2], 90, "late"],
    [made[3], 180, "overdue"],
  ];
  for (const [id, minutes] of ages) await t.core.sequelize.query("UPDATE tickets SET createdAt = ? WHERE id = ?", { replacements: [new Date(Date.now() - minutes * 60_000), id] });
  // Their customers write again: they come to the top of the list, the longest waiting first.
  for (const i of [3, 2, 1, 0]) await inbound(names[i], "Ainda estou aguardando…", { externalId: exts[i] });
  const marina = { externalId: `marina-${uid()}`, phone: "5531977776666", email: "marina@cliente.test" };
  const tk = { body: { id: (await inbound("Marina Souza", "Boa tarde! Meu pedido 4821 ainda não chegou.", marina)).ticketId } };
  await inbound("Marina Souza", "Comprei na sexta-feira e o prazo era de três dias úteis.", marina);
  await inbound("Marina Souza", "Podem verificar, por favor?", marina);
  const contactId = (await t.api.get(`/tickets/${tk.body.id}`, f.admin)).body.contactId;
  expect((await t.api.get(`/contacts/${contactId}`, f.admin)).body).toMatchObject({ number: "5531977776666", email: "marina@cliente.test" });
  await set("ticketListLimit", 10);
  await set("menuColors", { light: "#123e5c", dark: "#e9dfc8" });
  const light = await t.api.post("/settings/wallpaper/light", { file: { fileName: "praia.png", mimeType: "image/png", data: await wallpaper("#a7d8c9", "#f3e6c4") } }, f.admin);
  expect(light.status).toBe(200);
  const dark = await t.api.post("/settings/wallpaper/dark", { file: { fileName: "noite.png", mimeType: "image/png", data: await wallpaper("#16233a", "#2c1d3d") } }, f.admin);
  expect(dark.status).toBe(200);

  const page = await newPage(browser);
  // Every page of the chat list the shell asks for.
  const pages: Array<{ url: string; count: number; hasMore: boolean }> = [];
  page.on("response", async (r) => {
    const u = new URL(r.url());
    if (u.pathname !== "/api/tickets" || r.request().method() !== "GET") return;
    const body = await r.json().catch(() => null);
    if (body?.tickets) pages.push({ url: r.url(), count: body.tickets.length, hasMore: body.hasMore });
  });
  await sessionLogin(page, t.url, f.emails.agent, `/atendimento/${tk.body.id}`);
  await page.waitForSelector("[data-testid=ticket-row]", { timeout: 30_000 });

  // ticketListLimit: ten a page, the shell naming no page size; the rest comes as the second page.
  const first = await poll(async () => pages.find((p) => new URL(p.url).searchParams.get("pageNumber") === "1"), (p) => !!p, "the list's first page");
  expect(first).toMatchObject({ count: 10, hasMore: true });
  expect(new URL(first!.url).searchParams.get("pageSize")).toBeNull();
  const second = await poll(async () => pages.find((p) => new URL(p.url).searchParams.get("pageNumber") === "2"), (p) => !!p, "the list's second page");
  expect(second).toMatchObject({ count: 3, hasMore: false });
  expect(pages.every((p) => p.count <= 10)).toBe(true);

  // SLA: the aged tickets' chips by the default thresholds (30 / 60 / 120 min).
  await page.locator("[data-testid=ticket-list]").evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  for (const [id, , level] of ages) await waitAttr(page.locator(`[data-testid=ticket-row][data-ticket-id="${id}"] [data-testid=sla-chip]`), "data-level", level);
  expect(await page.locator(`[data-testid=ticket-row][data-ticket-id="${made[3]}"] [data-testid=sla-chip]`).innerText()).toBe("3 h 0 min");
  await page.locator("[data-testid=ticket-list]").evaluate((el) => el.scrollTo({ top: 0 }));

  // The contact's phone and e-mail, shown while the setting is off.
  if (!(await page.locator("[data-testid=contact-panel]").count())) await page.click("[data-testid=toggle-contact]");
  const info = page.locator("[data-testid=contact-info]");
  await poll(() => info.innerText().catch(() => ""), (s) => s.includes("5531977776666") && s.includes("marina@cliente.test"), "the phone and e-mail on the panel");
  // The menu in the tenant's light colour, with its subtitles; the chat on the light wallpaper.
  const panel = page.locator("[data-testid=menu-panel]");
  await waitAttr(panel, "data-menu-color", "#123e5c");
  expect(await panel.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(18, 62, 92)");
  expect(await page.locator("[data-testid=menu-subtitle]").count()).toBeGreaterThanOrEqual(4);
  await poll(() => page.locator("[data-testid=main-menu] li[data-menu-id$='/home'] .oa-menu-title").evaluate((el) => getComputedStyle(el).color), (c) => c === "rgb(255, 255, 255)", "the white ink on the dark menu colour");
  const wall = page.locator("[data-testid=chat-wallpaper]");
  await waitAttr(wall, "data-wallpaper", "on");
  expect(await wall.evaluate((el) => getComputedStyle(el).backgroundImage)).toMatch(/^url\("blob:/);
  expect(await wall.evaluate((el) => getComputedStyle(el).backgroundSize)).toBe("cover");
  await page.locator(".oa-bubble").first().waitFor();
  await page.mouse.move(760, 600);
  await shot(page, "settings-act-before");

  // The admin hides contact info and the menu's subtitles; the agent's next step follows.
  await set("hideContactInfo", true);
  await set("hideMenuSubtitles", true);
  await navigateAway(page, tk.body.id);
  if (!(await page.locator("[data-testid=contact-panel]").count())) await page.click("[data-testid=toggle-contact]");
  await poll(() => info.innerText().catch(() => ""), (s) => s.length > 0 && !s.includes("5531977776666") && !s.includes("marina@cliente.test"), "the panel without phone and e-mail");
  await page.locator("[data-testid=contact-hidden]").first().waitFor();
  await waitCount(page.locator("[data-testid=menu-subtitle]"), 0);
  expect(await page.locator("body").innerText()).not.toContain("5531977776666");
  await page.locator(".oa-bubble").first().waitFor();
  await page.mouse.move(760, 600);
  await shot(page, "settings-act-hidden");

  // Dark mode: the menu's dark colour (dark ink on it) and the dark wallpaper.
  const lightUrl = await wall.evaluate((el) => getComputedStyle(el).backgroundImage);
  await page.click("[data-testid=theme-toggle]");
  await waitAttr(panel, "data-menu-color", "#e9dfc8");
  expect(await panel.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(233, 223, 200)");
  const homeInk = () => page.locator("[data-testid=main-menu] li[data-menu-id$='/home'] .oa-menu-title").evaluate((el) => getComputedStyle(el).color);
  // (The menu's colours ease in: read once they have settled.)
  await poll(homeInk, (c) => c === "rgb(29, 35, 33)", "the dark ink on the light menu colour");
  await poll(() => wall.evaluate((el) => getComputedStyle(el).backgroundImage), (v) => /^url\("blob:/.test(v) && v !== lightUrl, "the dark wallpaper");
  await page.click("[data-testid=contact-close]");
  await page.mouse.move(760, 600);
  await shot(page, "settings-act-dark");
  await page.click("[data-testid=theme-toggle]");
  await waitAttr(panel, "data-menu-color", "#123e5c");

  // pageSize: the contacts page (thirteen contacts) opens on the tenant's page of ten.
  await set("pageSize", 10);
  await page.click("[data-testid=main-menu] li[data-menu-id$='/contatos']");
  await waitCount(page.locator("[data-testid=contacts-table] tr[data-testid^=contact-row-]"), 10);
  expect(await page.locator("[data-testid=contacts-pagination] .ant-select-content, [data-testid=contacts-pagination] .ant-select-selection-item").first().innerText()).toContain("10");
  await page.mouse.move(760, 600);
  await shot(page, "settings-act-contacts-page");

  // Live: an admin's change reaches the open screen without a step of the agent (the socket).
  const before = pages.length;
  await set("menuColors", { light: "#5b2a86", dark: "#e9dfc8" });
  await waitAttr(panel, "data-menu-color", "#5b2a86");
  expect(page.url()).toContain("#/contatos");
  expect(pages.length).toBe(before);

  expect(screenErrors(page)).toEqual([]);
});
