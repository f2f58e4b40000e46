/**
 * plugin-sdk pack and publish, through the real bin: the archive of a freshly created plugin
 * passes the marketplace's gate (inspectArchive), the core's loader runs its bundle, and
 * publish speaks the marketplace's publish route (checked against a local HTTP server that
 * answers what the core's gateway answers).
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { builtinModules } from "node:module";
import { ServiceBroker } from "moleculer";
import { loadPlugins } from "../../../core/src/plugins/loader";
import { AppError } from "../../../core/src/errors";
import { toHttpError } from "../../../core/src/gateway/errors";
import { inspectArchive, readArchive, sha256Hex } from "../archive";
import { copyDir, editJson, freePort, runCli, tempDir } from "./testing";
import { REPO_NODE_MODULES } from "./workspace";

jest.setTimeout(240_000);

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: { archive?: string; checksum?: string };
}

/** A stand-in registry: records each request, answers `reply` (status and JSON body). */
async function startRegistry() {
  const received: Received[] = [];
  let reply: (r: Received) => { status: number; body: unknown } = () => ({ status: 200, body: {} });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r: Received = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") };
      received.push(r);
      const { status, body } = reply(r);
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answer(fn: typeof reply) {
      reply = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("plugin-sdk pack and publish", () => {
  let tmp: string;
  let plugin: string;
  let archive: string;
  let packed: { id: string; version: string; file: string; size: number; checksum: string; files: number };
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    tmp = tempDir("pack");
    const created = await runCli(["create", "channel-acme", "--kind", "channel", "--dir", tmp]);
    expect(created.code).toBe(0);
    timings.create = created.ms;
    plugin = path.join(tmp, "channel-acme");
    const tested = await runCli(["test", plugin]);
    expect(tested.code).toBe(0);
    timings.test = tested.ms;
    const r = await runCli(["pack", plugin, "--json"]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    timings.pack = r.ms;
    packed = JSON.parse(r.stdout.trim());
    archive = packed.file;
    // eslint-disable-next-line no-console
    console.log(`create → test → pack of the scaffold: ${timings.create} + ${timings.test} + ${timings.pack} = ${timings.create + timings.test + timings.pack} ms`);
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("writes <dir>/dist/<id>-<version>.tgz and its .sha256, and prints them (one JSON line with --json)", () => {
    expect(packed).toEqual({ id: "channel-acme", version: "0.1.0", file: path.join(plugin, "dist/channel-acme-0.1.0.tgz"), size: expect.any(Number), checksum: expect.stringMatching(/^[0-9a-f]{64}$/), files: expect.any(Number) });
    const gz = fs.readFileSync(archive);
    expect(gz.length).toBe(packed.size);
    expect(sha256Hex(gz)).toBe(packed.checksum);
    expect(fs.readFileSync(`${archive}.sha256`, "utf8")).toBe(`${packed.checksum}  channel-acme-0.1.0.tgz\n`);
  });

  it("the archive passes inspectArchive: main rewritten, docs, the server bundle and the UI remote entry", () => {
    const inspected = inspectArchive(fs.readFileSync(archive), { limits: { maxBytes: 20 * 1024 * 1024 }, checksum: fs.readFileSync(`${archive}.sha256`, "utf8") });
    expect(inspected.manifest).toMatchObject({ id: "channel-acme", version: "0.1.0", kind: "channel" });
    expect(inspected.pkg.main).toBe("dist/server/index.js");
    expect(inspected.readme).toContain("# Acme");
    expect(inspected.changelog).toContain("## 0.1.0");
    const paths = inspected.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["package.json", "README.md", "CHANGELOG.md", "dist/server/index.js", "dist/ui/remoteEntry.js"]));
    expect(paths.filter((p) => !/^(package\.json|README\.md|CHANGELOG\.md|dist\/server\/index\.js|dist\/ui\/.+)$/.test(p))).toEqual([]);
    expect(paths).toHaveLength(packed.files);

    // The bundle needs nothing the host does not provide: node's builtins and moleculer.
    const bundle = inspected.files.find((f) => f.path === "dist/server/index.js")!.data.toString("utf8");
    const required = [...new Set([...bundle.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]))];
    expect(required.filter((m) => m !== "moleculer" && !builtinModules.includes(m.replace(/^node:/, "")))).toEqual([]);
    expect(required).toContain("moleculer");
    // The remote is the platform's: its container is named after the plugin, served under /api/plugins/<id>/remote/.
    const remoteEntry = inspected.files.find((f) => f.path === "dist/ui/remoteEntry.js")!.data.toString("utf8");
    expect(remoteEntry).toContain("plugin_channel_acme");
    expect(remoteEntry).toContain("/api/plugins/channel-acme/remote/");
    // Built outside tsx's loader: no esbuild keepNames helper the browser would not know.
    expect(remoteEntry).not.toMatch(/\b__name\(/);
  });

  it("the core's loader runs the unpacked archive: the service starts and answers status", async () => {
    // The host's layout: the plugin folder sits where moleculer resolves from the host's node_modules.
    const host = path.join(tmp, "host");
    const folder = path.join(host, "plugins", "channel-acme");
    for (const f of readArchive(fs.readFileSync(archive), { maxBytes: 20 * 1024 * 1024 })) {
      fs.mkdirSync(path.dirname(path.join(folder, f.path)), { recursive: true });
      fs.writeFileSync(path.join(folder, f.path), f.data);
    }
    fs.symlinkSync(REPO_NODE_MODULES, path.join(host, "node_modules"));
    const broker = new ServiceBroker({ logger: false });
    await broker.start();
    try {
      const loaded: string[] = [];
      const refused: string[] = [];
      await loadPlugins(broker, { dirs: [path.join(host, "plugins")], onLoaded: (p) => loaded.push(`${p.id}@${p.version} ${p.service}`), onRefused: (p) => refused.push(p.reason) });
      expect(refused).toEqual([]);
      expect(loaded).toEqual(["channel-acme@0.1.0 v0.channel-acme"]);
      await expect(broker.call("v0.channel-acme.status", { tenantId: 1, connectionId: 2 })).resolves.toEqual({ status: "disconnected" });
      await expect(broker.call("v0.channel-acme.test", { tenantId: 1, settings: { outboundUrl: "ftp://x", secret: "12345678" } })).resolves.toMatchObject({ ok: false });
    } finally {
      await broker.stop();
    }
  });

  it("packing again (into --out) gives the same bytes: the build is deterministic", async () => {
    const out = path.join(tmp, "out");
    const r = await runCli(["pack", plugin, "--out", out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^server bundle: dist\/server\/index\.js \(/);
    expect(r.stdout).toContain(`  archive  ${path.join(out, "channel-acme-0.1.0.tgz")}`);
    expect(r.stdout).toContain(`  size     ${packed.size} bytes`);
    expect(r.stdout).toContain(`  sha256   ${packed.checksum}`);
    expect(fs.readFileSync(path.join(out, "channel-acme-0.1.0.tgz")).equals(fs.readFileSync(archive))).toBe(true);
  });

  it("refuses to pack an invalid plugin (exit 1, the problems printed, no archive)", async () => {
    const broken = copyDir(plugin, path.join(tmp, "broken", "channel-acme"));
    editJson(path.join(broken, "package.json"), (p) => (p.platform.coreApi = "^9.0.0"));
    const r = await runCli(["pack", broken]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('plugin-sdk pack: the plugin is not valid, nothing packed:\n  - manifest: platform.coreApi "^9.0.0" does not accept this core API version 1.0.0');
    expect(fs.existsSync(path.join(broken, "dist"))).toBe(false);
  });

  describe("publish", () => {
    let registry: Awaited<ReturnType<typeof startRegistry>>;
    beforeAll(async () => {
      registry = await startRegistry();
    });
    afterAll(() => registry.close());
    beforeEach(() => {
      registry.received.length = 0;
    });

    it("posts the archive (base64) and its checksum with the publisher token to <registry>/api/marketplace/publish", async () => {
      const publishedAt = new Date().toISOString();
      registry.answer((r) => ({ status: 200, body: { id: "channel-acme", version: "0.1.0", checksum: r.body.checksum, size: Buffer.from(r.body.archive ?? "", "base64").length, publishedAt } }));
      const r = await runCli(["publish", archive, "--registry", registry.url, "--token", "mkp_secret"]);
      expect([r.code, r.stderr]).toEqual([0, ""]);
      expect(r.stdout).toContain(`published channel-acme@0.1.0 to ${registry.url}/api`);
      expect(r.stdout).toContain(`sha256   ${packed.checksum}`);
      expect(registry.received).toHaveLength(1);
      const req = registry.received[0];
      expect([req.method, req.url, req.headers["x-publisher-token"], req.headers["content-type"]]).toEqual(["POST", "/api/marketplace/publish", "mkp_secret", "application/json"]);
      const bytes = Buffer.from(req.body.archive!, "base64");
      expect(bytes.equals(fs.readFileSync(archive))).toBe(true);
      expect(req.body.checksum).toBe(sha256Hex(fs.readFileSync(archive)));
    });

    it("takes the registry with /api, a plugin folder for its packed archive, the token from PLUGIN_SDK_TOKEN, and --json", async () => {
      registry.answer(() => ({ status: 200, body: { id: "channel-acme", version: "0.1.0", checksum: packed.checksum, size: packed.size, publishedAt: "2030-01-01T00:00:00.000Z" } }));
      const r = await runCli(["publish", "--registry", `${registry.url}/api/`, "--json"], { cwd: plugin, env: { ...process.env, PLUGIN_SDK_TOKEN: "mkp_from_env" } });
      expect([r.code, r.stderr]).toEqual([0, ""]);
      expect(JSON.parse(r.stdout)).toEqual({ id: "channel-acme", version: "0.1.0", checksum: packed.checksum, size: packed.size, publishedAt: "2030-01-01T00:00:00.000Z" });
      expect(registry.received.map((q) => [q.url, q.headers["x-publisher-token"], q.body.checksum])).toEqual([["/api/marketplace/publish", "mkp_from_env", packed.checksum]]);
    });

    it("prints the API's code, title and detail of an error answer and exits 1", async () => {
      // What the core's gateway answers for these errors (its real translation, in English).
      registry.answer(() => {
        const e = toHttpError(new AppError("ERR_MARKETPLACE_VERSION_EXISTS", { id: "channel-acme", version: "0.1.0" }), "en");
        return { status: e.status, body: e.body };
      });
      const r = await runCli(["publish", archive, "--registry", registry.url, "--token", "mkp_secret"]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim()).toBe(
        "plugin-sdk publish: refused (HTTP 409) ERR_MARKETPLACE_VERSION_EXISTS: Version already published — This version of the plugin is already published. Raise the version number and publish again.",
      );

      registry.answer(() => {
        const e = toHttpError(new AppError("ERR_ARCHIVE_MANIFEST_INVALID", { errors: ["dist/ui/remoteEntry.js (the UI remote entry) is missing from the archive"] }), "en");
        return { status: e.status, body: e.body };
      });
      const r2 = await runCli(["publish", archive, "--registry", registry.url, "--token", "mkp_secret"]);
      expect(r2.code).toBe(1);
      expect(r2.stderr).toMatch(/^plugin-sdk publish: refused \(HTTP 400\) ERR_ARCHIVE_MANIFEST_INVALID: Invalid plugin manifest — /);
      expect(r2.stderr).toContain("\n  - dist/ui/remoteEntry.js (the UI remote entry) is missing from the archive\n");
    });

    it("refuses without a token (2), an archive that does not match its .sha256 (1), an unreachable registry (1)", async () => {
      const noToken = await runCli(["publish", archive, "--registry", registry.url], { env: { ...process.env, PLUGIN_SDK_TOKEN: "" } });
      expect([noToken.code, noToken.stderr.trim()]).toEqual([2, "plugin-sdk publish: missing --token (or the PLUGIN_SDK_TOKEN environment variable) (see plugin-sdk publish --help)"]);

      const copy = path.join(tmp, "tampered", path.basename(archive));
      fs.mkdirSync(path.dirname(copy), { recursive: true });
      const gz = fs.readFileSync(archive);
      gz[gz.length - 9] ^= 1;
      fs.writeFileSync(copy, gz);
      fs.copyFileSync(`${archive}.sha256`, `${copy}.sha256`);
      const tampered = await runCli(["publish", copy, "--registry", registry.url, "--token", "t"]);
      expect(tampered.code).toBe(1);
      expect(tampered.stderr).toMatch(/^plugin-sdk publish: channel-acme-0\.1\.0\.tgz does not match channel-acme-0\.1\.0\.tgz\.sha256/);

      const port = await freePort();
      const closed = await runCli(["publish", archive, "--registry", `http://127.0.0.1:${port}`, "--token", "t"]);
      expect([closed.code, closed.stderr.trim()]).toEqual([1, `plugin-sdk publish: cannot reach http://127.0.0.1:${port}/api/marketplace/publish: ECONNREFUSED`]);
      expect(registry.received).toEqual([]);
    });
  });
});
