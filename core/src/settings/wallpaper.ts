import * as fs from "node:fs";
import * as path from "node:path";
import { randomUUID } from "node:crypto";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { broadcast } from "../bus/call";
import { imageKindOf, resolveStored } from "../files/store";
import type { Setting } from "./model";
import { TENANT_DEFAULTS } from "./schemas";

/** Spec §3 General settings: chat wallpapers, image only, at most 5 MB (16:9 recommended, spec §9). */
export const WALLPAPER_MAX_BYTES = 5 * 1024 * 1024;
export const WALLPAPER_THEMES = ["light", "dark"] as const;
export type WallpaperTheme = (typeof WALLPAPER_THEMES)[number];
type Wallpapers = Record<WallpaperTheme, string | null>;

/** Where a tenant's wallpapers live, under its files (served by GET /files/:path to its own users only). */
const folderOf = (tenantId: number) => path.join("tenants", String(tenantId), "wallpapers");
const urlOf = (rel: string) => `/api/files/${encodeURIComponent(rel)}`;

/** The stored wallpaper a URL names, when it is one of this tenant's wallpaper files; null otherwise. */
function storedFileOf(dataDir: string, tenantId: number, url: string | null | undefined): string | null {
  if (!url?.startsWith("/api/files/")) return null;
  let rel: string;
  try {
    rel = decodeURIComponent(url.slice("/api/files/".length));
  } catch {
    return null;
  }
  const folder = path.resolve(dataDir, folderOf(tenantId));
  try {
    const full = resolveStored(dataDir, tenantId, rel);
    return path.dirname(full) === folder ? full : null;
  } catch {
    return null;
  }
}

/** Checks an upload (present, 5 MB at most, an image by its content) and answers its bytes and kind. */
function readUpload(file: { fileName?: string; mimeType?: string; data?: string } | undefined) {
  if (!file?.data) throw new AppError("ERR_NO_FILE_UPLOADED", { field: "file" });
  if (!/^[A-Za-z0-9+/=\s]*$/.test(file.data)) throw new AppError("ERR_VALIDATION", { field: "file.data", rule: "any" });
  // Refused before decoding when the text alone says it is too large (base64: 4 characters per 3 bytes).
  const approx = Math.floor((file.data.length * 3) / 4);
  if (approx > WALLPAPER_MAX_BYTES + 3) throw new AppError("ERR_MEDIA_TOO_LARGE", { field: "file", size: approx, max: WALLPAPER_MAX_BYTES });
  const buf = Buffer.from(file.data, "base64");
  if (!buf.length) throw new AppError("ERR_NO_FILE_UPLOADED", { field: "file" });
  if (buf.length > WALLPAPER_MAX_BYTES) throw new AppError("ERR_MEDIA_TOO_LARGE", { field: "file", size: buf.length, max: WALLPAPER_MAX_BYTES });
  const kind = imageKindOf(buf);
  if (!kind || (file.mimeType && !/^image\//i.test(file.mimeType))) throw new AppError("ERR_INVALID_IMAGE_FORMAT", { field: "file", mimeType: file.mimeType });
  return { buf, kind };
}

/**
 * POST /settings/wallpaper/:theme and DELETE /settings/wallpaper/:theme (admin): the chat
 * wallpaper of a theme is uploaded into the tenant's files (JSON with the file in base64, as
 * every upload of the API) and `wallpapers.<theme>` set to its URL; the image it replaces is
 * removed. Spread into the settings service's actions.
 */
export function wallpaperActions(deps: CoreDeps, model: typeof Setting, upsert: (tenantId: number, key: string, value: unknown) => Promise<void>) {
  const dataDir = deps.config.dataDir;

  async function current(tenantId: number): Promise<Wallpapers> {
    const row = await model.findOne({ where: { tenantId, key: "wallpapers" } });
    return { ...(TENANT_DEFAULTS.wallpapers as Wallpapers), ...((row?.get("value") as Partial<Wallpapers> | null) ?? {}) };
  }

  async function replace(ctx: Ctx, theme: WallpaperTheme, url: string | null) {
    const tenantId = ctx.meta.user!.tenantId;
    const before = await current(tenantId);
    const value = { ...before, [theme]: url };
    await upsert(tenantId, "wallpapers", value);
    const old = storedFileOf(dataDir, tenantId, before[theme]);
    if (old && before[theme] !== url) await fs.promises.rm(old, { force: true });
    void broadcast(ctx, "settings.changed", { tenantId, key: "wallpapers" });
    return { key: "wallpapers", value };
  }

  const themeParam = { theme: { type: "enum", values: WALLPAPER_THEMES } };

  return {
    uploadWallpaper: {
      rest: "POST /settings/wallpaper/:theme",
      access: "admin" as const,
      resource: "own",
      params: {
        ...themeParam,
        file: {
          type: "object",
          optional: true,
          strict: "remove",
          props: { fileName: { type: "string", max: 255, optional: true }, mimeType: { type: "string", max: 120, optional: true }, data: { type: "string", optional: true } },
        },
      },
      async handler(ctx: Ctx<{ theme: WallpaperTheme; file?: { fileName?: string; mimeType?: string; data?: string } }>) {
        const { buf, kind } = readUpload(ctx.params.file);
        const tenantId = ctx.meta.user!.tenantId;
        const rel = path.join(folderOf(tenantId), `${ctx.params.theme}-${randomUUID()}.${kind.ext}`);
        await fs.promises.mkdir(path.join(dataDir, folderOf(tenantId)), { recursive: true });
        await fs.promises.writeFile(path.join(dataDir, rel), buf, { flag: "wx" });
        try {
          return await replace(ctx, ctx.params.theme, urlOf(rel));
        } catch (err) {
          await fs.promises.rm(path.join(dataDir, rel), { force: true });
          throw err;
        }
      },
    },
    removeWallpaper: {
      rest: "DELETE /settings/wallpaper/:theme",
      access: "admin" as const,
      resource: "own",
      params: themeParam,
      async handler(ctx: Ctx<{ theme: WallpaperTheme }>) {
        return replace(ctx, ctx.params.theme, null);
      },
    },
  };
}
