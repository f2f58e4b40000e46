import type { Update } from "telegraf/types";
import { normaliseUpdate, parseProviderId, providerId } from "./normalise";
import { sendMethodFor } from "./media";
import { splitText } from "./outbound";
import { readSettings, webhookSecret, redact } from "./bot-api";

const user = { id: 10, is_bot: false, first_name: "Ana", last_name: "Lima", username: "analima" };
const msg = (fields: Record<string, unknown>, chat: Record<string, unknown> = { ...user, type: "private" }) =>
  ({ update_id: 1, message: { message_id: 5, date: 1_700_000_000, from: user, chat, ...fields } }) as unknown as Update;

describe("normaliseUpdate", () => {
  it("a private text: provider id <chat>:<message>, ms timestamp, the person's name", () => {
    expect(normaliseUpdate(msg({ text: "oi" }))).toEqual({
      draft: { providerMessageId: "10:5", timestamp: 1_700_000_000_000, from: { externalId: "10", name: "Ana Lima" }, body: "oi" },
    });
  });

  it("a group message belongs to the group's ticket and names its sender", () => {
    const n = normaliseUpdate(msg({ text: "bom dia" }, { id: -100200, type: "supergroup", title: "Clientes VIP" }))!;
    expect(n.draft).toMatchObject({ providerMessageId: "-100200:5", isGroup: true, from: { externalId: "-100200", name: "Clientes VIP" }, body: "Ana Lima: bom dia" });
  });

  it("names the file of each media kind, the largest photo, the caption as body", () => {
    const photo = normaliseUpdate(msg({ photo: [{ file_id: "s", file_unique_id: "us", width: 1, height: 1 }, { file_id: "L", file_unique_id: "uL", width: 9, height: 9, file_size: 99 }], caption: "c" }))!;
    expect(photo).toMatchObject({ draft: { body: "c" }, file: { fileId: "L", fileName: "photo-uL.jpg", mimeType: "image/jpeg", size: 99 } });
    expect(normaliseUpdate(msg({ voice: { file_id: "v", file_unique_id: "uv", duration: 1 } }))!.file).toMatchObject({ mimeType: "audio/ogg", fileName: "voice-uv.ogg" });
    expect(normaliseUpdate(msg({ sticker: { file_id: "k", file_unique_id: "uk", emoji: "😀", is_animated: false, is_video: false } }))).toMatchObject({ draft: { body: "😀" }, file: { mimeType: "image/webp" } });
    // An animation also carries a document: it is the animation.
    expect(normaliseUpdate(msg({ animation: { file_id: "a", file_unique_id: "ua" }, document: { file_id: "a" } }))!.file).toMatchObject({ fileId: "a", mimeType: "video/mp4" });
  });

  it("skips what is no customer message", () => {
    expect(normaliseUpdate({ update_id: 1, edited_message: {} } as unknown as Update)).toBeNull();
    expect(normaliseUpdate(msg({ new_chat_members: [user] }))).toBeNull();
    expect(normaliseUpdate(msg({ poll: { id: "p", question: "?" } }))).toBeNull();
  });
});

describe("helpers", () => {
  it("provider ids round-trip, @channel chats included", () => {
    expect(parseProviderId(providerId(-100200, 7))).toEqual({ chatId: "-100200", messageId: 7 });
    expect(parseProviderId("@loja:3")).toEqual({ chatId: "@loja", messageId: 3 });
    expect(parseProviderId("nonsense")).toBeNull();
  });

  it("picks the send method by type", () => {
    expect(["image/png", "image/gif", "audio/ogg", "audio/mpeg", "video/mp4", "video/quicktime", "application/pdf"].map(sendMethodFor)).toEqual([
      "sendPhoto",
      "sendAnimation",
      "sendVoice",
      "sendAudio",
      "sendVideo",
      "sendDocument",
      "sendDocument",
    ]);
  });

  it("splits long texts under Telegram's limit, at spaces, without breaking an emoji", () => {
    const text = "palavra ".repeat(1200);
    const parts = splitText(text);
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.every((p) => p.length <= 4096)).toBe(true);
    expect(parts.join("")).toBe(text);
    const emoji = "😀".repeat(3000);
    const e = splitText(emoji);
    expect(e.join("")).toBe(emoji);
    expect(e.every((p) => !/[\uD800-\uDBFF]$/.test(p))).toBe(true);
  });

  it("reads settings; the webhook secret is stable per bot and connection and fits Telegram's alphabet", () => {
    const token = `123456:${"a".repeat(35)}`;
    expect(readSettings({ token, mode: "webhook" })).toEqual({ ok: true, settings: { token, mode: "webhook", apiRoot: "https://api.telegram.org" } });
    expect(readSettings({ token: "bad" }).ok).toBe(false);
    expect(webhookSecret(token, "conn-1")).toBe(webhookSecret(token, "conn-1"));
    expect(webhookSecret(token, "conn-1")).not.toBe(webhookSecret(token, "conn-2"));
    expect(webhookSecret(token, "conn-1")).toMatch(/^[A-Za-z0-9_-]{1,256}$/);
    expect(redact(`GET http://x/bot${token}/getMe failed`)).not.toContain("aaaa");
  });
});
