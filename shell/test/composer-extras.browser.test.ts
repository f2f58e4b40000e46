/**
 * The composer's extras in Chromium against a real core (spec §2, §4, §6): a Telegram
 * customer's ticket (local Bot API), started by the admin and handed to the agent, shows its
 * log among the messages (opened, started, transferred, received) and its total time; the
 * agent's signature switch makes the core sign; the agent searches GIFs (a local GIPHY,
 * "Powered By GIPHY" in view) and sends one, which reaches Telegram as a file; a picture is
 * made a sticker by the core and shown, and sent on Telegram (which declares the sticker
 * capability) with sendSticker, drawn as a sticker in the chat.
 */
import sharp from "sharp";
import type { Browser } from "playwright-core";
import { createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { FakeBotApi } from "../../plugins/channel-telegram/test/fake-bot-api";
import { FakeGiphy, TINY_GIF } from "../../core/test/fake-giphy";
import { launchBrowser, newPage, notices, poll, screenshot, sessionLogin } from "./browser";

jest.setTimeout(180_000);

describe("composer extras in Chromium", () => {
  let t: TestCore;
  let f: TenantFixture;
  let browser: Browser;
  let bot: FakeBotApi;
  let giphy: FakeGiphy;

  beforeAll(async () => {
    bot = await FakeBotApi.start();
    giphy = await new FakeGiphy(`key-${uid()}`).start();
    const tile = await sharp({ create: { width: 200, height: 113, channels: 3, background: { r: 255, g: 110, b: 60 } } }).png().toBuffer();
    giphy.previewDataUrl = `data:image/png;base64,${tile.toString("base64")}`;
    // The fake Bot API is on loopback: the platform allow-lists it (outbound URL policy).
    t = await startCore({ env: { OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
    f = await createTenant(t, { tier: "PLUS" });
    await t.core.broker.call("settings.setGlobal", { key: "giphy", value: { apiKey: giphy["key"], baseUrl: giphy.url } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    await bot?.close();
    await giphy?.close();
  });

  it("shows the ticket's log and total time, sends a GIF from the picker, makes a sticker", async () => {
    const b = bot.addBot();
    const c = await t.api.post("/connections", { name: `Bot ${uid()}`, type: "channel-telegram", queueId: f.queueIds[0], settings: { token: b.token, mode: "polling", apiRoot: bot.url } }, f.admin);
    expect(c.status).toBe(201);
    expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).status).toBe(200);
    const chat = { id: 710_000_000 + Math.floor(Math.random() * 999_999), first_name: "Marta", last_name: `Lima ${uid()}` };
    bot.pushUpdate(b.token, { message: FakeBotApi.message(chat, { text: "Oi! Vocês têm o modelo azul?" }, 1) });
    const ticket = await poll(
      async () => ((await t.api.get("/tickets?status=pending,open&showAll=true", f.admin)).body.tickets as Array<{ id: number; contact: { name: string } }>).find((x) => x.contact.name.includes(chat.last_name)),
      (x) => !!x,
      "the customer's ticket",
      20_000,
    );
    const ticketId = ticket!.id;
    // The admin starts the service and hands the ticket to the agent.
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.admin)).status).toBe(200);
    expect((await t.api.put(`/tickets/${ticketId}`, { userId: f.agent.userId }, f.admin)).status).toBe(200);

    const page = await newPage(browser, { viewport: { width: 1360, height: 860 } });
    await sessionLogin(page, t.url, f.emails.agent, `/atendimento/${ticketId}`);
    await page.waitForSelector(`[data-testid=chat-pane][data-ticket-id="${ticketId}"]`, { timeout: 20_000 });

    // The log among the messages: opened, started by the admin, transferred to the agent; the total time at the top.
    const lines = page.locator("[data-testid=ticket-log-line]");
    await lines.first().waitFor();
    const types = await poll(() => lines.evaluateAll((els) => els.map((e) => e.getAttribute("data-log-type"))), (x) => x.includes("receivedTransfer"), "the log lines");
    expect(types).toEqual(["created", "started", "transfered", "receivedTransfer"]);
    expect(await lines.allTextContents()).toEqual([
      expect.stringMatching(/^ Sistema abriu o atendimento · \d\d:\d\d$/),
      expect.stringMatching(/^ Admin iniciou o atendimento · /),
      expect.stringMatching(/^ Admin transferiu para Você · /),
      expect.stringMatching(/^ Você recebeu por transferência · /),
    ]);
    expect(await page.locator("[data-testid=ticket-total-time]").textContent()).toMatch(/^\s*Aberto há \d+ (s|min)$/);
    await screenshot(page, "composer-extras-log");

    // The signature switch shows while the tenant leaves it to each agent: on, the core signs.
    await page.click("[data-testid=signature-toggle]");
    await poll(async () => ((await t.core.broker.call("users.getInternal", { id: f.agent.userId })) as { configs: { signature?: boolean } }).configs.signature, (on) => on === true, "the signature saved in the agent's configs");
    await page.fill("[data-testid=composer-input]", "Temos sim!");
    await page.keyboard.press("Enter");
    const signedText = await poll(async () => bot.sends(b.token, { chatId: chat.id, method: "sendMessage" }), (s) => s.length === 1, "the signed text on Telegram");
    expect(signedText[0].params.text).toBe("*Agent:*\nTemos sim!");
    await page.locator("[data-testid=message-signature]").filter({ hasText: "Agent:" }).waitFor();

    // GIF picker: results from GIPHY, the attribution in view; one is sent.
    await page.click("[data-testid=composer-gif]");
    await page.fill("[data-testid=gif-search] input", "cat");
    await page.locator("[data-testid=gif-result]").nth(1).waitFor();
    expect(await page.locator("[data-testid=gif-result]").count()).toBe(2);
    expect(await page.locator("[data-testid=gif-attribution]").isVisible()).toBe(true);
    expect(await page.locator("[data-testid=gif-attribution]").textContent()).toBe("Powered By GIPHY");
    await screenshot(page, "composer-extras-gif-picker");
    await page.locator("[data-testid=gif-result]").first().click();
    await page.locator("[data-testid=message][data-from-me='1'] [data-testid=media-image]").first().waitFor({ timeout: 15_000 });
    const sent = await poll(async () => bot.sends(b.token, { chatId: chat.id }).filter((x) => Object.keys(x.files).length), (s) => s.length === 1, "the GIF on Telegram");
    expect(Object.values(sent[0].files)[0].data).toEqual(TINY_GIF);
    await page.locator("[data-testid=gif-picker]").waitFor({ state: "hidden" });

    // Sticker: the core makes it (512x512, transparent padding) and the maker shows it.
    const picture = await sharp({ create: { width: 600, height: 300, channels: 4, background: { r: 30, g: 140, b: 90, alpha: 1 } } }).png().toBuffer();
    await page.click("[data-testid=composer-sticker]");
    await page.locator("[data-testid=sticker-maker] input[type=file]").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: picture });
    const preview = page.locator("[data-testid=sticker-preview]");
    await preview.waitFor();
    expect(await preview.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight, img.src.slice(0, 22)])).toEqual([512, 512, "data:image/webp;base64"]);
    await screenshot(page, "composer-extras-sticker");
    // Telegram declares the sticker capability: it goes out with sendSticker, a sticker in the chat.
    await page.click("[data-testid=sticker-send]");
    await page.locator("[data-testid=message][data-from-me='1'] [data-testid=media-sticker]").first().waitFor({ timeout: 15_000 });
    const stickers = await poll(async () => bot.sends(b.token, { chatId: chat.id, method: "sendSticker" }), (s) => s.length === 1, "the sticker on Telegram");
    expect((await sharp(Object.values(stickers[0].files)[0].data).metadata())).toMatchObject({ format: "webp", width: 512, height: 512 });
    await screenshot(page, "composer-extras-sticker-sent");
    expect(page.errors.filter((e) => !/status of (400|404)/.test(e) && !/\/api\/plugins\/[^/]+\/remote\//.test(e))).toEqual([]);
  });
});
