import { TEMPLATE_HEADER_FILE_TYPES } from "@openatende/plugin-sdk";
import { bytesAre, multipartParts, SAMPLE_MAX_BYTES, sampleProblem } from "./template-sample";

const form = (boundary: string, parts: string[]) => Buffer.from(parts.map((p) => `--${boundary}\r\n${p}\r\n`).join("") + `--${boundary}--\r\n`, "latin1");

describe("a media header's sample", () => {
  it("reads a multipart form's parts, a file's bytes as they came (CRLFs inside included)", () => {
    const body = form("XyZ", ['content-disposition: form-data; name="template"\r\n\r\n{"name":"a"}', 'content-disposition: form-data; name="file"; filename="a.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-\r\n\r\n--Xy\r\nend']);
    const parts = multipartParts(body, "multipart/form-data; boundary=XyZ")!;
    expect(parts.map((p) => [p.name, p.fileName, p.mimeType])).toEqual([
      ["template", undefined, undefined],
      ["file", "a.pdf", "application/pdf"],
    ]);
    expect(parts[0].data.toString()).toBe('{"name":"a"}');
    expect(parts[1].data.toString("latin1")).toBe("%PDF-\r\n\r\n--Xy\r\nend");
    // A quoted boundary, as some clients write it.
    expect(multipartParts(body, 'multipart/form-data; boundary="XyZ"')).toHaveLength(2);
  });

  it("answers null for what is not a whole form", () => {
    const body = form("b1", ['content-disposition: form-data; name="template"\r\n\r\n{}']);
    expect(multipartParts(body, "application/json")).toBeNull();
    expect(multipartParts(body, "multipart/form-data; boundary=other")).toBeNull();
    expect(multipartParts(body.subarray(0, body.length - 8), "multipart/form-data; boundary=b1")).toBeNull();
    expect(multipartParts(form("b1", ["no headers here"]), "multipart/form-data; boundary=b1")).toBeNull();
  });

  it("knows each accepted type by its first bytes", () => {
    expect(bytesAre("image/jpeg", Buffer.from("ffd8ffe0", "hex"))).toBe(true);
    expect(bytesAre("image/png", Buffer.from("89504e470d0a1a0a00", "hex"))).toBe(true);
    expect(bytesAre("application/pdf", Buffer.from("%PDF-1.4"))).toBe(true);
    expect(bytesAre("video/mp4", Buffer.from("0000001c6674797069736f6d", "hex"))).toBe(true);
    expect(bytesAre("image/png", Buffer.from("%PDF-1.4"))).toBe(false);
    expect(bytesAre("image/gif", Buffer.from("GIF89a"))).toBe(false);
  });

  it("takes Meta's types and sizes per format, and nothing for a text header", () => {
    const png = (size: number) => ({ data: Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(size - 8)]), mimeType: "image/png", fileName: "a.png" });
    expect(sampleProblem("ERR_X", "IMAGE", png(1000))).toBeNull();
    expect(sampleProblem("ERR_X", "IMAGE", png(SAMPLE_MAX_BYTES.IMAGE!))).toBeNull();
    expect(sampleProblem("ERR_X", "IMAGE", png(SAMPLE_MAX_BYTES.IMAGE! + 1))).toMatchObject({ type: "ERR_X_TEMPLATE_SAMPLE_TOO_LARGE", code: 413, data: { maxMb: 5 } });
    expect(sampleProblem("ERR_X", "VIDEO", png(1000))).toMatchObject({ type: "ERR_X_TEMPLATE_SAMPLE_TYPE", data: { types: TEMPLATE_HEADER_FILE_TYPES.VIDEO!.join(", ") } });
    expect(sampleProblem("ERR_X", "TEXT", png(1000))).toMatchObject({ type: "ERR_X_TEMPLATE_SAMPLE_TYPE" });
    expect(SAMPLE_MAX_BYTES).toEqual({ IMAGE: 5 * 2 ** 20, VIDEO: 16 * 2 ** 20, DOCUMENT: 100 * 2 ** 20 });
  });
});
