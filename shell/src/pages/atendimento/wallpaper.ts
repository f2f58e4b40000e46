import type { RootStore } from "../../app/root";
import type { MessageMedia } from "../../stores/messages";
import { useMediaUrl } from "./media";

const TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", webp: "image/webp", gif: "image/gif" };

/** The tenant's chat wallpaper for a theme (setting `wallpapers`: { light, dark }, an image URL or null). */
export function wallpaperOf(stored: unknown, dark: boolean): string | null {
  const w = stored as { light?: unknown; dark?: unknown } | null | undefined;
  const url = dark ? w?.dark : w?.light;
  return typeof url === "string" && url ? url : null;
}

/**
 * The chat pane's background for the user's theme, ready for CSS: the API's files need the
 * bearer token, so the image is fetched once (media.ts) and shown from an object URL. Null
 * while there is none, it loads, or it failed (the pane keeps its own background).
 */
export function useWallpaper(root: RootStore): string | null {
  const url = wallpaperOf(root.settings.get("wallpapers"), root.session.isDark);
  const ext = url?.split("?")[0].split(".").pop()?.toLowerCase() ?? "";
  const media = url ? ({ url, mimeType: TYPES[ext] ?? "image/png", fileName: "wallpaper" } as MessageMedia) : null;
  return useMediaUrl(root, media, !!url).url;
}
