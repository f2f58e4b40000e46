/**
 * A plugin's files among the tenant's files (platform.files.upload): a chatbot's flow media, a
 * module's attachment. The bytes cross as a stream of base64 text chunks (media-transfer.ts),
 * so a 10 MB file fits any transporter's packets; the core checks the size against `maxBytes`
 * (default and at most 10 MB, spec §9: ERR_MEDIA_TOO_LARGE) and an image's type by its content
 * (ERR_INVALID_IMAGE_FORMAT; active content such as HTML or SVG: ERR_UNSUPPORTED_MEDIA_TYPE).
 * The answer's `path` is what platform.messages.send takes as `media`.
 *
 *   const file = await uploadPlatformFile(ctx, { tenantId, data, mimeType: "image/png", fileName: "menu.png", maxBytes: 5 * 1024 * 1024 });
 *   await coreApi(ctx).messages.send({ tenantId, ticketId, body: "Our menu", media: file });
 */
import type { Context } from "moleculer";
import { coreApi, type PlatformFileUpload } from "./core-api/client";
import type { PlatformFile } from "./core-api/contract";

/** Stores `file` among the tenant's files as the calling plugin (its service, `this`, or the Context of one of its actions). */
export function uploadPlatformFile(source: Parameters<typeof coreApi>[0] | Context, file: PlatformFileUpload): Promise<PlatformFile> {
  return coreApi(source).files.upload(file);
}
