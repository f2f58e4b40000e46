/**
 * The contract's outbound messages as Instagram Send API bodies (pure, tested beside):
 *
 *   { recipient:{id:IGSID}, messaging_type, [tag], message:{ text } }
 *   { recipient:{id:IGSID}, messaging_type, [tag], message:{ attachment:{ type, payload:{ url } } } }
 *
 * Text is limited to 1000 bytes (UTF-8): a longer text goes as several messages, split where a
 * reader expects (a blank line, a line end, a sentence end, a space), never inside a
 * character. A file goes by a public URL Meta fetches; its caption (Instagram has none) goes
 * as a text message after it.
 *
 * The messaging window: free replies within 24 hours of the customer's last message
 * (messaging_type RESPONSE); from 24 hours to 7 days only a human agent's reply, tagged
 * MESSAGE_TAG HUMAN_AGENT when the connection allows it; beyond that nothing (Instagram has
 * no templates).
 */
import type { OutboundMessage } from "@openatende/plugin-sdk";

export const MAX_TEXT_BYTES = 1000;
export const HOUR_MS = 3_600_000;
export const WINDOW_MS = 24 * HOUR_MS;
export const HUMAN_AGENT_MS = 7 * 24 * HOUR_MS;

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** The longest prefix of `s` (whole code points) that fits in `max` bytes. */
function fitting(s: string, max: number): string {
  let used = 0;
  let end = 0;
  for (const ch of s) {
    const b = bytes(ch);
    if (used + b > max) break;
    used += b;
    end += ch.length;
  }
  return s.slice(0, end);
}

/** A text as parts of at most `max` bytes, cut at the best boundary inside each part's room. */
export function splitText(text: string, max = MAX_TEXT_BYTES): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest) {
    if (bytes(rest) <= max) {
      parts.push(rest);
      break;
    }
    const room = fitting(rest, max);
    let cut = -1;
    for (const sep of [/\n\s*\n(?=\S)/g, /\n(?=\S)/g, /[.!?…](?=\s)/g, /\s(?=\S)/g]) {
      let m: RegExpExecArray | null;
      let last = -1;
      while ((m = sep.exec(room))) last = m.index + (sep.source.startsWith("[") ? 1 : 0);
      // A cut that keeps at least a fifth of the room: otherwise a finer boundary is better.
      if (last > room.length / 5) {
        cut = last;
        break;
      }
    }
    if (cut <= 0) cut = room.length;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  return parts.filter(Boolean);
}

/** Instagram's attachment type of a MIME type. */
export function attachmentTypeOf(mimeType: string): "image" | "video" | "audio" | "file" {
  const mime = mimeType.split(";")[0].trim().toLowerCase();
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  return "file";
}

export type WindowDecision = { ok: true; tag: boolean } | { ok: false; code: "ERR_INSTAGRAM_WINDOW_CLOSED" | "ERR_INSTAGRAM_HUMAN_AGENT_EXPIRED" };

/**
 * Whether a reply may go now, and tagged or not. `lastInboundAt` null: the customer's last
 * message is not known here (the record expired or was lost): the reply goes untagged and
 * Meta decides.
 */
export function windowFor(lastInboundAt: number | null, now: number, humanAgentTag: boolean): WindowDecision {
  if (lastInboundAt === null || now - lastInboundAt <= WINDOW_MS) return { ok: true, tag: false };
  if (now - lastInboundAt > HUMAN_AGENT_MS) return { ok: false, code: "ERR_INSTAGRAM_HUMAN_AGENT_EXPIRED" };
  return humanAgentTag ? { ok: true, tag: true } : { ok: false, code: "ERR_INSTAGRAM_WINDOW_CLOSED" };
}

/** IGSIDs are numbers (Meta's scoped ids). */
export const IGSID = /^[0-9]{5,40}$/;

/**
 * The Send API bodies of one outbound message, in order. `fileUrl`: where Meta fetches the
 * file of a media message (null for text).
 */
export function bodiesFor(igsid: string, message: OutboundMessage, fileUrl: string | null, tag: boolean): Array<Record<string, unknown>> {
  const head = { recipient: { id: igsid }, ...(tag ? { messaging_type: "MESSAGE_TAG", tag: "HUMAN_AGENT" } : { messaging_type: "RESPONSE" }) };
  const out: Array<Record<string, unknown>> = [];
  let text = "";
  if (message.kind === "text") text = message.body;
  else if (message.kind === "media") {
    if (fileUrl) out.push({ ...head, message: { attachment: { type: attachmentTypeOf(message.media.mimeType), payload: { url: fileUrl } } } });
    text = message.body ?? "";
  }
  for (const part of splitText(text)) out.push({ ...head, message: { text: part } });
  return out;
}
