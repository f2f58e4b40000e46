/**
 * What plugin archives (archive.ts) are made of: their files, limits and errors, the fixed
 * names of the layout, and the one rule for an entry's path that the writer, the reader and
 * the inspection share.
 */
import { createHash } from "node:crypto";

export interface ArchiveFile {
  path: string;
  data: Buffer;
  mode?: number;
}

export interface ArchiveLimits {
  /** Largest compressed archive accepted, in bytes. */
  maxBytes: number;
  /** Largest total of the unpacked files; default min(10 × maxBytes, 500 MB). */
  maxUnpackedBytes?: number;
  /** Most tar entries (files and directories); default 5000. */
  maxEntries?: number;
}

export type ArchiveErrorCode =
  | "ERR_ARCHIVE_INVALID"
  | "ERR_ARCHIVE_CHECKSUM_MISMATCH"
  | "ERR_ARCHIVE_PATH_UNSAFE"
  | "ERR_ARCHIVE_TOO_LARGE"
  | "ERR_ARCHIVE_MANIFEST_INVALID";

export class ArchiveError extends Error {
  constructor(
    readonly code: ArchiveErrorCode,
    readonly detail: Record<string, unknown> = {},
    message?: string,
  ) {
    super(message ?? `${code}${Object.keys(detail).length ? ` ${JSON.stringify(detail)}` : ""}`);
    this.name = "ArchiveError";
  }
}

/** The only `main` an archived plugin may have. */
export const ARCHIVE_MAIN = "dist/server/index.js";
/** Where the UI remote lives inside an archive. */
export const ARCHIVE_UI_DIR = "dist/ui";
/** The UI remote entry file when the manifest does not name one. */
export const DEFAULT_UI_REMOTE_ENTRY_FILE = "remoteEntry.js";
export const DEFAULT_MAX_ENTRIES = 5000;
/** Longest entry path ustar can hold (155-byte prefix + "/" + 100-byte name; we stop at 255). */
export const MAX_ARCHIVE_PATH_BYTES = 255;
export const MAX_UNPACKED_CAP = 500 * 1024 * 1024;
/** Fixed mtime of packed entries (as npm does), so the same files give the same bytes. */
export const FIXED_MTIME = 499162500;
export const BLOCK = 512;

export function sha256Hex(buf: Buffer): string {
  return createHash("sha256").update(buf).digest("hex");
}

export function archiveFileName(id: string, version: string): string {
  return `${id}-${version}.tgz`;
}

/** The content of `<file name>.sha256`. */
export function checksumFileContent(gz: Buffer, fileName: string): string {
  return `${sha256Hex(gz)}  ${fileName}\n`;
}

export function defaultMaxUnpackedBytes(maxBytes: number): number {
  return Math.min(10 * maxBytes, MAX_UNPACKED_CAP);
}

/**
 * Normalises an entry path ("./a//b" → "a/b") and refuses the unsafe ones (absolute, drive
 * letter, backslash, NUL, "..", empty).
 */
export function safeEntryPath(raw: string, allowRoot = false): string {
  const unsafe = (reason: string) => new ArchiveError("ERR_ARCHIVE_PATH_UNSAFE", { path: raw, reason });
  if (typeof raw !== "string" || raw.length === 0) throw unsafe("empty path");
  if (raw.includes("\0")) throw unsafe("NUL in path");
  if (raw.includes("\\")) throw unsafe("backslash in path");
  if (raw.startsWith("/")) throw unsafe("absolute path");
  if (/^[A-Za-z]:/.test(raw)) throw unsafe("drive letter");
  const parts = raw.split("/").filter((s) => s !== "" && s !== ".");
  if (parts.some((s) => s === "..")) throw unsafe("'..' in path");
  if (parts.length === 0 && !allowRoot) throw unsafe("empty path");
  return parts.join("/");
}
