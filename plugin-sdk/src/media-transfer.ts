/**
 * Files between a channel and the core, in a process of its own or not. A transporter carries
 * packets of about a megabyte at most (NATS' default max_payload, the TCP transporter's
 * maxPacketSize), and a chat file may be 10 MB: files cross as Moleculer streams of base64
 * text chunks (192 KiB of bytes, 256 KiB of text each), which every transporter and the
 * JSON serializer carry as they are, and which a local call hands over without a copy.
 *
 * - inbound: `inbound()` uploads a large inline `media.data` with `uploadMedia` first and hands
 *   the core the stored file's reference instead; a plugin may call `uploadMedia` itself.
 * - outbound: `readMedia` answers the bytes of a MediaRef: inline data, a file of the core read
 *   from the shared data folder when the plugin context says it is local, or streamed from
 *   the core otherwise (no shared filesystem needed).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Readable } from "node:stream";
import type { CallingOptions } from "moleculer";
import { CORE_CHANNEL_ACTIONS, type ConnectionRef, type MediaRef } from "./channel-contract";
import type { PluginContext } from "./plugin-context";

/** Inline base64 longer than this is uploaded as a stream before `channels.inbound`. */
export const INLINE_MEDIA_MAX_CHARS = 256 * 1024;
/** Bytes per stream chunk: a multiple of 3, so each chunk's base64 stands alone. */
export const MEDIA_CHUNK_BYTES = 192 * 1024;
/** Spec §9: a chat file is at most 10 MB. */
export const MEDIA_MAX_BYTES = 10 * 1024 * 1024;

interface StreamCaller {
  call(actionName: string, params?: unknown, opts?: CallingOptions): Promise<unknown>;
}

export interface UploadMediaParams extends ConnectionRef {
  mimeType: string;
  fileName?: string;
  size: number;
}

/** The chunks of a buffer as base64 strings, for an object-mode stream. */
export function* base64Chunks(data: Buffer, chunkBytes = MEDIA_CHUNK_BYTES): Generator<string> {
  if (!data.length) return;
  for (let i = 0; i < data.length; i += chunkBytes) yield data.subarray(i, i + chunkBytes).toString("base64");
}

/** Reads a media stream (base64 text chunks, or bytes) into one buffer, refusing more than `maxBytes`. */
export async function collectMedia(stream: AsyncIterable<unknown>, maxBytes = MEDIA_MAX_BYTES): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : typeof chunk === "string" ? Buffer.from(chunk, "base64") : Buffer.from(chunk as Uint8Array);
    total += buf.length;
    if (total > maxBytes) throw new MediaTransferError(`the file is larger than ${maxBytes} bytes`, 413);
    parts.push(buf);
  }
  return Buffer.concat(parts);
}

export class MediaTransferError extends Error {
  constructor(
    message: string,
    readonly code = 400,
  ) {
    super(message);
    this.name = "MediaTransferError";
  }
}

/** Streams a file a channel received into the core's storage; answers the reference to hand to `inbound`. */
export async function uploadMedia(caller: StreamCaller, ref: ConnectionRef, file: { data: Buffer; mimeType: string; fileName?: string }, opts?: CallingOptions): Promise<MediaRef> {
  const params: UploadMediaParams = { tenantId: ref.tenantId, connectionId: ref.connectionId, mimeType: file.mimeType, size: file.data.length, ...(file.fileName ? { fileName: file.fileName } : {}) };
  const stream = Readable.from(base64Chunks(file.data), { objectMode: true });
  return (await caller.call(CORE_CHANNEL_ACTIONS.uploadMedia, params, { ...(opts ?? {}), stream })) as MediaRef;
}

/**
 * The bytes of an outbound MediaRef. `path` is a file of the core: read in place when the
 * plugin context says the data folder is shared (and the path stays in the tenant's folder),
 * streamed from the core otherwise. A `url` is not fetched here (the channel may hand it to
 * its provider as is): it answers null for a MediaRef with only a URL.
 */
export async function readMedia(
  caller: StreamCaller,
  ref: ConnectionRef,
  media: MediaRef,
  context?: Pick<PluginContext, "dataDir" | "localFiles"> | null,
  opts?: CallingOptions,
): Promise<Buffer | null> {
  if (media.data) return Buffer.from(media.data, "base64");
  if (!media.path) return null;
  if (context?.localFiles && context.dataDir) {
    const root = path.resolve(context.dataDir, "tenants", String(ref.tenantId));
    const full = path.resolve(context.dataDir, media.path);
    if (!full.startsWith(root + path.sep)) throw new MediaTransferError("the file is outside the tenant's folder", 404);
    try {
      return await fs.promises.readFile(full);
    } catch {
      throw new MediaTransferError(`the file ${media.fileName ?? path.basename(full)} could not be read`, 404);
    }
  }
  const stream = (await caller.call(CORE_CHANNEL_ACTIONS.readMedia, { tenantId: ref.tenantId, connectionId: ref.connectionId, path: media.path }, opts)) as AsyncIterable<unknown>;
  return collectMedia(stream);
}
