/**
 * Settings › Geral and Settings › Globais in Chromium against a real core (spec §2, §3, §6):
 * an admin forces the signature on (the agent's composer then has no switch and a message sent
 * reaches Telegram signed with the agent's name); the admin has no global-settings tab and is
 * sent home with the no-permission notice when opening it; the master admin saves a GIPHY key
 * pointing at a local GIPHY (an invalid address is refused on its field; a wrong key first: Test shows the catalogue's error; then the
 * right one: Test shows the GIFs), the key read back masked. Then the whole Geral screen: an admin
 * changes a setting of each group (a number the core refuses shown on its field; the SLA order
 * kept by the form; the protocol preview following each keystroke; a menu colour; a wallpaper
 * uploaded, a text disguised as an image refused), each value read back through GET /settings
 * and shown again after a reload.
 */
import sharp from "sharp";
import type { Browser } from "playwright-core";
import { createSuper, createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { FakeBotApi } from "../../plugins/channel-telegram/test/fake-bot-api";
import { FakeGiphy } from "../../core/test/fake-giphy";
import { acceptTerms, launchBrowser, newPage, notices, poll, screenErrors, scrollTo, sessionLogin, shot, waitAttr, waitCount, waitText } from "./browser";

jest.setTimeout(180_000);

let t: TestCore;
let f: TenantFixture;
let browser: Browser;
let bot: FakeBotApi;
let giphy: FakeGiphy;
const GIPHY_KEY = `key-${uid()}`;

beforeAll(async () => {
  bot = await FakeBotApi.start();
  giphy = await new FakeGiphy(GIPHY_KEY).start();
  const tile = await sharp({ create: { width: 200, height: 113, channels: 3, background: { r: 90, g: 60, b: 220 } } }).png().toBuffer();
  giphy.previewDataUrl = `data:image/png;base64,${tile.toString("base64")}`;
  giphy.gifs.push({ id: "test1", title: "Test pattern" }, { id: "test2", title: "Testing 1 2 3" });
  // The fake Bot API is on loopback: the platform allow-lists it (outbound URL policy).
  t = await startCore({ env: { OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
  f = await createTenant(t);
  await acceptTerms(t, f);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await bot?.close();
  await giphy?.close();
});

test("an admin forces the signature on: the agent's composer has no switch and the message goes out signed; global settings are not the admin's", async () => {
  // The agent's Telegram ticket (set up before the admin's browser session ends f.admin's API one).
  const b = bot.addBot();
  const c = await t.api.post("/connections", { name: `Bot ${uid()}`, type: "channel-telegram", queueId: f.queueIds[0], settings: { token: b.token, mode: "polling", apiRoot: bot.url } }, f.admin);
  expect(c.status).toBe(201);
  expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).status).toBe(200);
  const chat = { id: 720_000_000 + Math.floor(Math.random() * 999_999), first_name: "Rita", last_name: `Souza ${uid()}` };
  bot.pushUpdate(b.token, { message: FakeBotApi.message(chat, { text: "Bom dia!" }, 1) });
  const ticket = await poll(
    async () => ((await t.api.get("/tickets?status=pending,open&showAll=true", f.admin)).body.tickets as Array<{ id: number; contact: { name: string } }>).find((x) => x.contact.name.includes(chat.last_name)),
    (x) => !!x,
    "the customer's ticket",
    20_000,
  );
  expect((await t.api.put(`/tickets/${ticket!.id}`, { status: "open" }, f.admin)).status).toBe(200);
  expect((await t.api.put(`/tickets/${ticket!.id}`, { userId: f.agent.userId }, f.admin)).status).toBe(200);
  expect((await t.api.get("/signature", f.agent)).body).toEqual({ mode: "user", enabled: false });

  // The admin: Geral is the first settings tab; no Globais tab.
  const page = await newPage(browser);
  await sessionLogin(page, t.url, f.emails.admin, "/configuracoes/geral");
  await page.waitForSelector("[data-testid=general-settings-page] [data-testid=signature-mode-user]", { timeout: 30_000 }).catch(async (e) => {
    await shot(page, "settings-general-open-failed");
    throw new Error(`${(e as Error).message}\n${page.url()}\n${page.errors.join("\n")}`);
  });
  const tabs = await page.locator(".oa-settings-tabs [data-testid^=settings-tab-]").evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")));
  expect(tabs[0]).toBe("settings-tab-geral");
  expect(tabs).not.toContain("settings-tab-globais");
  expect(await page.locator("label:has([data-testid=signature-mode-user]) input").isChecked()).toBe(true);
  await shot(page, "settings-general-signature-user");

  await page.click("[data-testid=signature-mode-on]");
  await poll(() => notices(page), (n) => n.some((x) => x.kind === "success" && x.title === "Configuração salva"), "the saved notice");
  expect((await t.api.get("/signature", f.agent)).body).toEqual({ mode: "on", enabled: true });
  expect(await page.locator("label:has([data-testid=signature-mode-on]) input").isChecked()).toBe(true);
  await shot(page, "settings-general-signature-on");

  // Global settings are the master admin's: the notice, then home.
  await page.evaluate(() => (location.hash = "#/configuracoes/globais"));
  await poll(() => notices(page), (n) => n.some((x) => x.kind === "error" && x.title === "Sem permissão"), "the no-permission notice");
  await poll(async () => page.url(), (u) => u.endsWith("#/home"), "the way home");
  expect(await page.locator("[data-testid=global-settings-page]").count()).toBe(0);
  expect(screenErrors(page)).toEqual([]);

  // The agent: no switch in the composer, and the message carries their name.
  const agent = await newPage(browser, { viewport: { width: 1360, height: 860 } });
  const signatureRead = agent.waitForResponse((r) => r.url().endsWith("/api/signature"), { timeout: 30_000 });
  await sessionLogin(agent, t.url, f.emails.agent, `/atendimento/${ticket!.id}`);
  await agent.waitForSelector(`[data-testid=chat-pane][data-ticket-id="${ticket!.id}"] [data-testid=composer-input]`, { timeout: 20_000 });
  expect(await (await signatureRead).json()).toEqual({ mode: "on", enabled: true });
  expect(await agent.locator("[data-testid=signature-toggle]").count()).toBe(0);
  await agent.fill("[data-testid=composer-input]", "Posso ajudar?");
  await agent.keyboard.press("Enter");
  const sent = await poll(async () => bot.sends(b.token, { chatId: chat.id, method: "sendMessage" }), (s) => s.length === 1, "the signed text on Telegram", 15_000);
  expect(sent[0].params.text).toBe("*Agent:*\nPosso ajudar?");
  await waitText(agent.locator("[data-testid=message-signature]"), "Agent:");
  await shot(agent, "settings-general-signed-message");
  expect(screenErrors(agent)).toEqual([]);
});

test("the master admin saves the GIPHY key in Globais › Sistema and Test shows GIFs, or the catalogue's error", async () => {
  const master = await createSuper(t);
  const page = await newPage(browser);
  await sessionLogin(page, t.url, master.email, "/configuracoes");
  await page.click("[data-testid=settings-tab-globais]", { timeout: 15_000 });
  await page.waitForSelector("[data-testid=global-settings-page] [data-testid=giphy-form]", { timeout: 15_000 });
  expect(page.url()).toContain("#/configuracoes/globais");
  // Only the tabs that work.
  expect(await page.locator("[data-testid^=global-tab-]").evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")))).toEqual(["global-tab-sistema", "global-tab-typebot"]);
  await waitText(page.locator("[data-testid=giphy-status]"), "Sem chave");
  expect(await page.locator("[data-testid=giphy-test]").isDisabled()).toBe(true);
  await shot(page, "settings-global-giphy-empty");

  // An address that is not one: the core's validation shown on its field, nothing stored.
  await page.fill("[data-testid=giphy-key]", "wrong-key");
  await page.fill("[data-testid=giphy-base-url]", "giphy local");
  await page.click("[data-testid=giphy-save]");
  await waitText(page.locator("[data-testid=setting-giphy-base-url] .ant-form-item-explain-error"), "Informe um endereço http(s) válido");
  expect(await t.core.broker.call("settings.getGlobal", { key: "giphy" })).toBeNull();

  // A wrong key: saved, and Test answers the catalogue's error.
  await page.fill("[data-testid=giphy-base-url]", giphy.url);
  await page.click("[data-testid=giphy-save]");
  await waitText(page.locator("[data-testid=giphy-status]"), "Chave configurada");
  expect(await t.core.broker.call("settings.getGlobal", { key: "giphy" })).toEqual({ apiKey: "wrong-key", baseUrl: giphy.url, rating: "g" });
  await page.click("[data-testid=giphy-test]");
  await waitAttr(page.locator("[data-testid=giphy-test-result]"), "data-ok", "0");
  await waitText(page.locator("[data-testid=giphy-test-result]"), "Busca de GIFs indisponível");
  await shot(page, "settings-global-giphy-error");

  // The right key, rating PG: the field shows the key masked once saved (and the eye shows the mask, never the key).
  await page.fill("[data-testid=giphy-key]", GIPHY_KEY);
  await page.locator("[data-testid=setting-giphy-rating] .ant-select").click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "PG · orientação dos pais" }).click();
  await page.click("[data-testid=giphy-save]");
  await poll(() => notices(page), (n) => n.filter((x) => x.kind === "success" && x.title === "Configuração da GIPHY salva").length === 2, "the second saved notice");
  expect(await t.core.broker.call("settings.getGlobal", { key: "giphy" })).toEqual({ apiKey: GIPHY_KEY, baseUrl: giphy.url, rating: "pg" });
  await poll(() => page.inputValue("[data-testid=giphy-key]", { timeout: 1000 }).catch((e) => String(e).slice(0, 80)), (v) => v === "********", "the masked key");
  expect(await page.getAttribute("[data-testid=giphy-key]", "type")).toBe("password");
  await page.locator("[data-testid=setting-giphy-key] .ant-input-password-icon").click();
  expect(await page.getAttribute("[data-testid=giphy-key]", "type")).toBe("text");

  await page.click("[data-testid=giphy-test]");
  await waitAttr(page.locator("[data-testid=giphy-test-result]"), "data-ok", "1");
  await waitCount(page.locator("[data-testid=giphy-test-gif]"), 2);
  await waitText(page.locator("[data-testid=giphy-test-result]"), "2 GIFs para “test”");
  expect(giphy.searches.at(-1)).toMatchObject({ q: "test", api_key: GIPHY_KEY, rating: "pg" });
  await shot(page, "settings-global-giphy-ok");
  // The wrong key's test was answered 502 (GIPHY refused it) on purpose.
  expect(screenErrors(page).filter((e) => !/status of 502/.test(e))).toEqual([]);
});

test("an admin sets every group of Geral: each value saved as the core stores it, the protocol preview live, a wallpaper uploaded", async () => {
  const g = await createTenant(t);
  await acceptTerms(t, g);
  // The agent reads the settings through the API (the admin's browser login ends the admin's API session).
  const stored = async () => (await t.api.get("/settings", g.agent)).body as Record<string, any>;
  const saved = async (page: import("playwright-core").Page, n: number) => poll(() => notices(page), (x) => x.filter((y) => y.kind === "success" && y.title === "Configuração salva").length >= n, `saved notice ×${n}`);
  const today = (() => {
    const parts = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(new Date());
    const p = (k: string) => parts.find((x) => x.type === k)!.value;
    return `${p("year")}${p("month")}${p("day")}`;
  })();

  const page = await newPage(browser, { viewport: { width: 1366, height: 768 } });
  await sessionLogin(page, t.url, g.emails.admin, "/configuracoes/geral");
  await page.waitForSelector("[data-testid=settings-group-visibilidade] [data-testid=groups-hidden-users]", { timeout: 30_000 });
  for (const group of ["atendimento", "sla", "protocolo", "aparencia", "visibilidade"]) expect(await page.locator(`[data-testid=settings-group-${group}]`).count()).toBe(1);
  await shot(page, "settings-general-top");

  // Atendimento: a page size the core refuses shows its rule on the field and stores nothing; a good one is saved on leaving the field.
  const pageSize = page.locator("[data-testid=page-size]");
  await pageSize.fill("3");
  await pageSize.press("Tab");
  await waitText(page.locator("[data-testid=page-size-error]"), "Use no mínimo 5");
  expect((await stored()).pageSize).toBeUndefined();
  await pageSize.fill("25");
  await pageSize.press("Enter");
  await saved(page, 1);
  await waitCount(page.locator("[data-testid=page-size-error]"), 0); // the field clears its error once its save has answered (just after the notice)
  expect((await stored()).pageSize).toBe(25);
  // Auto-close: 2 hours, then its message appears and is saved when left.
  expect(await page.locator("[data-testid=auto-close-message]").count()).toBe(0);
  await page.locator("[data-testid=setting-auto-close] .ant-select").click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="2 horas"]').click();
  await poll(stored, (s) => s.autoClose?.minutes === 120, "auto-close 2 h");
  await page.fill("[data-testid=auto-close-message]", "Encerramos por falta de resposta.");
  await page.locator("[data-testid=page-size]").click();
  await poll(stored, (s) => s.autoClose?.message === "Encerramos por falta de resposta.", "the auto-close message");
  expect((await stored()).autoClose).toEqual({ minutes: 120, message: "Encerramos por falta de resposta." });
  await scrollTo(page.locator("[data-testid=setting-auto-close]"));
  await shot(page, "settings-general-atendimento");

  // SLA: out of order is refused by the form on the field; in order it is saved.
  const yellow = page.locator("[data-testid=sla-yellow]");
  await yellow.fill("20");
  await yellow.press("Tab");
  await waitText(page.locator("[data-testid=sla-yellow-error]"), "verde < amarelo < vermelho");
  expect((await stored()).sla).toBeUndefined();
  await scrollTo(page.locator("[data-testid=settings-group-sla]"));
  await shot(page, "settings-general-sla-order");
  await page.fill("[data-testid=sla-green]", "15");
  await page.fill("[data-testid=sla-yellow]", "45");
  await page.fill("[data-testid=sla-red]", "90");
  await page.locator("[data-testid=sla-red]").press("Enter");
  await poll(stored, (s) => s.sla?.red === 90, "the SLA thresholds");
  expect((await stored()).sla).toEqual({ green: 15, yellow: 45, red: 90 });
  await waitCount(page.locator("[data-testid=sla-yellow-error]"), 0); // the field clears its error once its save has answered (just after the notice)

  // Protocolo: the preview follows each keystroke, before anything is saved.
  const preview = page.locator("[data-testid=protocol-preview]");
  await scrollTo(page.locator("[data-testid=settings-group-protocolo]"));
  expect(await preview.innerText()).toBe(`${today}1234`);
  await page.locator("[data-testid=protocol-prefix]").pressSequentially("AT-");
  await waitText(preview, `AT-${today}1234`);
  expect((await stored()).protocol).toBeUndefined();
  await page.locator("[data-testid=protocol-separator]").click();
  await poll(stored, (s) => s.protocol?.prefix === "AT-", "the prefix saved on leaving");
  await page.locator("[data-testid=protocol-separator]").pressSequentially("/");
  await waitText(preview, `AT-${today}/1234`);
  await page.click("[data-testid=protocol-id-start]");
  await waitText(preview, `AT-1234/${today}`);
  await poll(stored, (s) => s.protocol?.idPosition === "start", "the id position");
  expect((await stored()).protocol).toEqual({ dateFormat: "YYYYMMDD", idPosition: "start", prefix: "AT-", suffix: "", separator: "/" });
  await page.locator("[data-testid=setting-protocol-date-format] .ant-select").click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title^="YYMMDD "]').click();
  await waitText(preview, `AT-1234/${today.slice(2)}`);
  await poll(stored, (s) => s.protocol?.dateFormat === "YYMMDD", "the date format");
  await scrollTo(page.locator("[data-testid=settings-group-protocolo]"));
  await shot(page, "settings-general-protocolo");

  // Aparência: the light menu colour typed in the picker, saved when it closes; subtitles hidden.
  await scrollTo(page.locator("[data-testid=settings-group-aparencia]"));
  await waitText(page.locator("[data-testid=menu-color-light-text]"), "Cor do tema");
  await page.click("[data-testid=menu-color-light-picker]");
  const hex = page.locator(".ant-color-picker-hex-input:visible input");
  await hex.fill("1d4ed8");
  await hex.press("Enter");
  await page.locator("#settings-group-aparencia-title").click();
  await poll(stored, (s) => !!s.menuColors, "the menu colours");
  expect((await stored()).menuColors).toEqual({ light: "#1d4ed8", dark: null });
  await waitText(page.locator("[data-testid=menu-color-light-text]"), "#1d4ed8");
  await page.click("[data-testid=hide-menu-subtitles-switch]");
  await poll(stored, (s) => s.hideMenuSubtitles === true, "subtitles hidden");

  // A wallpaper: a text disguised as a PNG is refused by the core, shown on the field; a real image is stored and shown.
  const lightInput = page.locator("[data-testid=wallpaper-light] input[type=file]");
  await lightInput.setInputFiles({ name: "praia.png", mimeType: "image/png", buffer: Buffer.from("isto não é uma imagem") });
  await waitText(page.locator("[data-testid=wallpaper-light-error]"), "Envie uma imagem em um formato aceito");
  expect((await stored()).wallpapers).toBeUndefined();
  const wallpaper = await sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 205, g: 228, b: 214 } } })
    .composite([{ input: await sharp({ create: { width: 400, height: 400, channels: 3, background: { r: 10, g: 125, b: 79 } } }).png().toBuffer(), left: 600, top: 250 }])
    .png()
    .toBuffer();
  await lightInput.setInputFiles({ name: "praia.png", mimeType: "image/png", buffer: wallpaper });
  await page.waitForSelector("[data-testid=wallpaper-light-image]", { timeout: 15_000 });
  const wallpapers = (await stored()).wallpapers;
  expect(wallpapers).toEqual({ light: expect.stringMatching(new RegExp(`^/api/files/tenants%2F${g.tenantId}%2Fwallpapers%2Flight-.+\\.png$`)), dark: null });
  await waitCount(page.locator("[data-testid=wallpaper-light-error]"), 0); // the field clears its error once its save has answered (just after the notice)
  expect(await page.locator("[data-testid=wallpaper-light-ratio]").count()).toBe(0);
  // The stored file is the image sent, for the tenant's users.
  const file = await fetch(t.url + wallpapers.light, { headers: { authorization: `Bearer ${g.agent.token}`, "x-session-id": g.agent.sessionId } });
  expect(file.status).toBe(200);
  expect(Buffer.from(await file.arrayBuffer()).equals(wallpaper)).toBe(true);
  await scrollTo(page.locator("[data-testid=setting-wallpapers]"));
  await shot(page, "settings-general-aparencia");

  // Visibilidade: phone and e-mail hidden from agents; the groups tab hidden for the agent.
  await scrollTo(page.locator("[data-testid=settings-group-visibilidade]"));
  await page.click("[data-testid=hide-contact-info-switch]");
  await poll(stored, (s) => s.hideContactInfo === true, "contact info hidden");
  await page.locator("[data-testid=setting-groups-hidden] .ant-select").click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "Agent" }).click();
  await poll(stored, (s) => Array.isArray(s.groupsHiddenForUsers) && s.groupsHiddenForUsers.length === 1, "the groups tab hidden");
  expect((await stored()).groupsHiddenForUsers).toEqual([g.agent.userId]);
  await page.keyboard.press("Escape");
  await page.click("[data-testid=force-wallet-delivery-switch]");
  await poll(stored, (s) => s.forceWalletDelivery === true, "delivery by wallet");
  await scrollTo(page.locator("[data-testid=settings-group-visibilidade]"));
  await shot(page, "settings-general-visibilidade");

  // Everything as stored, and shown again after a reload.
  const all = await stored();
  expect(all).toMatchObject({ pageSize: 25, sla: { green: 15, yellow: 45, red: 90 }, hideMenuSubtitles: true, hideContactInfo: true, forceWalletDelivery: true, groupsHiddenForUsers: [g.agent.userId] });
  expect(all.ticketsOwnerOnly).toBeUndefined();
  await page.reload();
  await page.waitForSelector("[data-testid=wallpaper-light-image]", { timeout: 20_000 });
  expect(await page.inputValue("[data-testid=page-size]")).toBe("25");
  expect(await page.inputValue("[data-testid=sla-yellow]")).toBe("45");
  expect(await page.inputValue("[data-testid=auto-close-message]")).toBe("Encerramos por falta de resposta.");
  expect(await preview.innerText()).toBe(`AT-1234/${today.slice(2)}`);
  await waitText(page.locator("[data-testid=menu-color-light-text]"), "#1d4ed8");
  expect(await page.locator("[data-testid=hide-contact-info-switch]").getAttribute("aria-checked")).toBe("true");
  expect(await page.locator("[data-testid=tickets-owner-only-switch]").getAttribute("aria-checked")).toBe("false");
  await waitText(page.locator("[data-testid=setting-groups-hidden] .ant-select-selection-item"), "Agent");

  // The same screen in the dark theme.
  await page.click("[data-testid=theme-toggle]");
  await poll(() => page.evaluate(() => document.documentElement.classList.contains("oa-dark")), (d) => d, "the dark theme");
  await page.mouse.move(700, 500);
  await scrollTo(page.locator("[data-testid=settings-group-aparencia]"));
  await shot(page, "settings-general-aparencia-dark");
  await page.click("[data-testid=theme-toggle]");

  // Removing the wallpaper clears it.
  await scrollTo(page.locator("[data-testid=setting-wallpapers]"));
  await page.click("[data-testid=wallpaper-light-remove]");
  await page.locator(".ant-popconfirm:visible .ant-btn-primary").click();
  await waitCount(page.locator("[data-testid=wallpaper-light-image]"), 0);
  expect((await stored()).wallpapers).toEqual({ light: null, dark: null });

  // The page size just saved (25) governs the users list too: Usuários asks for pages of it.
  const usersPage = page.waitForRequest((r) => new URL(r.url()).pathname.endsWith("/api/users") && r.method() === "GET");
  await page.click("[data-testid=settings-tab-usuarios]");
  expect(new URL((await usersPage).url()).searchParams.get("pageSize")).toBe("25");
  expect(screenErrors(page)).toEqual([]);
});
