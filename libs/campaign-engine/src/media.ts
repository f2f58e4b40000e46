/**
 * A campaign's file (spec §3 Campaign: media; §9: 10 MB a file), for every type that sends one
 * (the normal campaign's media at POST /campanhas/media, a WABA template's header file at POST
 * /campanhaswaba/media): stores it among the tenant's files through the core
 * (platform.files.upload) and answers what the campaign's content keeps. The bytes
 * travel as base64 in the JSON body; a file over 10 MB is refused before it is decoded
 * (ERR_MEDIA_TOO_LARGE), an empty one with ERR_NO_FILE_UPLOADED; the core checks an image's
 * type by its content and refuses active content (HTML, SVG).
 */
import type { Context } from "moleculer";
import { PluginError, uploadPlatformFile, type PluginTier } from "@openatende/plugin-sdk";

export const MEDIA_MAX_BYTES = 10 * 1024 * 1024;

/** A stored campaign file, as a campaign's content keeps it. */
export interface CampaignFile {
  path: string;
  mimeType: string;
  fileName: string;
}

type Upload = { fileName: string; mimeType: string; data: string };
type Ctx = Context<{ file: Upload }, { user?: { id: number; tenantId: number } }>;

const tooLarge = () => new PluginError("ERR_MEDIA_TOO_LARGE", 413, { field: "media", max: "10 MB" });

/** The upload action of a campaign type, under its route base (`campanhas` → POST /campanhas/media). */
export function campaignMediaActions(routeBase: string, tier: PluginTier) {
  return {
    uploadMedia: {
      rest: `POST /${routeBase}/media`,
      access: "supervisor" as const,
      tier,
      params: {
        file: {
          type: "object",
          strict: "remove",
          props: {
            fileName: { type: "string", trim: true, empty: false, max: 255 },
            mimeType: { type: "string", pattern: /^[\w.+-]+\/[\w.+-]+$/, max: 100 },
            data: { type: "string", empty: true },
          },
        },
      },
      async handler(ctx: Ctx): Promise<CampaignFile & { url: string; size: number }> {
        const tenantId = ctx.meta.user?.tenantId;
        if (!tenantId) throw new PluginError("ERR_SESSION_REQUIRED", 401);
        const f = ctx.params.file;
        // base64 is 4 characters per 3 bytes: refused before decoding when it cannot fit.
        if (Math.floor((f.data.length * 3) / 4) > MEDIA_MAX_BYTES + 3) throw tooLarge();
        if (!/^[A-Za-z0-9+/]*={0,2}$/.test(f.data)) throw new PluginError("ERR_VALIDATION", 400, { field: "file.data" });
        const data = Buffer.from(f.data, "base64");
        if (!data.length) throw new PluginError("ERR_NO_FILE_UPLOADED", 400, { field: "media" });
        if (data.length > MEDIA_MAX_BYTES) throw tooLarge();
        const stored = await uploadPlatformFile(ctx, { tenantId, data, mimeType: f.mimeType, fileName: f.fileName, maxBytes: MEDIA_MAX_BYTES });
        return { path: stored.path, mimeType: stored.mimeType, fileName: stored.fileName, url: stored.url, size: stored.size };
      },
    },
  };
}
