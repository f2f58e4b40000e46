/**
 * The core API's files and plan actions, and media sends (plugin-sdk core-api/contract.ts):
 * a plugin stores a file among its tenant's files (streamed by the SDK's uploadPlatformFile;
 * 10 MB at most, or the plugin's lower cap; its type checked by its first bytes), sends it on
 * a ticket of a real channel (Telegram, against its local Bot API) as an agent's file goes,
 * and is refused another tenant's file or ticket; the plan cap answers the free plan's code.
 * Real MariaDB, Redis and the core.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import type { Service } from "moleculer";
import { uploadPlatformFile, type PlatformFile } from "@openatende/plugin-sdk";
import { createTenant, type TestCore, type TenantFixture } from "./helpers";
import { allowPlugins, probeCall, rejection, startWithProbe, PROBE } from "./platform-setup";
import { FakeBotApi } from "../../plugins/channel-telegram/test/fake-bot-api";
import { connectTelegram, LOOPBACK_FAKES, messagesOf, ticketWithMessages, waitFor } from "../../plugins/channel-telegram/test/helpers";

const MB = 1024 * 1024;
const pdf = (size: number) => Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(size - 9)]);

describe("platform files, media sends and plan caps (MariaDB, Redis)", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let free: TenantFixture;
  let bot: FakeBotApi;
  let tg: Awaited<ReturnType<typeof connectTelegram>>;
  let probe: Service;
  let png: Buffer;

  const upload = (tenantId: number, data: Buffer, mimeType: string, fileName: string, maxBytes?: number) =>
    uploadPlatformFile(probe, { tenantId, data, mimeType, fileName, ...(maxBytes !== undefined ? { maxBytes } : {}) });
  const pluginFolder = (tenantId: number) => path.join(t.core.deps.config.dataDir, "tenants", String(tenantId), "plugin-files", PROBE);
  const filesIn = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : []);

  async function telegramTicket(): Promise<{ ticketId: number; chatId: number }> {
    const chat = { id: 8_000_000 + Math.floor(Math.random() * 999_999), first_name: `Bia ${randomBytes(3).toString("hex")}` };
    bot.pushUpdate(tg.bot.token, { message: FakeBotApi.message(chat, { text: "oi" }, 1) });
    const { ticket } = await ticketWithMessages(t, a.admin, chat.first_name, 1);
    return { ticketId: ticket.id, chatId: chat.id };
  }

  beforeAll(async () => {
    bot = await FakeBotApi.start();
    let sup;
    ({ t, sup } = await startWithProbe({ env: LOOPBACK_FAKES }));
    [a, b, free] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" }), createTenant(t)]);
    for (const x of [a, b]) await allowPlugins(t, sup, x.tenantId);
    await allowPlugins(t, sup, free.tenantId, ["module-fixture"]);
    tg = await connectTelegram(t, a, bot, "polling", `Bot ${randomBytes(3).toString("hex")}`);
    probe = t.core.broker.getLocalService({ name: PROBE, version: 1 }) as Service;
    png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 30, b: 60 } } }).png().toBuffer();
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    await bot?.close();
  });

  describe("platform.files.upload", () => {
    it("stores the file in the plugin's folder of the tenant's files; the tenant's users fetch it, another tenant's do not", async () => {
      const file = await upload(a.tenantId, png, "image/png", "cardápio.png");
      expect(file).toEqual({
        path: expect.stringMatching(new RegExp(`^tenants/${a.tenantId}/plugin-files/${PROBE}/\\d{4}-\\d{2}/[0-9a-f-]{36}-card.pio\\.png$`)),
        url: `/api/files/${encodeURIComponent(file.path)}`,
        mimeType: "image/png",
        fileName: expect.stringMatching(/^card.pio\.png$/),
        size: png.length,
      });
      expect(fs.readFileSync(path.join(t.core.deps.config.dataDir, file.path)).equals(png)).toBe(true);
      const own = await t.api.get(`/files/${encodeURIComponent(file.path)}`, a.agent);
      expect(own.status).toBe(200);
      expect((await t.api.get(`/files/${encodeURIComponent(file.path)}`, b.admin)).status).toBe(404);
      // Several chunks (192 KiB each) arrive whole.
      const big = pdf(3 * MB + 17);
      const doc = await upload(a.tenantId, big, "application/pdf", "catalogo.pdf");
      expect(doc).toMatchObject({ mimeType: "application/pdf", size: big.length });
      expect(fs.readFileSync(path.join(t.core.deps.config.dataDir, doc.path)).equals(big)).toBe(true);
    });

    it("refuses a file over the plugin's cap or over 10 MB whatever the cap asked, leaving nothing behind", async () => {
      const before = filesIn(pluginFolder(a.tenantId)).length;
      expect((await rejection(upload(a.tenantId, pdf(1001), "application/pdf", "x.pdf", 1000))).type).toBe("ERR_MEDIA_TOO_LARGE");
      expect(await upload(a.tenantId, pdf(1000), "application/pdf", "x.pdf", 1000)).toMatchObject({ size: 1000 });
      const over = await rejection(upload(a.tenantId, pdf(10 * MB + 1), "application/pdf", "grande.pdf", 50 * MB));
      expect(over).toMatchObject({ type: "ERR_MEDIA_TOO_LARGE", code: 413, data: { max: 10 * MB } });
      expect(filesIn(pluginFolder(a.tenantId)).length).toBe(before + 1);
    });

    it("checks the type by the content: an image that is not one, markup, a made-up type, an empty file", async () => {
      const cases: Array<[Buffer, string, string]> = [
        [pdf(2000), "image/png", "ERR_INVALID_IMAGE_FORMAT"],
        [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), "image/svg+xml", "ERR_UNSUPPORTED_MEDIA_TYPE"],
        [Buffer.from("<!DOCTYPE html><html><script>alert(1)</script></html>"), "text/plain", "ERR_UNSUPPORTED_MEDIA_TYPE"],
        [Buffer.from("<html><body>oi</body></html>"), "text/html", "ERR_UNSUPPORTED_MEDIA_TYPE"],
        [Buffer.from("not a pdf at all"), "application/pdf", "ERR_UNSUPPORTED_MEDIA_TYPE"],
        [Buffer.from("hello"), "not a type", "ERR_UNSUPPORTED_MEDIA_TYPE"],
        [Buffer.alloc(0), "text/plain", "ERR_NO_FILE_UPLOADED"],
      ];
      const before = filesIn(pluginFolder(a.tenantId)).length;
      for (const [data, mime, code] of cases) expect([mime, (await rejection(upload(a.tenantId, data, mime, "f.bin"))).type]).toEqual([mime, code]);
      expect(filesIn(pluginFolder(a.tenantId)).length).toBe(before);
      // A JPEG called image/png is stored as what it is; a plain text as text.
      const jpeg = await sharp(png).jpeg().toBuffer();
      expect(await upload(a.tenantId, jpeg, "image/png", "foto.png")).toMatchObject({ mimeType: "image/jpeg" });
      expect(await upload(a.tenantId, Buffer.from("1 — Vendas\n2 — Suporte"), "text/plain; charset=utf-8", "menu.txt")).toMatchObject({ mimeType: "text/plain" });
    });

    it("a tenant where the plugin is not allowed is refused before anything is stored", async () => {
      expect((await rejection(upload(free.tenantId, png, "image/png", "x.png"))).type).toMatch(/^ERR_(PLUGIN_DISABLED|LICENSE_TIER_REQUIRED|PLUGIN_NOT_ALLOWED)/);
      expect(filesIn(pluginFolder(free.tenantId))).toEqual([]);
    });
  });

  describe("platform.messages.send with media", () => {
    let file: PlatformFile;
    let ticketId: number;
    let chatId: number;
    beforeAll(async () => {
      file = await upload(a.tenantId, png, "image/png", "menu.png");
      ({ ticketId, chatId } = await telegramTicket());
    });

    it("sends the tenant's file through the ticket's connection as an agent's goes; the message records it", async () => {
      const sent = await probeCall(t, "platform.messages.send", { tenantId: a.tenantId, ticketId, body: "Nosso cardápio", media: file });
      expect(sent).toMatchObject({ ticketId, fromMe: true, userId: null, body: "Nosso cardápio", mediaType: "image" });
      const photo = await waitFor("Telegram to receive the photo", async () => bot.sends(tg.bot.token, { chatId, method: "sendPhoto" })[0]);
      expect(photo.params.caption).toBe("Nosso cardápio");
      expect(photo.files.photo.data.equals(png)).toBe(true);
      const stored = await waitFor("the message sent", async () => (await messagesOf(t, a.admin, ticketId)).find((m) => m.id === sent.id && m.status !== "pending"));
      expect(stored).toMatchObject({ fromMe: true, status: "sent", mediaType: "image", media: { fileName: "menu.png", mimeType: "image/png", size: png.length, url: file.url } });
      // A file without a caption: the body may be empty.
      const doc = await upload(a.tenantId, pdf(4000), "application/pdf", "tabela.pdf");
      const bare = await probeCall(t, "platform.messages.send", { tenantId: a.tenantId, ticketId, body: "", media: doc });
      expect(bare).toMatchObject({ mediaType: "document", body: null });
      const sentDoc = await waitFor("Telegram to receive the document", async () => bot.sends(tg.bot.token, { chatId, method: "sendDocument" })[0]);
      expect(sentDoc.files.document.data.length).toBe(4000);
    });

    it("another tenant's file, a made-up path, a path out of the tenant's folder: ERR_VALIDATION on media; a type the file is not: refused", async () => {
      const theirs = await upload(b.tenantId, png, "image/png", "deles.png");
      const bad = [
        theirs,
        { ...file, path: `tenants/${a.tenantId}/plugin-files/${PROBE}/2026-01/nada.png` },
        { ...file, path: `tenants/${a.tenantId}/../${b.tenantId}/${theirs.path.split("/").slice(2).join("/")}` },
        { ...file, path: "/etc/passwd" },
        { ...file, path: `tenants/${a.tenantId}` },
      ];
      for (const media of bad) {
        const err = await rejection(probeCall(t, "platform.messages.send", { tenantId: a.tenantId, ticketId, body: "x", media }));
        expect([media.path, err.type, err.data?.field]).toEqual([media.path, "ERR_VALIDATION", "media"]);
      }
      const doc = await upload(a.tenantId, pdf(3000), "application/pdf", "t.pdf");
      expect((await rejection(probeCall(t, "platform.messages.send", { tenantId: a.tenantId, ticketId, body: "x", media: { ...doc, mimeType: "image/png" } }))).type).toBe("ERR_INVALID_IMAGE_FORMAT");
      expect((await rejection(probeCall(t, "platform.messages.send", { tenantId: a.tenantId, ticketId, body: "  " }))).type).toBe("ERR_REQUIRED_BODY");
      // Another tenant's ticket is not found, with or without media.
      expect((await rejection(probeCall(t, "platform.messages.send", { tenantId: b.tenantId, ticketId, body: "x", media: theirs }))).type).toBe("ERR_TICKET_NOT_FOUND");
    });

    it("removing a ticket that sent the plugin's file keeps the file (a flow sends it again)", async () => {
      const again = await telegramTicket();
      // Shown by this ticket's message only: without the rule, the ticket's removal would take it.
      const only = await upload(a.tenantId, png, "image/png", "so-aqui.png");
      await probeCall(t, "platform.messages.send", { tenantId: a.tenantId, ticketId: again.ticketId, body: "", media: only });
      await waitFor("the photo sent", async () => bot.sends(tg.bot.token, { chatId: again.chatId, method: "sendPhoto" })[0]);
      expect((await t.api.del(`/tickets/${again.ticketId}`, a.admin)).status).toBe(200);
      expect((await t.api.get(`/messages/${again.ticketId}`, a.admin)).status).toBe(404);
      expect(fs.existsSync(path.join(t.core.deps.config.dataDir, only.path))).toBe(true);
    });
  });

  describe("platform.plan.assertWithin", () => {
    const fixture = () => ({ name: "module-fixture", broker: t.core.broker, metadata: { plugin: { id: "module-fixture" } } });
    it("the free plan allows one active chatflow: the second is ERR_FREE_PLAN_CHATFLOW_LIMIT", async () => {
      const { coreApi } = await import("@openatende/plugin-sdk");
      expect(await coreApi(fixture()).plan.assertWithin({ tenantId: free.tenantId, kind: "chatflows", current: 0 })).toEqual({ max: 1 });
      const over = await rejection(coreApi(fixture()).plan.assertWithin({ tenantId: free.tenantId, kind: "chatflows", current: 1 }));
      expect(over).toMatchObject({ type: "ERR_FREE_PLAN_CHATFLOW_LIMIT", code: 403, data: { current: 1, max: 1, kind: "chatflows" } });
    });

    it("a paid tenant has no cap; an unknown kind or a bad count is a validation error; a tenant the plugin may not act for is refused", async () => {
      expect(await probeCall(t, "platform.plan.assertWithin", { tenantId: a.tenantId, kind: "chatflows", current: 25 })).toEqual({ max: null });
      expect((await rejection(probeCall(t, "platform.plan.assertWithin", { tenantId: a.tenantId, kind: "users" as never, current: 0 }))).type).toBe("VALIDATION_ERROR");
      expect((await rejection(probeCall(t, "platform.plan.assertWithin", { tenantId: a.tenantId, kind: "chatflows", current: -1 }))).type).toBe("VALIDATION_ERROR");
      expect((await rejection(probeCall(t, "platform.plan.assertWithin", { tenantId: free.tenantId, kind: "chatflows", current: 0 }))).type).toMatch(/^ERR_/);
    });
  });
});
