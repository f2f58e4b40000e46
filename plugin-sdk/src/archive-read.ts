/**
 * The archive reader, the gate in front of anything uploaded: it refuses rather than guesses
 * (unsafe paths, links, devices, duplicates, bad header checksums) and checks the size limits
 * while gunzipping, so a gzip bomb never fills memory.
 */
import * as zlib from "node:zlib";
import { ArchiveError, BLOCK, DEFAULT_MAX_ENTRIES, defaultMaxUnpackedBytes, safeEntryPath, type ArchiveFile, type ArchiveLimits } from "./archive-format";

function readString(buf: Buffer, offset: number, size: number): string {
  const field = buf.subarray(offset, offset + size);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? size : end).toString("utf8");
}

function readOctal(buf: Buffer, offset: number, size: number, what: string): number {
  const field = buf.subarray(offset, offset + size);
  if (field[0] & 0x80) throw new ArchiveError("ERR_ARCHIVE_TOO_LARGE", { reason: `base-256 ${what} is not supported` });
  const s = field.toString("ascii").replace(/[\0 ]+$/g, "").replace(/^[ ]+/, "");
  if (s === "") return 0;
  if (!/^[0-7]+$/.test(s)) throw new ArchiveError("ERR_ARCHIVE_INVALID", { reason: `bad ${what} field in a tar header` });
  return parseInt(s, 8);
}

function isZeroBlock(buf: Buffer, offset: number): boolean {
  for (let i = offset; i < offset + BLOCK; i++) if (buf[i] !== 0) return false;
  return true;
}

/** Reads the records of a pax extended header ("<len> key=value\n"…). */
function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < data.length) {
    const sp = data.indexOf(0x20, i);
    if (sp === -1) break;
    const len = parseInt(data.subarray(i, sp).toString("ascii"), 10);
    if (!Number.isFinite(len) || len <= 0 || i + len > data.length) throw new ArchiveError("ERR_ARCHIVE_INVALID", { reason: "bad pax header" });
    const rec = data.subarray(sp + 1, i + len - 1).toString("utf8");
    const eq = rec.indexOf("=");
    if (eq > 0) out[rec.slice(0, eq)] = rec.slice(eq + 1);
    i += len;
  }
  return out;
}

function gunzipLimited(gz: Buffer, maxOutput: number): Buffer {
  if (gz.length < 18 || gz[0] !== 0x1f || gz[1] !== 0x8b) throw new ArchiveError("ERR_ARCHIVE_INVALID", { reason: "not a gzip file" });
  try {
    return zlib.gunzipSync(gz, { maxOutputLength: maxOutput });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === "ERR_BUFFER_TOO_LARGE" || e instanceof RangeError) {
      throw new ArchiveError("ERR_ARCHIVE_TOO_LARGE", { reason: "unpacked size over the limit", maxUnpackedBytes: maxOutput });
    }
    throw new ArchiveError("ERR_ARCHIVE_INVALID", { reason: `bad gzip data: ${e.message}` });
  }
}

/**
 * Reads a .tgz; throws ArchiveError: not gzip/tar or bad header checksum → INVALID; absolute
 * path, "..", backslash, NUL, drive letter, symlink/hardlink/device/fifo entries → PATH_UNSAFE;
 * compressed > maxBytes, unpacked > maxUnpackedBytes (default min(10 × maxBytes, 500 MB)) or
 * more than maxEntries (default 5000) → TOO_LARGE. Duplicate paths → INVALID. Directory
 * entries are skipped (only files returned). Never buffers more than the limits while gunzipping.
 */
