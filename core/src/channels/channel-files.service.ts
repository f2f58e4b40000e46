import * as fs from "node:fs";
import { Readable } from "node:stream";
import type { ServiceSchema } from "moleculer";
import { MEDIA_CHUNK_BYTES, type MediaRef, type UploadMediaParams } from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { call, defineService } from "../bus/call";
import { MAX_FILE_BYTES, readChunks, resolveStored, storeStream } from "../files/store";

const ref = {
  tenantId: { type: "number", integer: true, positive: true, convert: true },
  connectionId: { type: "number", integer: true, positive: true, convert: true },
} as const;

/** A chunk of a channel's media stream: base64 text (what the SDK sends) or bytes. */
async function* bytesOf(stream: AsyncIterable<unknown>): AsyncGenerator<Buffer> {
  for await (const chunk of stream) {
    if (Buffer.isBuffer(chunk)) yield chunk;
    else if (typeof chunk === "string") yield Buffer.from(chunk, "base64");
    else if (chunk instanceof Uint8Array) yield Buffer.from(chunk);
    else throw new AppError("ERR_VALIDATION", { field: "stream", rule: "chunk" });
  }
}

/** Reads what is left of a refused upload, so the transporter's chunks have somewhere to go. */
function drain(stream: unknown) {
  const s = stream as { resume?(): void; on?(e: string, f: () => void): void } | null;
  s?.on?.("error", () => undefined);
  s?.resume?.();
}

/**
 * Files between channel plugins and the core across a transporter (the SDK's uploadMedia and
 * readMedia): a channel streams a received file into the tenant's folder, and reads an
 * outbound message's stored file without sharing the core's filesystem. Both ends are the
 * SDK's base64 text chunks (media-transfer.ts), small enough for any transporter's packets.
 * A plugin reaches only its own connections' tenants (the caller is checked as in `channels`).
 */
export function createChannelFilesService(deps: CoreDeps): ServiceSchema {
  async function checkConnection(ctx: Ctx<unknown>, tenantId: number, connectionId: number) {
    const c = await call(ctx, "connections.getInternal", { id: connectionId });
    if (!c || c.tenantId !== tenantId) throw new AppError("ERR_CONNECTION_NOT_FOUND", { connectionId });
    const caller = (ctx.caller ?? "").replace(/^v\d+\./, "");
    if (caller && caller !== c.type) throw new AppError("ERR_NO_PERMISSION", { reason: "connection of another channel" });
  }

  return defineService({
    name: "channelFiles",
    actions: {
      upload: {
        visibility: "public",
        params: {
          ...ref,
          mimeType: { type: "string", min: 3, max: 120 },
          fileName: { type: "string", optional: true, max: 255 },
          size: { type: "number", integer: true, min: 0, max: MAX_FILE_BYTES, convert: true },
        },
        async handler(ctx: Ctx<UploadMediaParams>): Promise<MediaRef> {
          const stream = (ctx as unknown as { stream?: AsyncIterable<unknown> | null }).stream;
          if (!stream) throw new AppError("ERR_VALIDATION", { field: "stream", rule: "required" });
          try {
            await checkConnection(ctx, ctx.params.tenantId, ctx.params.connectionId);
          } catch (err) {
            drain(stream);
            throw err;
          }
          const stored = await storeStream(deps.config.dataDir, ctx.params.tenantId, { fileName: ctx.params.fileName ?? "file", mimeType: ctx.params.mimeType }, bytesOf(stream)).catch((err) => {
            drain(stream);
            throw err;
          });
          return { path: stored.path, mimeType: stored.mimeType, fileName: stored.fileName, size: stored.size };
        },
      },

      read: {
        visibility: "public",
        params: { ...ref, path: { type: "string", min: 1, max: 500 } },
        async handler(ctx: Ctx<{ tenantId: number; connectionId: number; path: string }>) {
          await checkConnection(ctx, ctx.params.tenantId, ctx.params.connectionId);
          const full = resolveStored(deps.config.dataDir, ctx.params.tenantId, ctx.params.path);
          const stat = await fs.promises.stat(full).catch(() => null);
          if (!stat?.isFile()) throw new AppError("ERR_NOT_FOUND", { field: "path" });
          const chunks = readChunks(full, MEDIA_CHUNK_BYTES);
          return Readable.from(
            (async function* () {
              for await (const c of chunks) yield c.toString("base64");
            })(),
            { objectMode: true },
          );
        },
      },
    },
  });
}
