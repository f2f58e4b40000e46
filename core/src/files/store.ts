import * as fs from "node:fs";
import * as path from "node:path";
import { randomUUID } from "node:crypto";
import { AppError } from "../errors/app-error";

/** Spec §9: chat and campaign files are 10 MB each and 30 MB in total per send. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_TOTAL_BYTES = 30 * 1024 * 1024;

export interface UploadedFile {
  fileName: string;
  mimeType: string;
  /** base64 content */
  data: string;
}

export interface StoredFile {
  /** Path relative to the data folder: tenants/{tenantId}/media/… */
  path: string;
  fileName: string;
  mimeType: string;
  size: number;
}

export function mediaTypeOf(mime: string): "image" | "audio" | "video" | "document" {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("audio/")) return "audio";
  if (mime.startsWith("video/")) return "video";
  return "document";
}

function safeName(name: string): string {
  const base = path.basename(name).replace(/[^\p{L}\p{N}._-]+/gu, "_").slice(-120);
  return base && base !== "." && base !== ".." ? base : "file";
}

/** Checks the size rules before anything is written, then stores every file or none. */
export function storeFiles(dataDir: string, tenantId: number, files: UploadedFile[]): StoredFile[] {
  const decoded = files.map((f, i) => {
    if (!/^[A-Za-z0-9+/=\s]*$/.test(f.data)) throw new AppError("ERR_VALIDATION", { field: `medias[${i}].data`, rule: "any" });
    const buf = Buffer.from(f.data, "base64");
    if (buf.length > MAX_FILE_BYTES) throw new AppError("ERR_MEDIA_TOO_LARGE", { field: `medias[${i}]`, size: buf.length, max: MAX_FILE_BYTES });
    return { f, buf };
  });
  const total = decoded.reduce((n, d) => n + d.buf.length, 0);
  if (total > MAX_TOTAL_BYTES) throw new AppError("ERR_MEDIA_TOO_LARGE", { field: "medias", size: total, max: MAX_TOTAL_BYTES });
  const month = new Date().toISOString().slice(0, 7);
  const rel = path.join("tenants", String(tenantId), "media", month);
  fs.mkdirSync(path.join(dataDir, rel), { recursive: true });
  const written: string[] = [];
  try {
    return decoded.map(({ f, buf }) => {
      const p = path.join(rel, `${randomUUID()}-${safeName(f.fileName)}`);
      fs.writeFileSync(path.join(dataDir, p), buf);
      written.push(path.join(dataDir, p));
      return { path: p, fileName: safeName(f.fileName), mimeType: f.mimeType, size: buf.length };
    });
  } catch (err) {
    for (const w of written) fs.rmSync(w, { force: true });
    throw err;
  }
}

/** Resolves a stored path, refusing anything outside the tenant's folder. */
export function resolveStored(dataDir: string, tenantId: number, rel: string): string {
  const root = path.resolve(dataDir, "tenants", String(tenantId));
  const full = path.resolve(dataDir, rel);
  if (!full.startsWith(root + path.sep)) throw new AppError("ERR_NOT_FOUND");
  return full;
}

/**
 * Stores one file arriving in chunks (a channel's upload over the transporter) the way
 * storeFiles stores an inline one; refuses it, leaving nothing behind, past `maxBytes`.
 */
export async function storeStream(dataDir: string, tenantId: number, file: { fileName: string; mimeType: string }, chunks: AsyncIterable<Buffer>, maxBytes = MAX_FILE_BYTES): Promise<StoredFile> {
  const month = new Date().toISOString().slice(0, 7);
  const rel = path.join("tenants", String(tenantId), "media", month);
  await fs.promises.mkdir(path.join(dataDir, rel), { recursive: true });
  const p = path.join(rel, `${randomUUID()}-${safeName(file.fileName)}`);
  const full = path.join(dataDir, p);
  const out = await fs.promises.open(full, "wx");
  let size = 0;
  try {
    for await (const chunk of chunks) {
      size += chunk.length;
      if (size > maxBytes) throw new AppError("ERR_MEDIA_TOO_LARGE", { field: "media", size, max: maxBytes });
      await out.write(chunk);
    }
    await out.close();
  } catch (err) {
    await out.close().catch(() => undefined);
    await fs.promises.rm(full, { force: true });
    throw err;
  }
  return { path: p, fileName: safeName(file.fileName), mimeType: file.mimeType, size };
}

/** A stored file in chunks of `chunkBytes` (the last one shorter). */
export async function* readChunks(full: string, chunkBytes: number): AsyncGenerator<Buffer> {
  const fh = await fs.promises.open(full, "r");
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(chunkBytes);
      let filled = 0;
      while (filled < chunkBytes) {
        const { bytesRead } = await fh.read(buf, filled, chunkBytes - filled, null);
        if (!bytesRead) break;
        filled += bytesRead;
      }
      if (filled) yield buf.subarray(0, filled);
      if (filled < chunkBytes) return;
    }
  } finally {
    await fh.close();
  }
}