export function readArchive(gz: Buffer, limits: ArchiveLimits): ArchiveFile[] {
  const maxBytes = limits.maxBytes;
  const maxUnpacked = limits.maxUnpackedBytes ?? defaultMaxUnpackedBytes(maxBytes);
  const maxEntries = limits.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (gz.length > maxBytes) throw new ArchiveError("ERR_ARCHIVE_TOO_LARGE", { size: gz.length, maxBytes });

  // The tar stream holds the files plus a header and padding per entry: allow that overhead
  // on top of the files' limit, and check the files' own total below.
  const tar = gunzipLimited(gz, maxUnpacked + (maxEntries + 2) * 2 * BLOCK);

  const files: ArchiveFile[] = [];
  const seen = new Set<string>();
  let total = 0;
  let entries = 0;
  let pax: Record<string, string> = {};
  let gnuLongName: string | null = null;
  let off = 0;
  let ended = false;

  while (off < tar.length) {
    if (off + BLOCK > tar.length) throw new ArchiveError("ERR_ARCHIVE_INVALID", { reason: "truncated tar (partial header block)" });
    if (isZeroBlock(tar, off)) {
      ended = true;
      break;
    }
    const h = tar.subarray(off, off + BLOCK);
    const stored = readOctal(h, 148, 8, "checksum");
    let unsigned = 0;
    let signed = 0;
    for (let i = 0; i < BLOCK; i++) {
      const b = i >= 148 && i < 156 ? 32 : h[i];
      unsigned += b;
      signed += b > 127 ? b - 256 : b;
    }
    if (stored !== unsigned && stored !== signed) throw new ArchiveError("ERR_ARCHIVE_INVALID", { reason: "bad tar header checksum", offset: off });
    const magic = h.subarray(257, 263).toString("ascii");
    if (magic !== "ustar\0" && magic !== "ustar ") throw new ArchiveError("ERR_ARCHIVE_INVALID", { reason: "not a ustar archive", offset: off });

    const size = readOctal(h, 124, 12, "size");
    const typeflag = String.fromCharCode(h[156] || 0x30);
    const dataStart = off + BLOCK;
    const dataEnd = dataStart + size;
    if (dataEnd > tar.length) throw new ArchiveError("ERR_ARCHIVE_INVALID", { reason: "truncated tar (entry data missing)", offset: off });
    const data = tar.subarray(dataStart, dataEnd);
    off = dataStart + Math.ceil(size / BLOCK) * BLOCK;

    // Meta entries: pax extended headers and GNU long names describe the next entry.
    if (typeflag === "x") {
      pax = parsePax(data);
      continue;
    }
    if (typeflag === "g") continue;
    if (typeflag === "L") {
      gnuLongName = readString(data, 0, data.length);
      continue;
    }

    entries++;
    if (entries > maxEntries) throw new ArchiveError("ERR_ARCHIVE_TOO_LARGE", { reason: "too many entries", maxEntries });

    const prefix = magic === "ustar\0" ? readString(h, 345, 155) : "";
    const headerName = prefix ? `${prefix}/${readString(h, 0, 100)}` : readString(h, 0, 100);
    const rawName = pax.path ?? gnuLongName ?? headerName;
    pax = {};
    gnuLongName = null;

    if (typeflag === "1" || typeflag === "2") throw new ArchiveError("ERR_ARCHIVE_PATH_UNSAFE", { path: rawName, reason: typeflag === "1" ? "hard link" : "symbolic link" });
    if (typeflag === "3" || typeflag === "4" || typeflag === "6") throw new ArchiveError("ERR_ARCHIVE_PATH_UNSAFE", { path: rawName, reason: "device or fifo" });
    const p = safeEntryPath(rawName, typeflag === "5");
    if (typeflag === "5") continue;
    if (typeflag !== "0" && typeflag !== "7") throw new ArchiveError("ERR_ARCHIVE_INVALID", { path: rawName, reason: `unsupported tar entry type ${JSON.stringify(typeflag)}` });

    if (seen.has(p)) throw new ArchiveError("ERR_ARCHIVE_INVALID", { path: p, reason: "duplicate path" });
    seen.add(p);
    total += size;
    if (total > maxUnpacked) throw new ArchiveError("ERR_ARCHIVE_TOO_LARGE", { reason: "unpacked size over the limit", maxUnpackedBytes: maxUnpacked });
    files.push({ path: p, data: Buffer.from(data), mode: readOctal(h, 100, 8, "mode") & 0o777 });
  }
  if (!ended && off !== tar.length) throw new ArchiveError("ERR_ARCHIVE_INVALID", { reason: "truncated tar" });
  if (!ended && files.length === 0) throw new ArchiveError("ERR_ARCHIVE_INVALID", { reason: "empty or truncated tar" });
  return files;
}
