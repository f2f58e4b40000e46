/**
 * General settings (spec §3): the chat wallpapers uploaded into the tenant's files (image only,
 * by content; 5 MB at most; served to the tenant's own users only; replaced and removed with
 * their files) and the SLA thresholds' order (green < yellow < red).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import sharp from "sharp";
import { startCore, createTenant, TestCore, TenantFixture, Res } from "./helpers";
import { WALLPAPER_MAX_BYTES } from "../src/settings/wallpaper";

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.title).toBe("string");
}

const b64 = (buf: Buffer) => buf.toString("base64");
/** The stored file a wallpaper URL names, on disk. */
const fileOf = (t: TestCore, url: string) => path.join(t.config.dataDir, decodeURIComponent(url.replace(/^\/api\/files\//, "")));

/** A file download through the API with the caller's credentials: status and bytes. */
async function download(t: TestCore, url: string, who: { token: string; sessionId: string }) {
  const res = await fetch(t.url + url, { headers: { authorization: `Bearer ${who.token}`, "x-session-id": who.sessionId } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("chat wallpapers and SLA order", () => {
  let t: TestCore;
  let f: TenantFixture;
  let other: TenantFixture;
  let png: Buffer;
  let jpeg: Buffer;
  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t);
    other = await createTenant(t);
    png = await sharp({ create: { width: 320, height: 180, channels: 3, background: { r: 20, g: 120, b: 90 } } }).png().toBuffer();
    jpeg = await sharp({ create: { width: 320, height: 180, channels: 3, background: { r: 30, g: 30, b: 60 } } }).jpeg().toBuffer();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("an admin uploads a theme's wallpaper: stored in the tenant's files, its URL in wallpapers.<theme>, served to the tenant's users only", async () => {
    const r = await t.api.post("/settings/wallpaper/light", { file: { fileName: "praia.png", mimeType: "image/png", data: b64(png) } }, f.admin);
    expect(r.status).toBe(200);
    const url = r.body.value.light as string;
    expect(url).toMatch(new RegExp(`^/api/files/tenants%2F${f.tenantId}%2Fwallpapers%2Flight-[0-9a-f-]{36}\\.png$`));
    expect(r.body).toEqual({ key: "wallpapers", value: { light: url, dark: null } });
    expect((await t.api.get("/settings", f.agent)).body.wallpapers).toEqual({ light: url, dark: null });

    // The tenant's agent gets the very bytes; another tenant's admin gets a 404.
    const mine = await download(t, url, f.agent);
    expect(mine.status).toBe(200);
    expect(mine.bytes.equals(png)).toBe(true);
    const theirs = await download(t, url, other.admin);
    expect(theirs.status).toBe(404);
    expect(theirs.bytes.equals(png)).toBe(false);
    // Nor does the other tenant's own settings change.
    expect((await t.api.get("/settings", other.admin)).body.wallpapers).toBeUndefined();

    // The dark one beside it, a JPEG whose name says otherwise: kept as what its content is.
    const d = await t.api.post("/settings/wallpaper/dark", { file: { fileName: "noite.png", mimeType: "image/png", data: b64(jpeg) } }, f.admin);
    expect(d.status).toBe(200);
    expect(d.body.value).toEqual({ light: url, dark: expect.stringMatching(/%2Fdark-[0-9a-f-]{36}\.jpg$/) });
  });

  it("a wallpaper is one of the platform's files: an outside address written through PUT /settings is refused", async () => {
    for (const light of ["https://tracker.example/pixel.png", "//tracker.example/x.png", "/api/files/a b.png", "javascript:alert(1)"]) {
      const r = await t.api.put("/settings/wallpapers", { value: { light, dark: null } }, f.admin);
      expect({ light, status: r.status, code: r.body.error, field: r.body.data?.field }).toEqual({ light, status: 400, code: "ERR_VALIDATION", field: "value.light" });
    }
    // The stored ones stay as they were; they are themselves accepted as written.
    const before = (await t.api.get("/settings", f.admin)).body.wallpapers;
    expect(before.light).toMatch(/^\/api\/files\//);
    const ok = await t.api.put("/settings/wallpapers", { value: before }, f.admin);
    expect(ok.status).toBe(200);
  });

  it("a new upload replaces the theme's image and removes the old file; DELETE clears it", async () => {
    const first = (await t.api.post("/settings/wallpaper/dark", { file: { fileName: "a.png", mimeType: "image/png", data: b64(png) } }, f.admin)).body.value.dark as string;
    expect(fs.existsSync(fileOf(t, first))).toBe(true);
    const second = await t.api.post("/settings/wallpaper/dark", { file: { fileName: "b.jpg", mimeType: "image/jpeg", data: b64(jpeg) } }, f.admin);
    expect(second.status).toBe(200);
    const url = second.body.value.dark as string;
    expect(url).not.toBe(first);
    expect(fs.existsSync(fileOf(t, first))).toBe(false);
    expect((await download(t, first, f.admin)).status).toBe(404);
    const light = (await t.api.get("/settings", f.admin)).body.wallpapers.light;
    expect(light).toEqual(expect.any(String));

    const del = await t.api.del("/settings/wallpaper/dark", f.admin);
    expect(del.status).toBe(200);
    expect(del.body.value).toEqual({ light, dark: null });
    expect((await t.api.get("/settings", f.admin)).body.wallpapers).toEqual({ light, dark: null });
    expect(fs.existsSync(fileOf(t, url))).toBe(false);
    // The light one is untouched.
    expect((await download(t, light, f.agent)).status).toBe(200);
  });

  it("refuses what is not an image by its content, a missing file and a file over 5 MB; nothing is stored", async () => {
    const before = (await t.api.get("/settings", f.admin)).body.wallpapers;
    const files = () => fs.readdirSync(path.join(t.config.dataDir, "tenants", String(f.tenantId), "wallpapers")).sort();
    const stored = files();

    const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n");
    const pdfAsPng = await t.api.post("/settings/wallpaper/light", { file: { fileName: "foto.png", mimeType: "image/png", data: b64(pdf) } }, f.admin);
    expectError(pdfAsPng, 400, "ERR_INVALID_IMAGE_FORMAT");
    expect(pdfAsPng.body.data.field).toBe("file");
    const text = await t.api.post("/settings/wallpaper/light", { file: { fileName: "foto.jpg", mimeType: "image/jpeg", data: b64(Buffer.from("só um texto, não uma imagem")) } }, f.admin);
    expectError(text, 400, "ERR_INVALID_IMAGE_FORMAT");
    // An image's bytes sent as a document are refused too: the type must be an image's.
    expectError(await t.api.post("/settings/wallpaper/light", { file: { fileName: "x.pdf", mimeType: "application/pdf", data: b64(png) } }, f.admin), 400, "ERR_INVALID_IMAGE_FORMAT");
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expectError(await t.api.post("/settings/wallpaper/light", { file: { fileName: "x.svg", mimeType: "image/svg+xml", data: b64(svg) } }, f.admin), 400, "ERR_INVALID_IMAGE_FORMAT");

    expectError(await t.api.post("/settings/wallpaper/light", {}, f.admin), 400, "ERR_NO_FILE_UPLOADED");
    expectError(await t.api.post("/settings/wallpaper/light", { file: { fileName: "x.png", mimeType: "image/png", data: "" } }, f.admin), 400, "ERR_NO_FILE_UPLOADED");

    // A PNG one byte over the limit.
    const big = Buffer.concat([png, Buffer.alloc(WALLPAPER_MAX_BYTES + 1 - png.length, 7)]);
    const tooBig = await t.api.post("/settings/wallpaper/light", { file: { fileName: "big.png", mimeType: "image/png", data: b64(big) } }, f.admin);
    expectError(tooBig, 413, "ERR_MEDIA_TOO_LARGE");
    expect(tooBig.body.data).toMatchObject({ field: "file", max: WALLPAPER_MAX_BYTES });
    // Exactly 5 MB is taken.
    const edge = big.subarray(0, WALLPAPER_MAX_BYTES);
    const ok = await t.api.post("/settings/wallpaper/light", { file: { fileName: "edge.png", mimeType: "image/png", data: b64(edge) } }, f.admin);
    expect(ok.status).toBe(200);
    expect((await download(t, ok.body.value.light, f.agent)).bytes.length).toBe(WALLPAPER_MAX_BYTES);
    // The refused ones left nothing; the accepted one replaced the old light image.
    expect(files()).toHaveLength(stored.length);
    expect(before.light).not.toBe(ok.body.value.light);

    expectError(await t.api.post("/settings/wallpaper/blue", { file: { fileName: "a.png", mimeType: "image/png", data: b64(png) } }, f.admin), 400, "ERR_VALIDATION");
  });

  it("is the admin's: an agent and a supervisor are refused, and nothing changes", async () => {
    const before = (await t.api.get("/settings", f.admin)).body.wallpapers;
    for (const who of [f.agent, f.supervisor]) {
      expectError(await t.api.post("/settings/wallpaper/light", { file: { fileName: "a.png", mimeType: "image/png", data: b64(png) } }, who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.del("/settings/wallpaper/light", who), 403, "ERR_NO_PERMISSION");
    }
    expectError(await t.api.post("/settings/wallpaper/light", { file: { fileName: "a.png", mimeType: "image/png", data: b64(png) } }, null), 401, "ERR_SESSION_REQUIRED");
    expect((await t.api.get("/settings", f.admin)).body.wallpapers).toEqual(before);
  });

  it("another tenant's admin changes only their own wallpapers", async () => {
    const mine = (await t.api.get("/settings", f.admin)).body.wallpapers;
    const r = await t.api.post("/settings/wallpaper/light", { file: { fileName: "b.png", mimeType: "image/png", data: b64(png) } }, other.admin);
    expect(r.status).toBe(200);
    expect(r.body.value.light).toContain(`tenants%2F${other.tenantId}%2F`);
    expect((await t.api.del("/settings/wallpaper/light", other.admin)).status).toBe(200);
    expect((await t.api.get("/settings", f.admin)).body.wallpapers).toEqual(mine);
    expect((await download(t, mine.light, f.agent)).status).toBe(200);
  });

  it("SLA thresholds must be ordered green < yellow < red; the broken one is named", async () => {
    const yellow = await t.api.put("/settings/sla", { value: { green: 60, yellow: 30, red: 120 } }, f.admin);
    expectError(yellow, 400, "ERR_VALIDATION");
    expect(yellow.body.data).toMatchObject({ field: "value.yellow", rule: "slaOrder" });
    const red = await t.api.put("/settings/sla", { value: { green: 10, yellow: 60, red: 60 } }, f.admin);
    expectError(red, 400, "ERR_VALIDATION");
    expect(red.body.data).toMatchObject({ field: "value.red", rule: "slaOrder" });
    expect((await t.api.get("/settings", f.admin)).body.sla).toBeUndefined();
    expect((await t.api.put("/settings/sla", { value: { green: 15, yellow: 45, red: 90 } }, f.admin)).status).toBe(200);
    expect((await t.api.get("/settings", f.admin)).body.sla).toEqual({ green: 15, yellow: 45, red: 90 });
  });
});
