/**
 * A received file, fetched through the session (Baileys' download, with the socket asking
 * the phone to upload again when WhatsApp's copy has expired) and handed inline: the SDK's
 * `inbound()` streams a large one into the core's storage before the message.
 *
 * A file that cannot be had never costs the message: it arrives with a visible note instead
 * of the file. Past the platform's 10 MB per file the core would refuse the whole message, so
 * such a file is not even downloaded.
 */
import type { WAMessage } from "@whiskeysockets/baileys";
import { MEDIA_MAX_BYTES, type MediaRef } from "@openatende/plugin-sdk";
import type { SessionPort } from "../ports";
import type { MediaInfo } from "./content";

export type FetchedMedia = { ok: true; media: MediaRef } | { ok: false; note: string; reason: "download-failed" | "too-large" };

const mb = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;

export function downloadFailedNote(info: MediaInfo): string {
  return `[${info.label}: media could not be downloaded]`;
}

export function tooLargeNote(info: MediaInfo, size: number, max = MEDIA_MAX_BYTES): string {
  return `[${info.label}: media too large to receive (${mb(size)}, at most ${mb(max)})]`;
}

export async function fetchMedia(session: SessionPort, msg: WAMessage, info: MediaInfo, max = MEDIA_MAX_BYTES): Promise<FetchedMedia> {
  if (info.size !== undefined && info.size > max) return { ok: false, reason: "too-large", note: tooLargeNote(info, info.size, max) };
  let data: Buffer;
  try {
    data = await session.downloadMedia(msg);
  } catch {
    return { ok: false, reason: "download-failed", note: downloadFailedNote(info) };
  }
  if (!data || !data.length) return { ok: false, reason: "download-failed", note: downloadFailedNote(info) };
  if (data.length > max) return { ok: false, reason: "too-large", note: tooLargeNote(info, data.length, max) };
  return { ok: true, media: { data: data.toString("base64"), mimeType: info.mimeType, fileName: info.fileName, size: data.length } };
}
