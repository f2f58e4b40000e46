/**
 * The composer's extras and the ticket's log (spec §2, §4, §6): the agent's signature (their
 * toggle, forced on, forced off; stored and sent alike), GIF search against a local GIPHY
 * (no key, a synthetic answer, the per-user rate limit) and a GIF sent through Telegram's
 * local Bot API, stickers (made 512x512 WebP; sent with sendSticker on Telegram, which declares
 * the sticker capability; refused on a channel without it), and the log keeping "deleted"
 * entries. Real MariaDB and Redis.
 */
import sharp from "sharp";
import { startCore, createTenant, createSuper, TestCore, TenantFixture, Auth, Res, uid } from "./helpers";
import { FakeGiphy, TINY_GIF } from "./fake-giphy";
import { FakeBotApi } from "../../plugins/channel-telegram/test/fake-bot-api";
import { connectTelegram, LOOPBACK_FAKES, ticketWithMessages, waitFor } from "../../plugins/channel-telegram/test/helpers";
import { GIF_SEARCHES_PER_MINUTE } from "../src/messages/composer-extras";

type Msg = { id: number; body: string | null; mediaType: string | null; media: { fileName: string; mimeType: string; url: string } | null; status: string };

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

const png = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 4, background: { r: 20, g: 120, b: 200, alpha: 1 } } }).png().toBuffer();

