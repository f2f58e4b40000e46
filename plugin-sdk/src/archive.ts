/**
 * Plugin archives: a gzip-compressed POSIX ustar tar, named `<id>-<version>.tgz`, with a
 * checksum file `<id>-<version>.tgz.sha256` (`<sha256 hex>  <file name>\n`). Layout:
 *
 *   package.json            manifest in `platform`; "main": "dist/server/index.js"
 *   README.md               optional
 *   CHANGELOG.md            optional (shown in the catalogue)
 *   dist/server/index.js    CJS bundle of the plugin's service
 *   dist/ui/**              the UI remote (remoteEntry.js + assets) when the manifest has `ui`
 *
 * The tar writer and reader are written here (no tar dependency): the reader is the gate the
 * marketplace and the plugin installer put in front of anything uploaded, so it refuses
 * rather than guesses: unsafe paths, links, devices, duplicates, bad header checksums and
 * anything over the size limits (checked while gunzipping, so a gzip bomb never fills memory).
 */
import { createHash } from "node:crypto";
import * as zlib from "node:zlib";
import { CORE_API_VERSION, PluginManifest, isCoreApiCompatible, validateManifest } from "./manifest";

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
const DEFAULT_UI_REMOTE_ENTRY_FILE = "remoteEntry.js";
export const DEFAULT_MAX_ENTRIES = 5000;
/** Longest entry path ustar can hold (155-byte prefix + "/" + 100-byte name; we stop at 255). */
export const MAX_ARCHIVE_PATH_BYTES = 255;
export const MAX_UNPACKED_CAP = 500 * 1024 * 1024;
/** Fixed mtime of packed entries (as npm does), so the same files give the same bytes. */
const FIXED_MTIME = 499162500;
const BLOCK = 512;

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

// ---------------------------------------------------------------------------------------
// writer

type TarEntryType = "file" | "dir" | "symlink" | "hardlink";
const TYPE_FLAGS: Record<TarEntryType, string> = { file: "0", dir: "5", symlink: "2", hardlink: "1" };

/** Splits a path into ustar (prefix, name): name ≤ 100 bytes, prefix ≤ 155 bytes; null when it cannot fit. */
function splitUstarName(p: string): { prefix: string; name: string } | null {
  if (Buffer.byteLength(p) <= 100) return { prefix: "", name: p };
  if (Buffer.byteLength(p) > MAX_ARCHIVE_PATH_BYTES) return null;
  for (let i = p.indexOf("/"); i !== -1; i = p.indexOf("/", i + 1)) {
    const prefix = p.slice(0, i);
    const name = p.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name.length > 0) return { prefix, name };
  }
  return null;
}

function writeString(buf: Buffer, offset: number, size: number, s: string) {
  const b = Buffer.from(s, "utf8");
  if (b.length > size) throw new ArchiveError("ERR_ARCHIVE_INVALID", { reason: "field too long", value: s });
  b.copy(buf, offset);
}

function writeOctal(buf: Buffer, offset: number, size: number, n: number) {
  const s = Math.floor(n).toString(8);
  if (s.length > size - 1) throw new ArchiveError("ERR_ARCHIVE_TOO_LARGE", { reason: "value does not fit a ustar header", value: n });
  writeString(buf, offset, size, s.padStart(size - 1, "0") + "\0");
}

function headerChecksum(h: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
  return sum;
}

function makeHeader(name: string, opts: { size: number; type: TarEntryType; mode: number; linkName?: string }): Buffer {
  const split = splitUstarName(name);
  if (!split) throw new ArchiveError("ERR_ARCHIVE_INVALID", { path: name, reason: "path too long for ustar (at most 255 bytes, split at a '/')" });
  const h = Buffer.alloc(BLOCK);
  writeString(h, 0, 100, split.name);
  writeOctal(h, 100, 8, opts.mode & 0o7777);
  writeOctal(h, 108, 8, 0);
  writeOctal(h, 116, 8, 0);
  writeOctal(h, 124, 12, opts.size);
  writeOctal(h, 136, 12, FIXED_MTIME);
  h.write(TYPE_FLAGS[opts.type], 156, "ascii");
  if (opts.linkName) writeString(h, 157, 100, opts.linkName);
  h.write("ustar\0", 257, "ascii");
  h.write("00", 263, "ascii");
  writeString(h, 345, 155, split.prefix);
  const sum = headerChecksum(h);
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, "ascii");
  return h;
}

/** Raw ustar writer, no checks at all (tests use it to craft bad archives: "../x", "/etc/x", symlinks). */
export function writeTar(
  entries: Array<{ name: string; data?: Buffer; type?: TarEntryType; linkName?: string; mode?: number }>,
): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const type = e.type ?? "file";
    const data = type === "file" ? (e.data ?? Buffer.alloc(0)) : Buffer.alloc(0);
    parts.push(makeHeader(e.name, { size: data.length, type, mode: e.mode ?? (type === "dir" ? 0o755 : 0o644), linkName: e.linkName }));
    if (data.length) {
      parts.push(data);
      const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
      if (pad) parts.push(Buffer.alloc(pad));
    }
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

