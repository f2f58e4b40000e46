/**
 * The internal chat's rules (spec §4 files, §5 "Internal chat: audio too short is rejected;
 * invalid message or image URL is rejected"), in one place: the server's routes throw what
 * these answer, the UI asks the same functions before it sends. Pure: no I/O.
 */
import { PluginError } from "@openatende/plugin-sdk";
import { AUDIO_MIN_BYTES, AUDIO_MIN_MS, baseMime, imageUrlProblem, PAGE_DEFAULT, PAGE_MAX, TEXT_MAX } from "./limits";

export * from "./limits";

export type MessageKind = "text" | "image" | "audio";

export const invalidMessage = () => new PluginError("ERR_INTERNAL_CHAT_INVALID_MESSAGE", 400, { max: TEXT_MAX });

/** A message's text, trimmed; undefined when none was given; invalid when empty or too long. */
export function textOf(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== "string") throw invalidMessage();
  const text = body.trim();
  if (!text || text.length > TEXT_MAX) throw invalidMessage();
  return text;
}


/** The image URL, normalised; ERR_INTERNAL_CHAT_INVALID_IMAGE_URL when it is not a usable one. */
export function imageUrlOf(raw: unknown): string {
  const problem = typeof raw === "string" ? imageUrlProblem(raw) : "type";
  if (problem) throw new PluginError("ERR_INTERNAL_CHAT_INVALID_IMAGE_URL", 400, { field: "imageUrl", reason: problem });
  return new URL((raw as string).trim()).toString();
}


/** The kind of a chat file by its declared type: image/* or audio/*; anything else is refused. */
export function fileKindOf(mimeType: string): Exclude<MessageKind, "text"> {
  const m = baseMime(mimeType);
  if (m.startsWith("image/") && m !== "image/svg+xml") return "image";
  if (m.startsWith("audio/")) return "audio";
  throw new PluginError("ERR_INTERNAL_CHAT_FILE_TYPE", 400, { field: "file.mimeType", mimeType, accepted: "image/*, audio/*" });
}

/** A group's photo must be an image (its content is checked again by the core). */
export function assertGroupImage(mimeType: string): void {
  const m = baseMime(mimeType);
  if (!m.startsWith("image/") || m === "image/svg+xml") throw new PluginError("ERR_INTERNAL_CHAT_FILE_TYPE", 400, { field: "file.mimeType", mimeType, accepted: "image/*" });
}

export const tooLarge = (max: number) => new PluginError("ERR_INTERNAL_CHAT_FILE_TOO_LARGE", 413, { field: "file", max: `${Math.round(max / 1024 / 1024)} MB` });

/**
 * The bytes of a base64 upload, refused before decoding when they cannot fit in `max` (base64
 * is 4 characters per 3 bytes), when not base64, when empty, or when over `max`.
 */
export function decodeUpload(data: string, max: number): Buffer {
  if (Math.floor((data.length * 3) / 4) > max + 3) throw tooLarge(max);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) throw new PluginError("ERR_VALIDATION", 400, { field: "file.data", rule: "base64" });
  const bytes = Buffer.from(data, "base64");
  if (!bytes.length) throw new PluginError("ERR_NO_FILE_UPLOADED", 400, { field: "file" });
  if (bytes.length > max) throw tooLarge(max);
  return bytes;
}

/** Audio containers the browsers' recorders make (and common audio files), by their first bytes. */
export function looksLikeAudio(head: Buffer): boolean {
  const at = (sig: number[], off = 0) => sig.every((b, i) => head[off + i] === b);
  return (
    at([0x1a, 0x45, 0xdf, 0xa3]) || // WebM / Matroska (Chrome, Edge)
    at([0x4f, 0x67, 0x67, 0x53]) || // Ogg (Firefox)
    at([0x66, 0x74, 0x79, 0x70], 4) || // MP4 / M4A (Safari)
    at([0x49, 0x44, 0x33]) || // MP3 with an ID3 tag
    (head[0] === 0xff && (head[1] & 0xe0) === 0xe0) || // MPEG audio frame (MP3, ADTS AAC)
    (at([0x52, 0x49, 0x46, 0x46]) && at([0x57, 0x41, 0x56, 0x45], 8)) || // WAV
    at([0x23, 0x21, 0x41, 0x4d, 0x52]) // AMR (#!AMR)
  );
}

/**
 * An audio message's checks: long enough by its declared duration and by its size (spec §5
 * "audio too short is rejected"), and audio by its content.
 */
export function checkAudio(bytes: Buffer, durationMs: number | undefined, mimeType: string): void {
  if (durationMs === undefined || durationMs < AUDIO_MIN_MS || bytes.length < AUDIO_MIN_BYTES)
    throw new PluginError("ERR_INTERNAL_CHAT_AUDIO_TOO_SHORT", 400, { field: "durationMs", min: AUDIO_MIN_MS, durationMs: durationMs ?? null, size: bytes.length });
  if (!looksLikeAudio(bytes.subarray(0, 16))) throw new PluginError("ERR_INTERNAL_CHAT_FILE_TYPE", 400, { field: "file.data", mimeType, accepted: "audio/*" });
}


/** The ids of one history page before `before` (exclusive; default: after the last), oldest first: seqs are dense from 1. */
export function pageSeqs(lastSeq: number, before: number | undefined, limit: number = PAGE_DEFAULT): number[] {
  const top = Math.min(before === undefined ? lastSeq : before - 1, lastSeq);
  const n = Math.max(1, Math.min(limit, PAGE_MAX));
  const out: number[] = [];
  for (let s = Math.max(1, top - n + 1); s <= top; s++) out.push(s);
  return out;
}


/** A message's one-line preview in the conversation list: its text or caption (the list names a file's kind itself). */
export function previewOf(text: string | null): string {
  return (text ?? "").replace(/\s+/g, " ").slice(0, 120);
}