describe("composer extras (MariaDB, Redis)", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let giphy: FakeGiphy;
  let bot: FakeBotApi;
  let tg: Awaited<ReturnType<typeof connectTelegram>>;
  let web: { id: number; token: string };

  async function telegramTicket(f: TenantFixture, who: Auth) {
    const chat = { id: 7_000_000 + Math.floor(Math.random() * 999_999), first_name: `Ana ${uid()}` };
    bot.pushUpdate(tg.bot.token, { message: FakeBotApi.message(chat, { text: "oi" }, 1) });
    const { ticket } = await ticketWithMessages(t, f.admin, chat.first_name, 1);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, who)).status).toBe(200);
    return { ticketId: ticket.id, chatId: chat.id };
  }

  async function webchatTicket(f: TenantFixture, connectionId: number, who: Auth) {
    const r = (await t.core.broker.call("channels.inbound", {
      tenantId: f.tenantId,
      connectionId,
      providerMessageId: `p-${uid()}`,
      timestamp: Date.now(),
      from: { externalId: `v-${uid()}`, name: `Visitante ${uid()}` },
      body: "olá",
    })) as { ticketId: number };
    expect((await t.api.put(`/tickets/${r.ticketId}`, { status: "open" }, who)).status).toBe(200);
    return r.ticketId;
  }

  beforeAll(async () => {
    giphy = await new FakeGiphy(`key-${uid()}`).start();
    bot = await FakeBotApi.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    a = await createTenant(t, { tier: "PLUS" });
    b = await createTenant(t, { tier: "PLUS" });
    tg = await connectTelegram(t, a, bot, "polling", `Bot ${uid()}`);
    const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: a.queueIds[0] }, a.admin);
    expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, a.admin)).status).toBe(200);
    web = c.body;
  });
  afterAll(async () => {
    await t?.stop();
    await bot?.close();
    await giphy?.close();
  });

  describe("signature", () => {
    it("signs with the agent's name when their toggle is on, never when forced off, always when forced on; stored and sent alike", async () => {
      const { ticketId, chatId } = await telegramTicket(a, a.agent);
      const sendText = async (body: string) => {
        const r = await t.api.post(`/messages/${ticketId}`, { body }, a.agent);
        expect(r.status).toBe(201);
        return r.body as Msg;
      };
      const sentText = (text: string) =>
        waitFor(`Telegram to receive "${text}"`, async () => bot.sends(tg.bot.token, { chatId, method: "sendMessage" }).find((c) => String(c.params.text).endsWith(text)));

      expect((await t.api.get("/signature", a.agent)).body).toEqual({ mode: "user", enabled: false });
      expect((await sendText("sem assinatura")).body).toBe("sem assinatura");

      expect((await t.api.put(`/users/${a.agent.userId}/configs`, { signature: true }, a.agent)).status).toBe(200);
      expect((await t.api.get("/signature", a.agent)).body).toEqual({ mode: "user", enabled: true });
      const signed = await sendText("com assinatura");
      expect(signed.body).toBe("*Agent:*\ncom assinatura");
      // What the channel sent is what is stored.
      expect((await sentText("com assinatura")).params.text).toBe(signed.body);

      // An agent may not force the tenant's mode; an admin may.
      expectError(await t.api.put("/settings/signature", { value: "off" }, a.agent), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put("/settings/signature", { value: "sometimes" }, a.admin), 400, "ERR_VALIDATION");
      expect((await t.api.put("/settings/signature", { value: "off" }, a.admin)).status).toBe(200);
      expect((await t.api.get("/signature", a.agent)).body).toEqual({ mode: "off", enabled: false });
      expect((await sendText("desligada")).body).toBe("desligada");

      expect((await t.api.put(`/users/${a.agent.userId}/configs`, { signature: false }, a.agent)).status).toBe(200);
      expect((await t.api.put("/settings/signature", { value: "on" }, a.admin)).status).toBe(200);
      expect((await t.api.get("/signature", a.agent)).body).toEqual({ mode: "on", enabled: true });
      const forced = await sendText("forçada");
      expect(forced.body).toBe("*Agent:*\nforçada");
      expect((await sentText("forçada")).params.text).toBe("*Agent:*\nforçada");
      // The other tenant is untouched by this tenant's setting.
      expect((await t.api.get("/signature", b.agent)).body).toEqual({ mode: "user", enabled: false });
      expect((await t.api.put("/settings/signature", { value: "user" }, a.admin)).status).toBe(200);
    });
  });

  describe("GIF search", () => {
    it("without a GIPHY key the search and the send answer a catalogue error", async () => {
      expectError(await t.api.get("/gifs/search?q=cat", a.agent), 503, "ERR_GIF_SEARCH_NOT_CONFIGURED");
      const { ticketId } = await telegramTicket(a, a.agent);
      expectError(await t.api.post(`/messages/${ticketId}/gif`, { gifId: "cat1" }, a.agent), 503, "ERR_GIF_SEARCH_NOT_CONFIGURED");
    });

    it("searches GIPHY with the platform's key and sends the chosen GIF, downloaded by the core, as media", async () => {
      // The key lives in the platform's global settings, set by the master super; it is masked on the way out.
      const sup = await createSuper(t);
      expectError(await t.api.put("/settings/global/giphy", { value: { apiKey: "x" } }, a.admin), 403, "ERR_NO_PERMISSION");
      expect((await t.api.put("/settings/global/giphy", { value: { apiKey: giphy["key"], baseUrl: giphy.url } }, sup)).status).toBe(200);
      expect((await t.api.get("/settings/global", sup)).body.giphy).toEqual({ apiKey: "********", baseUrl: giphy.url });
      const r = await t.api.get("/gifs/search?q=cat", a.agent);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ attribution: "Powered By GIPHY", next: null });
      expect(r.body.results.map((g: { id: string }) => g.id)).toEqual(["cat1", "cat2"]);
      expect(r.body.results[0]).toEqual({
        id: "cat1",
        title: "Happy cat",
        preview: { url: `${giphy.url}/media/cat1/200w.gif`, width: 200, height: 113, size: TINY_GIF.length },
        gif: { url: `${giphy.url}/media/cat1/giphy-downsized.gif`, width: 480, height: 270, size: TINY_GIF.length },
      });
      expect(giphy.searches.at(-1)).toMatchObject({ q: "cat", offset: "0", rating: "g" });
      expectError(await t.api.get("/gifs/search?q=", a.agent), 400, "ERR_VALIDATION");

      const { ticketId, chatId } = await telegramTicket(a, a.agent);
      const sent = await t.api.post(`/messages/${ticketId}/gif`, { gifId: "cat2" }, a.agent);
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({ mediaType: "image", media: { fileName: "giphy-cat2.gif", mimeType: "image/gif", size: TINY_GIF.length } });
      const file = await fetch(`${t.url}${sent.body.media.url}`, { headers: { authorization: `Bearer ${a.agent.token}`, "x-session-id": a.agent.sessionId } });
      expect(Buffer.from(await file.arrayBuffer())).toEqual(TINY_GIF);
      // Telegram received the GIF's bytes.
      const call = await waitFor("the GIF on Telegram", async () => bot.sends(tg.bot.token, { chatId }).find((c) => Object.values(c.files).length > 0));
      expect(Object.values(call.files)[0].data).toEqual(TINY_GIF);

      // An id GIPHY does not know; a ticket of another tenant.
      expectError(await t.api.post(`/messages/${ticketId}/gif`, { gifId: "nope" }, a.agent), 404, "ERR_NOT_FOUND");
      expectError(await t.api.post(`/messages/${ticketId}/gif`, { gifId: "cat1" }, b.admin), 404, "ERR_TICKET_NOT_FOUND");
      // The web chat sends no media.
      const webTicket = await webchatTicket(a, web.id, a.agent);
      expectError(await t.api.post(`/messages/${webTicket}/gif`, { gifId: "cat1" }, a.agent), 400, "ERR_CHANNEL_UNSUPPORTED");
    });

    it("a synthetic GIPHY answer is an error, not an empty result", async () => {
      giphy.synthetic = true;
      try {
        expectError(await t.api.get("/gifs/search?q=dog", a.supervisor), 502, "ERR_GIF_SEARCH_FAILED");
      } finally {
        giphy.synthetic = false;
      }
    });

    it(`limits each user to ${GIF_SEARCHES_PER_MINUTE} searches a minute; another user still searches`, async () => {
      const who = b.agent;
      let last: Res | null = null;
      for (let i = 0; i < GIF_SEARCHES_PER_MINUTE; i++) {
        last = await t.api.get(`/gifs/search?q=dog`, who);
        expect(last.status).toBe(200);
      }
      const over = await t.api.get(`/gifs/search?q=dog`, who);
      expectError(over, 429, "ERR_RATE_LIMITED");
      expect(over.body.data.retryAfter).toBeGreaterThan(0);
      expect((await t.api.get(`/gifs/search?q=dog`, b.admin)).status).toBe(200);
    });
  });

  describe("stickers", () => {
    it("a picture becomes a 512x512 WebP with transparent padding", async () => {
      const r = await t.api.post("/stickers/preview", { media: { fileName: "foto.png", mimeType: "image/png", data: (await png(400, 200)).toString("base64") } }, a.agent);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ mimeType: "image/webp", width: 512, height: 512 });
      const meta = await sharp(Buffer.from(r.body.data, "base64")).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha }).toEqual({ format: "webp", width: 512, height: 512, hasAlpha: true });
      expectError(await t.api.post("/stickers/preview", { media: { fileName: "x.png", mimeType: "image/png", data: Buffer.from("not a picture").toString("base64") } }, a.agent), 415, "ERR_UNSUPPORTED_MEDIA_TYPE");
      // Whatever its stated type, what sharp cannot read as a picture is refused.
      expectError(await t.api.post("/stickers/preview", { media: { fileName: "x.pdf", mimeType: "application/pdf", data: "JVBERi0xLjQK" } }, a.agent), 415, "ERR_UNSUPPORTED_MEDIA_TYPE");
      expectError(await t.api.post("/stickers/preview", { media: { fileName: "x.png" } }, a.agent), 400, "ERR_VALIDATION");
    });

    it("goes to Telegram (which declares stickers) with sendSticker: a 512x512 WebP, stored as a sticker; another tenant's ticket is 404", async () => {
      const { ticketId, chatId } = await telegramTicket(a, a.agent);
      const media = { fileName: "retrato.png", mimeType: "image/png", data: (await png(300, 600)).toString("base64") };
      const r = await t.api.post(`/messages/${ticketId}/sticker`, { media }, a.agent);
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ fromMe: true, status: "sent", body: null, mediaType: "sticker", media: { fileName: "retrato.webp", mimeType: "image/webp" } });
      const call = await waitFor("the sticker on Telegram", async () => bot.sends(tg.bot.token, { chatId, method: "sendSticker" }).at(-1));
      expect(call.files.sticker.filename).toBe("retrato.webp");
      const meta = await sharp(call.files.sticker.data).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: "webp", width: 512, height: 512 });
      // Nothing went as a photo, and what the core stored is what Telegram got.
      expect(bot.sends(tg.bot.token, { chatId, method: "sendPhoto" })).toEqual([]);
      const stored = (await t.api.get(`/messages/${ticketId}`, a.agent)).body.messages.find((m: Msg) => m.id === r.body.id) as Msg;
      expect(stored).toMatchObject({ mediaType: "sticker", status: "sent" });
      const file = await fetch(`${t.url}${stored.media!.url}`, { headers: { authorization: `Bearer ${a.agent.token}`, "x-session-id": a.agent.sessionId } });
      expect(Buffer.from(await file.arrayBuffer())).toEqual(call.files.sticker.data);
      expectError(await t.api.post(`/messages/${ticketId}/sticker`, { media }, b.admin), 404, "ERR_TICKET_NOT_FOUND");
    });

    it("is refused on a channel that does not declare stickers (web chat) with the catalogue's error, nothing stored; another tenant's ticket is 404", async () => {
      const media = { fileName: "foto.png", mimeType: "image/png", data: (await png(64, 64)).toString("base64") };
      const webTicket = await webchatTicket(a, web.id, a.agent);
      const r = await t.api.post(`/messages/${webTicket}/sticker`, { media }, a.agent);
      expectError(r, 400, "ERR_CHANNEL_UNSUPPORTED");
      expect(r.body.data).toMatchObject({ kind: "sticker" });
      expect(r.body.data.supported).not.toContain("sticker");
      expect(typeof r.body.title).toBe("string");
      const list = await t.api.get(`/messages/${webTicket}`, a.agent);
      expect((list.body.messages as Msg[]).filter((m) => m.mediaType)).toEqual([]);
      expectError(await t.api.post(`/messages/${webTicket}/sticker`, { media }, b.admin), 404, "ERR_TICKET_NOT_FOUND");
    });
  });

  describe("ticket log", () => {
    it("logs a deleted message and a deleted ticket, keeping every entry; another tenant gets 404", async () => {
      const { ticketId } = await telegramTicket(a, a.admin);
      const m = await t.api.post(`/messages/${ticketId}`, { body: "apagar" }, a.admin);
      expect(m.status).toBe(201);
      await waitFor("the message sent", async () => (await t.api.get(`/messages/${ticketId}`, a.admin)).body.messages.find((x: Msg) => x.id === m.body.id && x.status === "sent"));
      expect((await t.api.del(`/messages/${m.body.id}`, a.admin)).status).toBe(200);
      const logs = await t.api.get(`/tickets/${ticketId}/logs`, a.admin);
      expect(logs.status).toBe(200);
      const types = (logs.body as Array<{ type: string }>).map((l) => l.type);
      expect(types).toEqual(expect.arrayContaining(["created", "started", "deleted"]));
      expect((logs.body as Array<{ type: string; userId: number; data: unknown }>).find((l) => l.type === "deleted")).toMatchObject({ userId: a.admin.userId, data: { messageId: m.body.id } });
      expectError(await t.api.get(`/tickets/${ticketId}/logs`, b.admin), 404, "ERR_TICKET_NOT_FOUND");

      expect((await t.api.del(`/tickets/${ticketId}`, a.admin)).status).toBe(200);
      expectError(await t.api.get(`/tickets/${ticketId}/logs`, a.admin), 404, "ERR_TICKET_NOT_FOUND");
      // The ticket is gone; its log stays for audit, "deleted" (by whom) last.
      const [rows] = (await t.core.sequelize.query("SELECT type, userId FROM ticket_logs WHERE tenantId = ? AND ticketId = ? ORDER BY id", { replacements: [a.tenantId, ticketId] })) as [Array<{ type: string; userId: number | null }>, unknown];
      expect(rows.length).toBe(types.length + 1);
      expect(rows.at(-1)).toEqual({ type: "deleted", userId: a.admin.userId });
    });
  });
});
