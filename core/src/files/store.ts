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

/** The folder of a tenant's message files (what messages own: a ticket's removal takes its files from here only). */
export const MEDIA_FOLDER = "media";

/** True for a path of the tenant's message files (tenants/<id>/media/…), not a plugin's or a wallpaper. */
export function isMessageMedia(tenantId: number, rel: string): boolean {
  return path.normalize(rel).startsWith(path.join("tenants", String(tenantId), MEDIA_FOLDER) + path.sep);
}

/**
 * Stores one file arriving in chunks (a channel's upload over the transporter) the way
 * storeFiles stores an inline one; refuses it, leaving nothing behind, past `maxBytes`.
 * `folder` is under the tenant's folder (default its message files).
 */
export async function storeStream(
  dataDir: string,
  tenantId: number,
  file: { fileName: string; mimeType: string },
  chunks: AsyncIterable<Buffer>,
  maxBytes = MAX_FILE_BYTES,
  folder = MEDIA_FOLDER,
): Promise<StoredFile> {
  const month = new Date().toISOString().slice(0, 7);
  const rel = path.join("tenants", String(tenantId), folder, month);
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

/**
 * The image kind read from the file's first bytes: what the client calls the file (its name,
 * its MIME type) is not trusted, so a PDF or a text renamed .png is refused. SVG is not taken:
 * it can carry scripts.
 */
export function imageKindOf(buf: Buffer): { mime: string; ext: string } | undefined {
  const starts = (bytes: number[], at = 0) => buf.length >= at + bytes.length && bytes.every((b, i) => buf[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: "image/png", ext: "png" };
  if (starts([0xff, 0xd8, 0xff])) return { mime: "image/jpeg", ext: "jpg" };
  if (starts([0x47, 0x49, 0x46, 0x38]) && (buf[4] === 0x37 || buf[4] === 0x39) && buf[5] === 0x61) return { mime: "image/gif", ext: "gif" };
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return { mime: "image/webp", ext: "webp" };
  return undefined;
}

/** How many first bytes checkContentType reads. */
export const CONTENT_HEAD_BYTES = 512;
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
/** Types a browser runs rather than shows (scripts, markup): a tenant's file is never one. */
const ACTIVE_TYPES = /^(image\/svg\+xml|text\/html|application\/xhtml\+xml|(text|application)\/(x-)?(java|ecma)script|(text|application)\/xml|text\/xsl)$/i;
/** Markup at the start of a file (after a BOM and blanks), whatever it is called. */
const ACTIVE_CONTENT = /^(\ufeff)?\s*<(!doctype\s+html|html|head|body|script|svg|\?xml|iframe|object|embed)[\s>/]/i;

/**
 * Checks a file's declared type against its first bytes (at least CONTENT_HEAD_BYTES, or the
 * whole file) and answers the type to record: an image by its content only (png, jpeg, gif,
 * webp: ERR_INVALID_IMAGE_FORMAT otherwise, the wallpaper's rule); a PDF must start as one;
 * markup or scripts, declared or found at the start, and a type that is not a MIME type:
 * ERR_UNSUPPORTED_MEDIA_TYPE.
 */
export function checkContentType(head: Buffer, declared: string, field = "mimeType"): string {
  const mime = declared.split(";")[0].trim().toLowerCase();
  if (!MIME.test(mime) || ACTIVE_TYPES.test(mime)) throw new AppError("ERR_UNSUPPORTED_MEDIA_TYPE", { field, mimeType: declared });
  if (mime.startsWith("image/")) {
    const kind = imageKindOf(head);
    if (!kind) throw new AppError("ERR_INVALID_IMAGE_FORMAT", { field, mimeType: declared });
    return kind.mime;
  }
  if (ACTIVE_CONTENT.test(head.subarray(0, CONTENT_HEAD_BYTES).toString("latin1"))) throw new AppError("ERR_UNSUPPORTED_MEDIA_TYPE", { field, mimeType: declared, reason: "content" });
  if (mime === "application/pdf" && head.subarray(0, 5).toString("latin1") !== "%PDF-") throw new AppError("ERR_UNSUPPORTED_MEDIA_TYPE", { field, mimeType: declared, reason: "content" });
  return mime;
}
