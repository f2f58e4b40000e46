/** The internal chat's rules (spec §4, §5) without services: each refusal and its edge. */
import { assertGroupImage, checkAudio, decodeUpload, fileKindOf, groupNameProblem, imageUrlOf, imageUrlProblem, looksLikeAudio, pageSeqs, pairKey, textOf } from "../src/rules";

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { type?: string }).type;
  }
  return "passed";
};
const webm = (n: number) => Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(n - 4)]);

describe("internal chat rules", () => {
  it("a text is 1 to 4000 characters after trimming; anything else is an invalid message", () => {
    expect(textOf("  oi  ")).toBe("oi");
    expect(textOf(undefined)).toBeUndefined();
    expect(textOf("x".repeat(4000))).toHaveLength(4000);
    for (const bad of ["", "  \n ", "x".repeat(4001), 5, {}, []]) expect(code(() => textOf(bad))).toBe("ERR_INTERNAL_CHAT_INVALID_MESSAGE");
  });

  it("an image URL is http(s), with a host, no credentials, no spaces, at most 2048 characters", () => {
    expect(imageUrlOf(" https://img.test/a.png ")).toBe("https://img.test/a.png");
    expect(imageUrlProblem("http://img.test/a.png?x=1")).toBeNull();
    const bad = ["javascript:alert(1)", "data:image/png;base64,AA", "ftp://x.test/a.png", "//img.test/a.png", "img.test/a.png", "https://u:p@img.test/a", "https://img.test/a b.png", "", `https://img.test/${"a".repeat(2048)}`];
    for (const u of bad) expect([u, code(() => imageUrlOf(u))]).toEqual([u, "ERR_INTERNAL_CHAT_INVALID_IMAGE_URL"]);
    expect(code(() => imageUrlOf(42))).toBe("ERR_INTERNAL_CHAT_INVALID_IMAGE_URL");
  });

  it("chat files are images or audio by their type; a group photo is an image (never SVG)", () => {
    expect(fileKindOf("image/png")).toBe("image");
    expect(fileKindOf("Audio/WebM; codecs=opus")).toBe("audio");
    for (const m of ["application/pdf", "video/webm", "text/plain", "image/svg+xml", "", "audio"]) expect(code(() => fileKindOf(m))).toBe("ERR_INTERNAL_CHAT_FILE_TYPE");
    expect(code(() => assertGroupImage("image/jpeg"))).toBe("passed");
    for (const m of ["audio/ogg", "image/svg+xml", "application/octet-stream"]) expect(code(() => assertGroupImage(m))).toBe("ERR_INTERNAL_CHAT_FILE_TYPE");
  });

  it("uploads: base64 only, not empty, not over the limit (refused before decoding when it cannot fit)", () => {
    expect(decodeUpload(Buffer.from("abc").toString("base64"), 3)).toEqual(Buffer.from("abc"));
    expect(code(() => decodeUpload(Buffer.from("abcd").toString("base64"), 3))).toBe("ERR_INTERNAL_CHAT_FILE_TOO_LARGE");
    expect(code(() => decodeUpload("A".repeat(4 * 1024 * 1024), 1024))).toBe("ERR_INTERNAL_CHAT_FILE_TOO_LARGE");
    expect(code(() => decodeUpload("", 10))).toBe("ERR_NO_FILE_UPLOADED");
    expect(code(() => decodeUpload("not base64!", 100))).toBe("ERR_VALIDATION");
  });

  it("audio: under 1 s declared, no duration, or under 1 KB is too short; its content must be an audio container", () => {
    expect(code(() => checkAudio(webm(1024), 1000, "audio/webm"))).toBe("passed");
    expect(code(() => checkAudio(webm(1024), 999, "audio/webm"))).toBe("ERR_INTERNAL_CHAT_AUDIO_TOO_SHORT");
    expect(code(() => checkAudio(webm(1024), undefined, "audio/webm"))).toBe("ERR_INTERNAL_CHAT_AUDIO_TOO_SHORT");
    expect(code(() => checkAudio(webm(1023), 60_000, "audio/webm"))).toBe("ERR_INTERNAL_CHAT_AUDIO_TOO_SHORT");
    expect(code(() => checkAudio(Buffer.alloc(4096, 0x41), 3000, "audio/webm"))).toBe("ERR_INTERNAL_CHAT_FILE_TYPE");
    const heads = [Buffer.from("OggS\0\0"), Buffer.from("\0\0\0\x20ftypM4A "), Buffer.from("ID3\x04"), Buffer.from([0xff, 0xfb, 0x90]), Buffer.from("RIFF\0\0\0\0WAVE"), Buffer.from("#!AMR\n")];
    for (const h of heads) expect(looksLikeAudio(h)).toBe(true);
    expect(looksLikeAudio(Buffer.from("%PDF-1.7"))).toBe(false);
    expect(looksLikeAudio(Buffer.from("RIFF\0\0\0\0WEBP"))).toBe(false);
  });

  it("group names are 1 to 100 characters; history pages are seq ranges back from the newest", () => {
    expect(groupNameProblem("  ")).toBe("errGroupName");
    expect(groupNameProblem("x".repeat(101))).toBe("errGroupNameMax");
    expect(groupNameProblem(" Equipe ")).toBeNull();
    expect(pageSeqs(0, undefined)).toEqual([]);
    expect(pageSeqs(5, undefined)).toEqual([1, 2, 3, 4, 5]);
    expect(pageSeqs(100, undefined, 3)).toEqual([98, 99, 100]);
    expect(pageSeqs(100, 50, 3)).toEqual([47, 48, 49]);
    expect(pageSeqs(100, 2, 30)).toEqual([1]);
    expect(pageSeqs(100, 1)).toEqual([]);
    expect(pageSeqs(10, 500, 2)).toEqual([9, 10]);
    expect(pageSeqs(1000, undefined, 1000)).toHaveLength(100);
    expect(pairKey(9, 3)).toBe("3:9");
    expect(pairKey(3, 9)).toBe("3:9");
  });
});
