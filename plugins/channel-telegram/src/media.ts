/**
 * Files both ways. Inbound: getFile, then the file's download URL (never shown to anyone:
 * it carries the bot token), handed to the core inline (`media.data`; the SDK's `inbound`
 * streams a large one into the core's storage first), stored under the tenant's folder.
 * Outbound: the core's stored file (read through the SDK's readMedia, so the plugin needs no
 * share of the core's disk), an inline file or a public URL, turned into what
 * sendPhoto/sendDocument/… take, and the method chosen by the file's type.
 */
import * as fs from "node:fs";
import type { Telegram } from "telegraf";
import { OutboundUrlError, safeFetch, type MediaRef, type OutboundPolicy } from "@openatende/plugin-sdk";
import { classify } from "./bot-api";
import type { FileToFetch } from "./normalise";

/** Spec §9: a chat file is at most 10 MB; the core refuses larger ones. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 60_000;

export type Download = { ok: true; data: Buffer } | { ok: false; reason: "too-large" | "refused"; detail: string };

/**
 * Downloads a file a customer sent. Answers why not when it cannot be had (too large,
 * Telegram refuses it); throws when it is worth trying again later (network, 5xx). The file's
 * URL is under the tenant's apiRoot: it is fetched under the platform's URL policy.
 */
export async function downloadFile(telegram: Telegram, file: FileToFetch, policy: OutboundPolicy = {}, maxBytes = MAX_FILE_BYTES): Promise<Download> {
  if (file.size !== undefined && file.size > maxBytes) return { ok: false, reason: "too-large", detail: `${file.size} bytes` };
  let url: URL;
  try {
    const info = await telegram.getFile(file.fileId);
    if (info.file_size !== undefined && info.file_size > maxBytes) return { ok: false, reason: "too-large", detail: `${info.file_size} bytes` };
    url = await telegram.getFileLink(info);
  } catch (err) {
    const f = classify(err);
    // "Bad Request: file is too big" and the like: the file will never come.
    if (f.kind === "refused") return { ok: false, reason: /too big/i.test(f.detail) ? "too-large" : "refused", detail: f.detail };
    throw err;
  }
  // A local Bot API server (--local) answers absolute paths on its own disk.
  if (url.protocol === "file:") {
    const stat = await fs.promises.stat(url);
    if (stat.size > maxBytes) return { ok: false, reason: "too-large", detail: `${stat.size} bytes` };
    return { ok: true, data: await fs.promises.readFile(url) };
  }
  let res: Response;
  try {
    res = await safeFetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) }, policy);
  } catch (err) {
    // An address the platform does not allow will not become allowed by trying again.
    if (err instanceof OutboundUrlError) return { ok: false, reason: "refused", detail: err.message };
    throw err;
  }
  if (!res.ok) {
    if (res.status >= 500) throw new Error(`file download failed: HTTP ${res.status}`);
    return { ok: false, reason: "refused", detail: `HTTP ${res.status}` };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > maxBytes) return { ok: false, reason: "too-large", detail: `more than ${maxBytes} bytes` };
    chunks.push(Buffer.from(chunk));
  }
  return { ok: true, data: Buffer.concat(chunks) };
}

/** The line a message gets instead of a file that could not be downloaded. */
export function missingFileNote(file: FileToFetch, why: "too-large" | "refused"): string {
  const size = file.size ? ` (${(file.size / 1024 / 1024).toFixed(1)} MB)` : "";
  return why === "too-large"
    ? `📎 ${file.fileName}${size}: arquivo maior que ${MAX_FILE_BYTES / 1024 / 1024} MB, não baixado`
    : `📎 ${file.fileName}${size}: o Telegram não entregou o arquivo`;
}

export type SendMethod = "sendPhoto" | "sendAnimation" | "sendVoice" | "sendAudio" | "sendVideo" | "sendDocument";

/** Which Bot API method sends a file of this type, as Telegram shows each kind best. */
export function sendMethodFor(mimeType: string): SendMethod {
  const mime = mimeType.toLowerCase().split(";")[0].trim();
  if (mime === "image/gif") return "sendAnimation";
  if (mime === "image/jpeg" || mime === "image/png" || mime === "image/webp") return "sendPhoto";
  // Voice notes are OGG/Opus; sendAudio plays MP3 and M4A.
  if (mime === "audio/ogg" || mime === "audio/opus") return "sendVoice";
  if (mime === "audio/mpeg" || mime === "audio/mp3" || mime === "audio/mp4" || mime === "audio/x-m4a" || mime === "audio/m4a" || mime === "audio/aac") return "sendAudio";
  if (mime === "video/mp4") return "sendVideo";
  return "sendDocument";
}

export class MediaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MediaError";
  }
}

/** A Bot API file argument: a public URL Telegram fetches itself, or the bytes to upload. */
export type FileArg = string | { source: Buffer; filename: string };

/** The bytes of an outbound MediaRef (the SDK's readMedia): null for one that only has a URL. */
export type MediaReader = (media: MediaRef) => Promise<Buffer | null>;

/**
 * An outbound file as the Bot API takes it: the bytes of inline data or of the core's stored
 * file (read in place or streamed from the core, whichever the plugin context allows; the
 * core keeps a tenant to its own folder), or a public URL Telegram fetches itself.
 */
export async function fileArgOf(media: MediaRef, read: MediaReader): Promise<FileArg> {
  const filename = media.fileName || "file";
  let data: Buffer | null;
  try {
    data = await read(media);
  } catch (err) {
    throw new MediaError(`the file ${filename} could not be read (${(err as Error).message})`);
  }
  if (data) return { source: data, filename };
  if (media.url && /^https?:\/\//i.test(media.url)) return media.url;
  throw new MediaError("the media has no file, data or http(s) URL");
}
