import sharp from "sharp";
import { makeSticker, STICKER_MAX_BYTES } from "./sticker";

describe("makeSticker", () => {
  it("fits a wide picture whole inside 512x512 WebP with transparent padding", async () => {
    const wide = await sharp({ create: { width: 300, height: 100, channels: 3, background: { r: 200, g: 30, b: 30 } } }).jpeg().toBuffer();
    const out = await makeSticker(wide);
    const meta = await sharp(out).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha }).toEqual({ format: "webp", width: 512, height: 512, hasAlpha: true });
    expect(out.length).toBeLessThanOrEqual(STICKER_MAX_BYTES);
    const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    const alphaAt = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3];
    // Padding above and below (the picture is 512x171 in the middle), the picture itself opaque.
    expect(alphaAt(256, 10)).toBe(0);
    expect(alphaAt(256, 500)).toBe(0);
    expect(alphaAt(256, 256)).toBe(255);
  });

  it("refuses what is not a picture as an unsupported format", async () => {
    await expect(makeSticker(Buffer.from("not an image"))).rejects.toMatchObject({ type: "ERR_UNSUPPORTED_MEDIA_TYPE" });
  });
});
