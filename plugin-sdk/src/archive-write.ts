/**
 * The archive writer: a deterministic ustar tar (fixed mtime, modes and owners, entries in
 * the order given) gzipped without a timestamp, so packing the same files twice gives the
 * same bytes and the same checksum.
 */
import * as zlib from "node:zlib";
import { ArchiveError, BLOCK, FIXED_MTIME, MAX_ARCHIVE_PATH_BYTES, safeEntryPath, type ArchiveFile } from "./archive-format";

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
