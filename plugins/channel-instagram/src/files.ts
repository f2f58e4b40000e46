/**
 * A customer's file, taken into the core's storage. Instagram's attachment URLs point at
 * Meta's CDN and expire within days, so the file is fetched (through the platform's outbound
 * URL policy, bounded) and stored by the core; when it cannot be fetched now, the message
 * keeps the URL (the agent may still open it while it lives) rather than be lost.
 */
import { safeFetch, uploadMedia, type Caller, type ConnectionRef, type MediaRef, type OutboundPolicy } from "@openatende/plugin-sdk";
import type { InboundFile } from "./normalise";

/** Meta's own limit for Instagram attachments is 25 MB. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

const EXT: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif", "video/mp4": "mp4", "audio/mp4": "m4a", "audio/mpeg": "mp3", "application/pdf": "pdf" };

/** A file name from the URL's last segment, else from the type. */
export function fileNameOf(url: string, mimeType: string): string {
  let last = "";
  try {
    last = decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "");
  } catch {
    last = "";
  }
  if (/^[\w.-]{1,120}\.[A-Za-z0-9]{2,5}$/.test(last)) return last;
  return `instagram.${EXT[mimeType] ?? "bin"}`;
}

export async function takeFile(core: Caller, ref: ConnectionRef, file: InboundFile, policy: OutboundPolicy, log: { info(...a: unknown[]): void }): Promise<MediaRef> {
  try {
    const res = await safeFetch(file.url, { method: "GET", signal: AbortSignal.timeout(60_000), redirect: "follow" }, policy);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    if (Number(res.headers.get("content-length")) > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES} bytes`);
    const data = Buffer.from(await res.arrayBuffer());
    if (data.length > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES} bytes`);
    const declared = (res.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    const mimeType = declared.includes("/") && declared !== "application/octet-stream" ? declared : file.mimeType;
    const stored = await uploadMedia(core as Parameters<typeof uploadMedia>[0], ref, { data, mimeType, fileName: fileNameOf(file.url, mimeType) });
    return { ...stored, mimeType, size: data.length };
  } catch (err) {
    log.info(`connection ${ref.connectionId}: a file was not taken in (${(err as Error).message}): kept by its URL`);
    return { url: file.url, mimeType: file.mimeType, fileName: fileNameOf(file.url, file.mimeType) };
  }
}