/** gzip with a fixed header (mtime 0, OS unix), so the bytes do not depend on the machine. */
function gzipDeterministic(data: Buffer): Buffer {
  const gz = zlib.gzipSync(data, { level: 9 });
  gz.writeUInt32LE(0, 4);
  gz[9] = 3;
  return gz;
}

/** gzip(tar) of the files, sorted by path, mtime fixed (deterministic: same files → same bytes); refuses unsafe paths. */
export function packArchive(files: ArchiveFile[]): Buffer {
  const seen = new Set<string>();
  const checked = files.map((f) => {
    const p = safeEntryPath(f.path);
    if (seen.has(p)) throw new ArchiveError("ERR_ARCHIVE_INVALID", { path: p, reason: "duplicate path" });
    seen.add(p);
    if (!splitUstarName(p)) throw new ArchiveError("ERR_ARCHIVE_INVALID", { path: p, reason: "path too long for ustar (at most 255 bytes, split at a '/')" });
    return { name: p, data: f.data, mode: (f.mode ?? 0o644) & 0o777 };
  });
  checked.sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  return gzipDeterministic(writeTar(checked));
}

// ---------------------------------------------------------------------------------------
// reader

/**
 * Normalises an entry path ("./a//b" → "a/b") and refuses the unsafe ones (absolute, drive
 * letter, backslash, NUL, "..", empty).
 */
function safeEntryPath(raw: string, allowRoot = false): string {
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

// ---------------------------------------------------------------------------------------
// inspection

export interface InspectedArchive {
  manifest: PluginManifest;
  pkg: Record<string, unknown>;
  files: ArchiveFile[];
  checksum: string;
  size: number;
  readme: string | null;
  changelog: string | null;
}

/** Takes the hex of a checksum given as "<hex>" or as a `.sha256` file's "<hex>  <name>". */
function normaliseChecksum(c: string): string {
  return c.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
}

/**
 * size → checksum (when given; mismatch → CHECKSUM_MISMATCH) → readArchive → package.json at
 * the root, validateManifest ok, coreApi compatible with coreApiVersion (default
 * CORE_API_VERSION), main === "dist/server/index.js" and present, `dist/ui/<remoteEntry>`
 * present when manifest.ui → otherwise MANIFEST_INVALID with the reasons in detail.errors.
 */
export function inspectArchive(gz: Buffer, opts: { limits: ArchiveLimits; checksum?: string; coreApiVersion?: string }): InspectedArchive {
  if (gz.length > opts.limits.maxBytes) throw new ArchiveError("ERR_ARCHIVE_TOO_LARGE", { size: gz.length, maxBytes: opts.limits.maxBytes });
  const checksum = sha256Hex(gz);
  if (opts.checksum !== undefined && normaliseChecksum(opts.checksum) !== checksum) {
    throw new ArchiveError("ERR_ARCHIVE_CHECKSUM_MISMATCH", { expected: normaliseChecksum(opts.checksum), actual: checksum });
  }
  const files = readArchive(gz, opts.limits);
  const byPath = new Map(files.map((f) => [f.path, f]));
  const invalid = (errors: string[]) => new ArchiveError("ERR_ARCHIVE_MANIFEST_INVALID", { errors });

  const pkgFile = byPath.get("package.json");
  if (!pkgFile) throw invalid(["package.json missing at the archive root"]);
  let pkg: unknown;
  try {
    pkg = JSON.parse(pkgFile.data.toString("utf8"));
  } catch (err) {
    throw invalid([`package.json is not valid JSON: ${(err as Error).message}`]);
  }
  const checked = validateManifest(pkg);
  if (!checked.ok) throw invalid(checked.errors);
  const manifest = checked.manifest;
  const pkgObj = pkg as Record<string, unknown>;

  const errors: string[] = [];
  const coreApiVersion = opts.coreApiVersion ?? CORE_API_VERSION;
  if (!isCoreApiCompatible(manifest.coreApi, coreApiVersion)) errors.push(`platform.coreApi ${JSON.stringify(manifest.coreApi)} is not compatible with core API ${coreApiVersion}`);
  if (pkgObj.main !== ARCHIVE_MAIN) errors.push(`main must be ${JSON.stringify(ARCHIVE_MAIN)} (got ${JSON.stringify(pkgObj.main)})`);
  else if (!byPath.has(ARCHIVE_MAIN)) errors.push(`${ARCHIVE_MAIN} (main) is missing from the archive`);
  if (manifest.ui) {
    const entry = `${ARCHIVE_UI_DIR}/${manifest.ui.remoteEntry ?? DEFAULT_UI_REMOTE_ENTRY_FILE}`;
    let normalised: string | null;
    try {
      normalised = safeEntryPath(entry);
    } catch {
      normalised = null;
    }
    if (!normalised || !byPath.has(normalised)) errors.push(`${entry} (the UI remote entry) is missing from the archive`);
  }
  if (errors.length) throw invalid(errors);

  const text = (p: string) => byPath.get(p)?.data.toString("utf8") ?? null;
  return { manifest, pkg: pkgObj, files, checksum, size: gz.length, readme: text("README.md"), changelog: text("CHANGELOG.md") };
}
