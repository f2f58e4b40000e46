/**
 * The core API's files actions (plugin-sdk core-api/contract.ts). Part of the platform service,
 * whose `before` hook has checked the caller and the tenant.
 *
 * platform.files.upload: a plugin's file (a chatbot's flow media) arrives as the call's stream
 * of base64 text chunks (the SDK's uploadPlatformFile) and is stored among the tenant's files,
 * in a folder of the plugin's own (tenants/<id>/plugin-files/<plugin>/…): not the message
 * files, so removing a ticket never takes a file a flow still sends. At most `maxBytes` (10 MB
 * at most, spec §9); its type is checked by its first bytes (files/store.ts checkContentType).
 */
import * as path from "node:path";
import type { ActionSchema } from "moleculer";
import { MEDIA_MAX_BYTES, type PlatformActions } from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";
import { checkContentType, CONTENT_HEAD_BYTES, storeStream } from "../files/store";
import { callerOf } from "./access";

type Params = PlatformActions["platform.files.upload"]["params"];
const PLUGIN_FILES = "plugin-files";

/** A chunk of the stream: base64 text (what the SDK sends) or bytes. */
async function* bytesOf(stream: AsyncIterable<unknown>): AsyncGenerator<Buffer> {
  for await (const chunk of stream) {
    if (Buffer.isBuffer(chunk)) yield chunk;
    else if (typeof chunk === "string") {
      if (!/^[A-Za-z0-9+/=\s]*$/.test(chunk)) throw new AppError("ERR_VALIDATION", { field: "data", rule: "base64" });
      yield Buffer.from(chunk, "base64");
    } else if (chunk instanceof Uint8Array) yield Buffer.from(chunk);
    else throw new AppError("ERR_VALIDATION", { field: "data", rule: "chunk" });
  }
}

/** The chunks as they come, once their first bytes have passed the type check (`kind` gets the type to record). */
async function* typeChecked(chunks: AsyncIterable<Buffer>, declared: string, kind: (mime: string) => void): AsyncGenerator<Buffer> {
  const held: Buffer[] = [];
  let size = 0;
  let passed = false;
  for await (const chunk of chunks) {
    if (passed) {
      yield chunk;
      continue;
    }
    held.push(chunk);
    size += chunk.length;
    if (size < CONTENT_HEAD_BYTES) continue;
    kind(checkContentType(Buffer.concat(held), declared));
    passed = true;
    yield* held;
  }
  if (passed) return;
  if (!size) throw new AppError("ERR_NO_FILE_UPLOADED", { field: "data" });
  kind(checkContentType(Buffer.concat(held), declared));
  yield* held;
}

/** Reads what is left of a refused upload, so the transporter's chunks have somewhere to go. */
export function drainStream(ctx: Ctx<unknown>): void {
  const s = (ctx as unknown as { stream?: { resume?(): void; on?(e: string, f: () => void): void } | null }).stream;
  s?.on?.("error", () => undefined);
  s?.resume?.();
}

export function createFilesActions(dataDir: string): Record<string, ActionSchema> {
  return {
    "files.upload": {
      params: {
        tenantId: { type: "number", integer: true, positive: true },
        fileName: { type: "string", min: 1, max: 255 },
        mimeType: { type: "string", min: 3, max: 120 },
        maxBytes: { type: "number", integer: true, positive: true, optional: true },
      },
      async handler(ctx: Ctx<Params>): Promise<PlatformActions["platform.files.upload"]["result"]> {
        const stream = (ctx as unknown as { stream?: AsyncIterable<unknown> | null }).stream;
        if (!stream) throw new AppError("ERR_NO_FILE_UPLOADED", { field: "data" });
        const { tenantId, fileName, mimeType } = ctx.params;
        const max = Math.min(ctx.params.maxBytes ?? MEDIA_MAX_BYTES, MEDIA_MAX_BYTES);
        let recorded = mimeType;
        try {
          const folder = path.join(PLUGIN_FILES, callerOf(ctx));
          const stored = await storeStream(dataDir, tenantId, { fileName, mimeType }, typeChecked(bytesOf(stream), mimeType, (m) => (recorded = m)), max, folder);
          return { path: stored.path, url: `/api/files/${encodeURIComponent(stored.path)}`, mimeType: recorded, fileName: stored.fileName, size: stored.size };
        } catch (err) {
          drainStream(ctx);
          throw err;
        }
      },
    },
  };
}
