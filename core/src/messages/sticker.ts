import sharp from "sharp";
import { AppError } from "../errors/app-error";

/** WhatsApp's sticker: 512x512 WebP, under 100 KB for a still one. */
export const STICKER_SIZE = 512;
export const STICKER_MAX_BYTES = 100 * 1024;
/** What a picked picture may weigh before it is made a sticker. */
export const STICKER_SOURCE_MAX_BYTES = 5 * 1024 * 1024;

/**
 * A picture made a sticker: turned as its EXIF says, fitted whole inside 512x512 with
 * transparent padding, as WebP (its first frame for an animated source). The quality steps
 * down until it fits the channels' limit. Anything sharp cannot read is refused as an
 * unsupported format (415), not a server error.
 */
export async function makeSticker(source: Buffer): Promise<Buffer> {
  if (source.length > STICKER_SOURCE_MAX_BYTES) throw new AppError("ERR_MEDIA_TOO_LARGE", { field: "media", size: source.length, max: STICKER_SOURCE_MAX_BYTES });
  let base: Buffer;
  try {
    base = await sharp(source, { animated: false, limitInputPixels: 40_000_000 })
      .rotate()
      .resize(STICKER_SIZE, STICKER_SIZE, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .ensureAlpha()
      .png()
      .toBuffer();
  } catch {
    throw new AppError("ERR_UNSUPPORTED_MEDIA_TYPE", { field: "media" });
  }
  let out = Buffer.alloc(0);
  for (const quality of [85, 70, 55, 40, 25]) {
    out = await sharp(base).webp({ quality, alphaQuality: 90, effort: 4 }).toBuffer();
    if (out.length <= STICKER_MAX_BYTES) break;
  }
  return out;
}
