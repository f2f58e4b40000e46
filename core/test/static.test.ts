/**
 * The gateway serves the built shell at `/` and each plugin's UI remote at
 * `/api/plugins/<id>/remote/…` (built by `npm run build`, which `npm test` runs first), with
 * the page's security headers, revalidation for entry files, long caching for hashed assets,
 * and nothing outside those folders.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startCore, TestCore } from "./helpers";

const ROOT = path.resolve(__dirname, "../..");

describe("static files of the shell and the plugin remotes", () => {
  let t: TestCore;
  beforeAll(async () => {
    for (const f of ["shell/dist/index.html", "plugins/channel-webchat/dist/ui/remoteEntry.js"]) {
      if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` (npm test does)`);
    }
    t = await startCore();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("/ is the shell's index.html with the page's security headers, revalidated on each load", async () => {
    const r = await fetch(`${t.url}/`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    expect(r.headers.get("cache-control")).toBe("no-cache");
    expect(r.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
    expect(r.headers.get("x-frame-options")).toBe("DENY");
    const html = await r.text();
    expect(html).toContain('<div id="root">');
    // A second load with the ETag is a 304.
    const again = await fetch(`${t.url}/`, { headers: { "if-none-match": r.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("hashed assets are cached for a year", async () => {
    const html = await (await fetch(`${t.url}/`)).text();
    const src = /src="([^"]+\.js)"/.exec(html)?.[1];
    expect(src).toMatch(/^\/static\/js\//);
    const r = await fetch(`${t.url}${src}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(r.headers.get("cache-control")).toMatch(/max-age=31536000, immutable/);
  });

  it("a plugin's remote entry is served from the plugin's UI build", async () => {
    const r = await fetch(`${t.url}/api/plugins/channel-webchat/remote/remoteEntry.js`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(r.headers.get("cache-control")).toBe("no-cache");
    const body = await r.text();
    expect(body).toContain("plugin_channel_webchat");
    expect(body).toBe(fs.readFileSync(path.join(ROOT, "plugins/channel-webchat/dist/ui/remoteEntry.js"), "utf8"));
  });

  it("nothing outside the build folders, and unknown plugins or files are the API's 404", async () => {
    for (const p of [
      "/api/plugins/channel-webchat/remote/../../package.json",
      "/api/plugins/channel-webchat/remote/%2e%2e/%2e%2e/package.json",
      "/api/plugins/channel-webchat/remote/..%2f..%2fsrc%2fservice.ts",
      "/api/plugins/no-such-plugin/remote/remoteEntry.js",
      "/api/plugins/channel-webchat/remote/nope.js",
      "/%2e%2e/package.json",
      "/..%2fpackage.json",
      "/no-such-file.js",
    ]) {
      const r = await fetch(`${t.url}${p}`);
      expect({ p, status: r.status }).toEqual({ p, status: 404 });
      const body = (await r.json()) as { error: string };
      expect(body.error).toBe("ERR_ROUTE_NOT_FOUND");
    }
  });

  it("only GET and HEAD read files", async () => {
    const head = await fetch(`${t.url}/`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const post = await fetch(`${t.url}/index.html`, { method: "POST" });
    expect(post.status).toBe(404);
  });
});
