/**
 * A media bubble sent as a file when the file is reachable: downloaded through safeFetch (the
 * outbound URL policy, at most 10 MB), stored among the tenant's files (uploadPlatformFile) and
 * sent through the channel; when any of that fails (unreachable, too large, refused address,
 * a core without files), the customer gets the URL as text instead.
 */
import * as path from "node:path";
import { coreApi, safeFetch, uploadPlatformFile, type OutboundPolicy } from "@openatende/plugin-sdk";
import type { Context } from "moleculer";

export const MEDIA_MAX_BYTES = 10 * 1024 * 1024;

const DEFAULT_TYPES: Record<string, string> = { image: "image/jpeg", video: "video/mp4", audio: "audio/mpeg", file: "application/octet-stream" };

/** The file's bytes, or null when it is not reachable or passes the cap. */
export async function download(url: string, policy: OutboundPolicy, maxBytes = MEDIA_MAX_BYTES): Promise<{ data: Buffer; mimeType: string | null } | null> {
  try {
    const res = await safeFetch(url, { signal: AbortSignal.timeout(20_000) }, policy);
    if (!res.ok || !res.body) return null;
    if (Number(res.headers.get("content-length") ?? 0) > maxBytes) {
      await res.body.cancel();
      return null;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        return null;
      }
      chunks.push(Buffer.from(value));
    }
    return { data: Buffer.concat(chunks), mimeType: res.headers.get("content-type")?.split(";")[0].trim() || null };
  } catch {
    return null;
  }
}

function fileNameOf(url: string, kind: string): string {
  try {
    const base = path.posix.basename(new URL(url).pathname);
    if (base && base !== "/" && /^[\w .()-]{1,120}$/.test(base)) return base;
  } catch {
    // not a URL: the default name
  }
  return kind;
}

/** Sends the media bubble's file on the ticket; answers how it went out ("media" or "url"). */
export async function sendMedia(ctx: Context, tenantId: number, ticketId: number, url: string, kind: string, policy: OutboundPolicy): Promise<"media" | "url"> {
  const api = coreApi(ctx);
  const file = await download(url, policy);
  if (file) {
    try {
      const mimeType = file.mimeType && file.mimeType !== "application/octet-stream" ? file.mimeType : DEFAULT_TYPES[kind];
      const stored = await uploadPlatformFile(ctx, { tenantId, data: file.data, mimeType, fileName: fileNameOf(url, kind) });
      await api.messages.send({ tenantId, ticketId, body: "", media: { path: stored.path, mimeType: stored.mimeType, fileName: stored.fileName } });
      return "media";
    } catch (err) {
      ctx.service?.logger.warn(`typebot: media ${url} not sent as a file (${(err as Error).message}); sending its URL`);
    }
  }
  await api.messages.send({ tenantId, ticketId, body: url });
  return "url";
}
