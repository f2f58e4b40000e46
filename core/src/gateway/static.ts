import * as fs from "node:fs";
import * as path from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * Headers of the shell's documents: scripts, styles, fonts and images from this origin only
 * (the UI kit injects style elements, hence 'unsafe-inline' for styles), API and socket on the
 * same origin, media from blobs for previews.
 */
const PAGE_HEADERS: Array<[string, string]> = [
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
  [
    "Content-Security-Policy",
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; media-src 'self' blob: data: https:; connect-src 'self' ws: wss:; font-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  ],
  ["Referrer-Policy", "same-origin"],
];

/** Whether `file` lies inside `dir` (after resolving `..` and symlink-free joins). */
function inside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return !!rel && !rel.startsWith("..") && !path.isAbsolute(rel);
}

export interface StaticResult {
  served: boolean;
}

/**
 * Sends one file of `dir` for the URL path `rel` (already decoded, no query). Hashed build
 * assets (under static/) are cached for a year; entry files (index.html, remoteEntry.js) are
 * revalidated each time so a new build is picked up at once. False when there is no such file.
 */
export function sendStatic(req: IncomingMessage, res: ServerResponse, dir: string, rel: string, extraHeaders: Array<[string, string]> = []): boolean {
  if (rel.includes("\0")) return false;
  const file = path.resolve(dir, "." + path.posix.normalize("/" + rel));
  if (!inside(dir, file)) return false;
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return false;
  }
  if (!st.isFile()) return false;
  const ext = path.extname(file).toLowerCase();
  const etag = `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  const hashed = /(^|\/)static\//.test(rel) || /\.[0-9a-f]{8,}\.(js|css)$/.test(rel);
  res.setHeader("Content-Type", TYPES[ext] ?? "application/octet-stream");
  res.setHeader("Cache-Control", hashed ? "public, max-age=31536000, immutable" : "no-cache");
  res.setHeader("ETag", etag);
  for (const [k, v] of extraHeaders) res.setHeader(k, v);
  if (req.headers["if-none-match"] === etag) {
    res.writeHead(304);
    res.end();
    return true;
  }
  res.setHeader("Content-Length", String(st.size));
  res.writeHead(200);
  if (req.method === "HEAD") {
    res.end();
    return true;
  }
  fs.createReadStream(file).pipe(res);
  return true;
}

/** The shell's files: `/` is index.html; the page headers go with each answer. */
export function sendShellFile(req: IncomingMessage, res: ServerResponse, shellDir: string, urlPath: string): boolean {
  const rel = urlPath === "/" || urlPath === "" ? "index.html" : urlPath.replace(/^\/+/, "");
  return sendStatic(req, res, shellDir, rel, PAGE_HEADERS);
}

/** Parses `/api/plugins/<id>/remote/<file>`; null for any other path. */
export function pluginRemotePath(urlPath: string): { id: string; file: string } | null {
  const m = /^\/api\/plugins\/([a-z0-9][a-z0-9-]{0,62})\/remote\/(.+)$/.exec(urlPath);
  return m ? { id: m[1], file: m[2] } : null;
}
