/**
 * Customers' Telegram messages into the real core (MariaDB, Redis, the plugin host loading
 * this plugin), through webhook and long polling, against a local server that speaks the Bot
 * API's protocol. Checked through the API: tickets, messages, files, connection status.
 */
import { randomBytes } from "node:crypto";
import { startCore, createTenant, TestCore, TenantFixture, uid } from "@openatende/core/testkit";
import { pluginContext, withPluginContext } from "@openatende/plugin-sdk";
import plugin from "../src/service";
import { FakeBotApi } from "./fake-bot-api";
import { connectTelegram, messagesOf, sleep, TelegramConnection, ticketsOf, ticketWithMessages, waitFor, LOOPBACK_FAKES } from "./helpers";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

describe("Telegram inbound, real core", () => {
  let api: FakeBotApi;
  let t: TestCore;
  let f: TenantFixture;

  beforeAll(async () => {
    api = await FakeBotApi.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
    await api?.close();
  });

  /** Downloads a stored message file through the API, as the agent's browser would. */
  async function fileBytes(url: string): Promise<Buffer> {
    const res = await fetch(`${t.url}${url}`, { headers: { authorization: `Bearer ${f.agent.token}`, "x-session-id": f.agent.sessionId } });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  }

  describe("webhook mode", () => {
    let c: TelegramConnection;
    let messageSeq = 0;
    const customer = () => ({ id: 7_000_000 + Math.floor(Math.random() * 1_000_000), first_name: `Ana ${uid()}` });
    const update = (chat: { id: number; first_name: string }, fields: Record<string, unknown>, updateId = api.nextUpdateId(c.bot.token)) => ({
      update_id: updateId,
      message: FakeBotApi.message(chat, fields, ++messageSeq),
    });
    const deliver = (u: Record<string, unknown>, secret?: string | null) => api.deliverWebhook(c.bot.token, u, { origin: t.url, secret });

    beforeAll(async () => {
      c = await connectTelegram(t, f, api, "webhook", "Telegram webhook");
    });

    it("connect checks the token, then sets the webhook at the public URL with a secret", () => {
      expect(c.status).toBe("connected");
      expect(c.statusDetail).toContain(`@${c.bot.username}`);
      const hook = api.webhookOf(c.bot.token)!;
      expect(hook.url).toBe(`${t.config.publicUrl}/api/telegram/${c.token}/webhook`);
      expect(hook.secret_token).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
      expect(hook.allowed_updates).toEqual(["message"]);
      const methods = api.calls.filter((x) => x.token === c.bot.token).map((x) => x.method);
      expect(methods.indexOf("getMe")).toBeGreaterThanOrEqual(0);
      expect(methods.indexOf("getMe")).toBeLessThan(methods.indexOf("setWebhook"));
    });

    it("an update with a wrong or missing secret is refused with 401 and nothing is stored", async () => {
      const chat = customer();
      const u = update(chat, { text: "não devia entrar" });
      for (const secret of ["wrong-secret", null, api.webhookOf(c.bot.token)!.secret_token!.slice(1)]) {
        const r = await deliver(u, secret);
        expect(r.status).toBe(401);
        expect(r.body).toMatchObject({ error: "ERR_TOKEN_INVALID", data: { reason: "webhook-secret" } });
        expect(typeof r.body.message).toBe("string");
      }
      // Another bot's connection's secret does not open this one.
      const other = await connectTelegram(t, f, api, "webhook", "Outro bot");
      expect((await deliver(u, api.webhookOf(other.bot.token)!.secret_token)).status).toBe(401);
      await sleep(200);
      expect(await ticketsOf(t, f.admin, chat.first_name)).toEqual([]);
      // The same update with the right secret goes in: it was refused for the secret alone.
      expect((await deliver(u)).status).toBe(200);
      await ticketWithMessages(t, f.admin, chat.first_name, 1);
    });

    it("an update becomes a pending ticket with the message; the same update_id again stores nothing", async () => {
      const chat = customer();
      const u = update(chat, { text: "Olá, vocês entregam no sábado?" });
      const first = await deliver(u);
      expect(first).toMatchObject({ status: 200, body: { ok: true, result: "stored" } });
      const { ticket, messages } = await ticketWithMessages(t, f.admin, chat.first_name, 1);
      expect(ticket.status).toBe("pending");
      expect(messages).toHaveLength(1);
      const m = messages[0];
      const msg = u.message as { message_id: number; date: number };
      expect(m).toMatchObject({ fromMe: false, body: "Olá, vocês entregam no sábado?", providerId: `${chat.id}:${msg.message_id}`, mediaType: null });
      expect(m.timestamp).toBe(msg.date * 1000);

      // Telegram redelivers (our answer was slow): dropped by update_id.
      const again = await deliver(u);
      expect(again).toMatchObject({ status: 200, body: { ok: true, result: "duplicate" } });
      // The same message in another update (a redelivery after a restart): the core keeps one.
      const replay = await deliver({ ...u, update_id: api.nextUpdateId(c.bot.token) });
      expect(replay).toMatchObject({ status: 200, body: { ok: true, result: "duplicate" } });
      await sleep(200);
      expect(await messagesOf(t, f.admin, ticket.id)).toHaveLength(1);
      expect(await ticketsOf(t, f.admin, chat.first_name)).toHaveLength(1);

      // A reply to that message arrives quoting it.
      const reply = update(chat, { text: "Aguardo", reply_to_message: { message_id: msg.message_id, date: msg.date, chat: { id: chat.id, type: "private" } } });
      expect((await deliver(reply)).status).toBe(200);
      const after = await messagesOf(t, f.admin, ticket.id);
      expect(after).toHaveLength(2);
      expect(after[1]).toMatchObject({ body: "Aguardo", quotedMsgId: m.id });
    });

    describe("each kind of message is normalised", () => {
      const file = (name: string, data: Buffer, extra: Record<string, unknown> = {}) => {
        const stored = api.addFile(c.bot.token, data, { path: `media/${name}` });
        return { file_id: stored.file_id, file_unique_id: stored.file_unique_id, file_size: stored.file_size, ...extra };
      };
      const bytes = {
        photo: PNG,
        document: Buffer.from("%PDF-1.4 fake pdf " + randomBytes(64).toString("hex")),
        audio: randomBytes(3000),
        voice: randomBytes(1500),
        video: randomBytes(5000),
      };

      it("text", async () => {
        const chat = customer();
        await deliver(update(chat, { text: "só texto" }));
        const [m] = (await ticketWithMessages(t, f.admin, chat.first_name, 1)).messages;
        expect(m).toMatchObject({ body: "só texto", mediaType: null, media: null });
      });

      it("photo (the largest size, downloaded through getFile, stored by the core)", async () => {
        const chat = customer();
        const small = file("thumb.jpg", Buffer.from("tiny"));
        const big = file("photo.jpg", bytes.photo, { width: 1, height: 1 });
        await deliver(update(chat, { photo: [small, big], caption: "minha foto" }));
        const [m] = (await ticketWithMessages(t, f.admin, chat.first_name, 1)).messages;
        expect(m).toMatchObject({ body: "minha foto", mediaType: "image", media: { mimeType: "image/jpeg", size: bytes.photo.length } });
        expect(m.media!.fileName).toMatch(/^photo-.*\.jpg$/);
        expect((await fileBytes(m.media!.url)).equals(bytes.photo)).toBe(true);
      });

      it("document (its own name and type)", async () => {
        const chat = customer();
        await deliver(update(chat, { document: file("contrato.pdf", bytes.document, { file_name: "contrato.pdf", mime_type: "application/pdf" }) }));
        const [m] = (await ticketWithMessages(t, f.admin, chat.first_name, 1)).messages;
        expect(m).toMatchObject({ body: null, mediaType: "document", media: { fileName: "contrato.pdf", mimeType: "application/pdf", size: bytes.document.length } });
        expect((await fileBytes(m.media!.url)).equals(bytes.document)).toBe(true);
      });

      it("audio", async () => {
        const chat = customer();
        await deliver(update(chat, { audio: file("song.mp3", bytes.audio, { duration: 3, mime_type: "audio/mpeg", file_name: "musica.mp3" }) }));
        const [m] = (await ticketWithMessages(t, f.admin, chat.first_name, 1)).messages;
        expect(m).toMatchObject({ mediaType: "audio", media: { fileName: "musica.mp3", mimeType: "audio/mpeg", size: bytes.audio.length } });
        expect((await fileBytes(m.media!.url)).equals(bytes.audio)).toBe(true);
      });

      it("voice", async () => {
        const chat = customer();
        await deliver(update(chat, { voice: file("voice.oga", bytes.voice, { duration: 2, mime_type: "audio/ogg" }) }));
        const [m] = (await ticketWithMessages(t, f.admin, chat.first_name, 1)).messages;
        expect(m).toMatchObject({ mediaType: "audio", media: { mimeType: "audio/ogg", size: bytes.voice.length } });
        expect(m.media!.fileName).toMatch(/^voice-.*\.ogg$/);
        expect((await fileBytes(m.media!.url)).equals(bytes.voice)).toBe(true);
      });

      it("video", async () => {
        const chat = customer();
        await deliver(update(chat, { video: file("clip.mp4", bytes.video, { duration: 4, width: 2, height: 2, mime_type: "video/mp4" }), caption: "olha isso" }));
        const [m] = (await ticketWithMessages(t, f.admin, chat.first_name, 1)).messages;
        expect(m).toMatchObject({ body: "olha isso", mediaType: "video", media: { mimeType: "video/mp4", size: bytes.video.length } });
        expect((await fileBytes(m.media!.url)).equals(bytes.video)).toBe(true);
      });

      it("location (and a venue, with its name)", async () => {
        const chat = customer();
        await deliver(update(chat, { location: { latitude: -23.561414, longitude: -46.655881 } }));
        await deliver(update(chat, { location: { latitude: -22.9519, longitude: -43.2105 }, venue: { location: { latitude: -22.9519, longitude: -43.2105 }, title: "Cristo Redentor", address: "Parque Nacional da Tijuca" } }));
        const [a, b] = (await ticketWithMessages(t, f.admin, chat.first_name, 2)).messages;
        expect(a).toMatchObject({ mediaType: "location", media: null, body: "📍 (-23.561414, -46.655881)" });
        expect(b).toMatchObject({ mediaType: "location", body: "📍 Cristo Redentor, Parque Nacional da Tijuca (-22.9519, -43.2105)" });
      });

      it("contact card", async () => {
        const chat = customer();
        await deliver(update(chat, { contact: { phone_number: "+5511988887777", first_name: "João", last_name: "Silva", user_id: 42 } }));
        const [m] = (await ticketWithMessages(t, f.admin, chat.first_name, 1)).messages;
        expect(m).toMatchObject({ mediaType: "contact", media: null, body: "👤 João Silva +5511988887777" });
      });

      it("a file over 10 MB arrives as a note instead of the file; updates that are no message are acknowledged and skipped", async () => {
        const chat = customer();
        const huge = api.addFile(c.bot.token, Buffer.from("never fetched"), { path: "media/huge.zip" });
        const r = await deliver(update(chat, { document: { file_id: huge.file_id, file_unique_id: huge.file_unique_id, file_size: 11 * 1024 * 1024, file_name: "backup.zip" }, caption: "segue" }));
        expect(r.status).toBe(200);
        const [m] = (await ticketWithMessages(t, f.admin, chat.first_name, 1)).messages;
        expect(m.media).toBeNull();
        expect(m.body).toMatch(/^segue\n📎 backup\.zip \(11\.0 MB\)/);
        expect(api.calls.some((x) => x.method === "getFile" && x.params.file_id === huge.file_id)).toBe(false);

        const joined = await deliver({ update_id: api.nextUpdateId(c.bot.token), message: { ...FakeBotApi.message(chat, {}, ++messageSeq), new_chat_members: [{ id: 1, is_bot: false, first_name: "X" }] } });
        expect(joined).toMatchObject({ status: 200, body: { result: "ignored" } });
        const edited = await deliver({ update_id: api.nextUpdateId(c.bot.token), edited_message: FakeBotApi.message(chat, { text: "editado" }, messageSeq) });
        expect(edited).toMatchObject({ status: 200, body: { result: "ignored" } });
        expect(await messagesOf(t, f.admin, (await ticketsOf(t, f.admin, chat.first_name))[0].id)).toHaveLength(1);
      });
    });

    it("disconnect takes the webhook off Telegram, and later deliveries are refused", async () => {
      const secret = api.webhookOf(c.bot.token)!.secret_token!;
      const d = await t.api.post(`/connections/${c.id}/disconnect`, {}, f.admin);
      expect(d.body.status).toBe("disconnected");
      expect(api.webhookOf(c.bot.token)).toBeNull();
      // A late delivery, even correctly signed, stores nothing.
      const chat = customer();
      const raw = await fetch(`${t.url}/api/telegram/${c.token}/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret },
        body: JSON.stringify(update(chat, { text: "tarde demais" })),
      });
      expect(raw.status).toBe(404);
      expect(await ticketsOf(t, f.admin, chat.first_name)).toEqual([]);
    });
  });

  describe("polling mode", () => {
    it("receives updates and, stopped and started again, goes on at the next update without reading any twice", async () => {
      const c = await connectTelegram(t, f, api, "polling", "Telegram polling");
      expect(c.status).toBe("connected");
      expect(c.statusDetail).toContain("polling");
      const chat = { id: 5_550_001, first_name: `Bia ${uid()}` };
      const u1 = api.pushUpdate(c.bot.token, { message: FakeBotApi.message(chat, { text: "um" }, 1) });
      const u2 = api.pushUpdate(c.bot.token, { message: FakeBotApi.message(chat, { text: "dois" }, 2) });
      await ticketWithMessages(t, f.admin, chat.first_name, 2);

      expect((await t.api.post(`/connections/${c.id}/disconnect`, {}, f.admin)).body.status).toBe("disconnected");
      // Stopping confirmed what was handed over: Telegram holds nothing for this bot.
      expect(api.pending(c.bot.token)).toEqual([]);
      const u3 = api.pushUpdate(c.bot.token, { message: FakeBotApi.message(chat, { text: "três" }, 3) });
      const before = api.getUpdatesLog(c.bot.token).length;
      await sleep(300);
      expect(api.getUpdatesLog(c.bot.token).length).toBe(before); // nobody polls while disconnected

      expect((await t.api.post(`/connections/${c.id}/connect`, {}, f.admin)).body.status).toBe("connected");
      const { messages } = await ticketWithMessages(t, f.admin, chat.first_name, 3);
      expect(messages.map((m) => m.body)).toEqual(["um", "dois", "três"]);
      expect(api.getUpdatesLog(c.bot.token)[before].offset).toBe(u2.update_id + 1);
      for (const u of [u1, u2, u3]) expect(api.deliveries(c.bot.token, u.update_id)).toBe(1);

      // The plugin restarts (its memory gone): Telegram's confirmations still hold.
      const broker = t.core.broker;
      const svc = broker.getLocalService({ name: "channel-telegram", version: 1 })!;
      const context = pluginContext(svc); // the host's, its Redis prefix included
      await broker.destroyService(svc);
      expect(api.pending(c.bot.token)).toEqual([]);
      broker.createService(withPluginContext(plugin.schema, context));
      await broker.waitForServices(["v1.channel-telegram"]);
      const restartAt = api.getUpdatesLog(c.bot.token).length;
      expect((await t.api.post(`/connections/${c.id}/connect`, {}, f.admin)).body.status).toBe("connected");
      api.pushUpdate(c.bot.token, { message: FakeBotApi.message(chat, { text: "quatro" }, 4) });
      const after = await ticketWithMessages(t, f.admin, chat.first_name, 4);
      expect(after.messages.map((m) => m.body)).toEqual(["um", "dois", "três", "quatro"]);
      expect(api.getUpdatesLog(c.bot.token)[restartAt].offset).toBeUndefined();
      for (const u of [u1, u2, u3]) expect(api.deliveries(c.bot.token, u.update_id)).toBe(1);
      await t.api.post(`/connections/${c.id}/disconnect`, {}, f.admin);
    });

    it("a revoked token stops polling and marks the connection disconnected with Telegram's reason", async () => {
      const c = await connectTelegram(t, f, api, "polling", "Telegram revogado");
      const chat = { id: 5_550_002, first_name: `Caio ${uid()}` };
      // Wait for the poller's long poll, then answer it with an update; the next call is refused.
      await waitFor("a long poll", async () => api.getUpdatesLog(c.bot.token).length > 0);
      api.failNext("getUpdates", { error_code: 401, description: "Unauthorized" });
      api.pushUpdate(c.bot.token, { message: FakeBotApi.message(chat, { text: "oi" }, 1) });
      const row = await waitFor("status disconnected", async () => {
        const r = await t.api.get(`/connections/${c.id}`, f.admin);
        return r.body.status === "disconnected" ? r.body : null;
      });
      expect(row.statusDetail).toContain("Unauthorized");
      const calls = api.getUpdatesLog(c.bot.token).length;
      await sleep(1500);
      expect(api.getUpdatesLog(c.bot.token).length).toBe(calls);
      await ticketWithMessages(t, f.admin, chat.first_name, 1);
    });

    it("another getUpdates client on the same bot is reported as a conflict", async () => {
      const c = await connectTelegram(t, f, api, "polling", "Telegram conflito");
      await waitFor("a long poll", async () => api.getUpdatesLog(c.bot.token).length > 0);
      // Someone else polls the same bot: Telegram ends our long poll with 409.
      const intruder = fetch(`${api.url}/bot${c.bot.token}/getUpdates?timeout=1`);
      const row = await waitFor("status conflict", async () => {
        const r = await t.api.get(`/connections/${c.id}`, f.admin);
        return r.body.status === "conflict" ? r.body : null;
      });
      expect(row.statusDetail).toContain("Conflict");
      await intruder;
      // Alone again, polling recovers.
      await waitFor("status connected again", async () => (await t.api.get(`/connections/${c.id}`, f.admin)).body.status === "connected", 15_000);
      await t.api.post(`/connections/${c.id}/disconnect`, {}, f.admin);
    }, 30_000);
  });

  describe("status", () => {
    it("a token Telegram does not know is reported disconnected with the reason, an unreachable Bot API as timeout", async () => {
      const bad = `123456789:${"A".repeat(35)}`;
      const c1 = await t.api.post("/connections", { name: "Token errado", type: "channel-telegram", settings: { token: bad, mode: "polling", apiRoot: api.url } }, f.admin);
      const on1 = await t.api.post(`/connections/${c1.body.id}/connect`, {}, f.admin);
      expect(on1.body).toMatchObject({ status: "disconnected" });
      expect(on1.body.statusDetail).toMatch(/refused the bot token.*Unauthorized/);

      const c2 = await t.api.post("/connections", { name: "Sem rede", type: "channel-telegram", settings: { token: bad, mode: "polling", apiRoot: "http://127.0.0.1:9" } }, f.admin);
      const on2 = await t.api.post(`/connections/${c2.body.id}/connect`, {}, f.admin);
      expect(on2.body).toMatchObject({ status: "timeout" });
      expect(on2.body.statusDetail).toMatch(/unreachable/);
      expect(on2.body.statusDetail).not.toContain(bad.split(":")[1]);
      await t.api.post(`/connections/${c2.body.id}/disconnect`, {}, f.admin);

      // The settings screen's test: getMe with the typed settings.
      const good = api.addBot({ username: "loja_bot" });
      expect((await t.api.post("/connections/test", { type: "channel-telegram", settings: { token: good.token, mode: "polling", apiRoot: api.url } }, f.admin)).body).toEqual({ ok: true, detail: "@loja_bot" });
      expect((await t.api.post("/connections/test", { type: "channel-telegram", settings: { token: bad, mode: "polling", apiRoot: api.url } }, f.admin)).body.ok).toBe(false);
    });

    it("the settings are validated: a token is required and must look like a bot token", async () => {
      for (const settings of [{ mode: "polling" }, { token: "abc", mode: "polling" }, { token: `12345:${"x".repeat(35)}`, mode: "carrier-pigeon" }]) {
        const r = await t.api.post("/connections", { name: `Inválida ${uid()}`, type: "channel-telegram", settings }, f.admin);
        expect(r.status).toBe(400);
        expect(r.body.error).toBe("ERR_VALIDATION");
        expect(String(r.body.data.field)).toMatch(/^settings\./);
      }
    });
  });
});
