import { useEffect, useState } from "react";
import type { RootStore } from "../../app/root";
import type { MessageMedia } from "../../stores/messages";

/**
 * Media of messages: the API's file URLs (/api/files/…) need the bearer token and session
 * id, which an <img> or <audio> cannot send, so the file is fetched once and shown from an
 * object URL typed with the message's MIME type. Other URLs (a channel's own) are used as
 * they are.
 */
const cache = new Map<string, Promise<string>>();

function needsAuth(url: string): boolean {
  return url.startsWith("/api/files/") || url.startsWith(`${location.origin}/api/files/`);
}

export function fetchMedia(root: RootStore, media: MessageMedia): Promise<string> {
  if (media.local || !needsAuth(media.url)) return Promise.resolve(media.url);
  const key = media.url;
  let p = cache.get(key);
  if (!p) {
    const s = root.session;
    p = fetch(media.url, { headers: { Authorization: `Bearer ${s.token ?? ""}`, "X-Session-Id": s.sessionId ?? "" } }).then(async (res) => {
      if (!res.ok) throw new Error(String(res.status));
      const buf = await res.arrayBuffer();
      return URL.createObjectURL(new Blob([buf], { type: media.mimeType || "application/octet-stream" }));
    });
    p.catch(() => cache.delete(key));
    cache.set(key, p);
  }
  return p;
}

export function useMediaUrl(root: RootStore, media: MessageMedia | null, enabled = true): { url: string | null; failed: boolean } {
  const [state, setState] = useState<{ url: string | null; failed: boolean }>({ url: media?.local ? media.url : null, failed: false });
  useEffect(() => {
    if (!media || !enabled) return;
    let alive = true;
    fetchMedia(root, media).then(
      (url) => alive && setState({ url, failed: false }),
      () => alive && setState({ url: null, failed: true }),
    );
    return () => {
      alive = false;
    };
  }, [media?.url, enabled]);
  return state;
}

/** Saves a message's file under its name. */
export async function downloadMedia(root: RootStore, media: MessageMedia) {
  const url = await fetchMedia(root, media);
  const a = document.createElement("a");
  a.href = url;
  a.download = media.fileName || "file";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** A file as base64 (the API takes media as JSON). */
export function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ""));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}
