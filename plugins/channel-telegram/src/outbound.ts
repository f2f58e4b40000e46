/**
 * The contract's outbound messages as Bot API calls, each through the connection's send
 * queue (Telegram's limits). Long texts are split at Telegram's 4096 characters; a caption
 * longer than 1024 goes as a text after the file; a sticker (a WebP) goes with sendSticker.
 * The answer names the first message sent.
 */
import type { Telegram } from "telegraf";
import type { Message } from "telegraf/types";
import type { OutboundMessage, SendResult } from "@openatende/plugin-sdk";
import { fileArgOf, sendMethodFor, type MediaReader } from "./media";
import { parseProviderId, providerId } from "./normalise";
import type { SendQueue } from "./send-queue";

export const TEXT_MAX = 4096;
export const CAPTION_MAX = 1024;

export interface OutboundTarget {
  telegram: Telegram;
  queue: SendQueue;
  tenantId: number;
  /** Reads a MediaRef's bytes (inline, the core's file). */
  readMedia: MediaReader;
}

/** Splits a text into pieces Telegram accepts, at a line break or a space when one is near. */
export function splitText(text: string, max = TEXT_MAX): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = max;
    // Never split a surrogate pair (an emoji).
    if (/[\uD800-\uDBFF]/.test(rest[cut - 1])) cut--;
    const window = rest.slice(0, cut);
    const nl = window.lastIndexOf("\n");
    const sp = window.lastIndexOf(" ");
    if (nl > max * 0.5) cut = nl + 1;
    else if (sp > max * 0.5) cut = sp + 1;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.length || !out.length) out.push(rest);
  return out;
}

const sent = (m: Pick<Message, "chat" | "message_id" | "date">): SendResult => ({
  providerMessageId: providerId(m.chat.id, m.message_id),
  timestamp: (m.date || Math.floor(Date.now() / 1000)) * 1000,
});

function replyTo(chatId: string, replyToProviderId: string | undefined): Record<string, unknown> {
  const r = replyToProviderId ? parseProviderId(replyToProviderId) : null;
  // A reply only makes sense in the chat of the quoted message; a vanished one is no reason to fail.
  return r && r.chatId === chatId ? { reply_parameters: { message_id: r.messageId, allow_sending_without_reply: true } } : {};
}

function target(id: string): { chatId: string; messageId: number } {
  const t = parseProviderId(id);
  if (!t) throw Object.assign(new Error(`"${id}" is not a Telegram message id (<chat>:<message>)`), { code: 400 });
  return t;
}

export async function sendOutbound(to: OutboundTarget, chatId: string, message: OutboundMessage): Promise<SendResult> {
  const { telegram: tg, queue } = to;
  const q = <T>(call: () => Promise<T>, chat = chatId) => queue.enqueue(chat, call);

  switch (message.kind) {
    case "text": {
      let first: SendResult | null = null;
      for (const [i, piece] of splitText(message.body).entries()) {
        const m = await q(() => tg.sendMessage(chatId, piece, i === 0 ? (replyTo(chatId, message.replyToProviderId) as never) : undefined));
        first ??= sent(m);
      }
      return first!;
    }
    case "media": {
      const file = await fileArgOf(message.media, to.readMedia);
      const body = message.body ?? "";
      const caption = body && body.length <= CAPTION_MAX ? body : undefined;
      const extra = { ...replyTo(chatId, message.replyToProviderId), ...(caption ? { caption } : {}) };
      const method = sendMethodFor(message.media.mimeType);
      const m = (await q(() => (tg[method] as (c: string, f: unknown, e: unknown) => Promise<Message>).call(tg, chatId, file, extra))) as Message;
      if (body && !caption) for (const piece of splitText(body)) await q(() => tg.sendMessage(chatId, piece));
      return sent(m);
    }
    case "sticker": {
      // sendSticker takes a static sticker as a .WEBP upload (or a URL Telegram fetches); no caption.
      const file = await fileArgOf(message.media, to.readMedia);
      const m = await q(() => tg.sendSticker(chatId, file as never, replyTo(chatId, message.replyToProviderId) as never));
      return sent(m);
    }
    case "edit": {
      const t = target(message.targetProviderId);
      await q(() => tg.editMessageText(t.chatId, t.messageId, undefined, message.body), t.chatId);
      return { providerMessageId: message.targetProviderId, timestamp: Date.now() };
    }
    case "delete": {
      const t = target(message.targetProviderId);
      await q(() => tg.deleteMessage(t.chatId, t.messageId), t.chatId);
      return { providerMessageId: message.targetProviderId, timestamp: Date.now() };
    }
    case "reaction": {
      const t = target(message.targetProviderId);
      await q(() => tg.setMessageReaction(t.chatId, t.messageId, [{ type: "emoji", emoji: message.emoji as never }]), t.chatId);
      return { providerMessageId: message.targetProviderId, timestamp: Date.now() };
    }
    default:
      // checkOutbound already refused the kinds not in the manifest.
      throw Object.assign(new Error(`unsupported kind ${(message as { kind: string }).kind}`), { code: 400 });
  }
}
