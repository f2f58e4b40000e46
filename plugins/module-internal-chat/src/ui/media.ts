import { useEffect, useState } from "react";

/**
 * The chat's files: the core's file URLs (/api/files/…) need the bearer token and session id,
 * which an <img> or <audio> cannot send and the runtime's api client reads as text, so a file
 * is fetched here with the session the shell keeps (spec §3: token and sessionId in the
 * browser's storage, as libs/report-kit does) and shown from an object URL. Other URLs (an
 * image URL message) are used as they are.
 */
const cache = new Map<string, Promise<string>>();

export function fetchFile(url: string, mimeType: string | null): Promise<string> {
  if (!url.startsWith("/api/files/")) return Promise.resolve(url);
  let p = cache.get(url);
  if (!p) {
    const headers: Record<string, string> = {};
    const token = localStorage.getItem("token");
    const sessionId = localStorage.getItem("sessionId");
    if (token) headers.Authorization = `Bearer ${token}`;
    if (sessionId) headers["X-Session-Id"] = sessionId;
    p = fetch(url, { headers }).then(async (res) => {
      if (!res.ok) throw new Error(String(res.status));
      return URL.createObjectURL(new Blob([await res.arrayBuffer()], { type: mimeType || "application/octet-stream" }));
    });
    p.catch(() => cache.delete(url));
    cache.set(url, p);
  }
  return p;
}

export function useFileUrl(url: string | null, mimeType: string | null): string | null {
  const [src, setSrc] = useState<string | null>(url && !url.startsWith("/api/files/") ? url : null);
  useEffect(() => {
    if (!url) return;
    let alive = true;
    fetchFile(url, mimeType).then(
      (u) => alive && setSrc(u),
      () => alive && setSrc(null),
    );
    return () => {
      alive = false;
    };
  }, [url, mimeType]);
  return src;
}

/** A file or blob as base64 (the routes take files as JSON). */
export function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ""));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}
