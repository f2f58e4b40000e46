/**
 * The marketplace service over HTTP on a real core (MariaDB): publishers and their tokens,
 * publishing, the catalogue, and every refused upload leaving nothing behind (no rows, no
 * files, the catalogue as it was).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { randomBytes } from "node:crypto";
import { QueryTypes } from "sequelize";
import { ArchiveFile, packArchive, sha256Hex, writeTar } from "@openatende/plugin-sdk";
import { startCore, createTenant, createSuper, TestCore, TenantFixture, Auth, Res } from "@openatende/core/testkit";
import { makePluginArchive, pluginArchiveFiles, PluginArchiveOptions } from "./fixtures";

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
}

async function rejection(p: Promise<unknown>): Promise<{ type?: string; code?: number; data?: Record<string, unknown> }> {
  try {
    await p;
  } catch (err) {
    return err as { type?: string; code?: number; data?: Record<string, unknown> };
  }
  throw new Error("expected a rejection");
}

/** Every file under a folder, relative, sorted (hidden temp files included). */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

const storageOf = (t: TestCore) => path.join(t.config.dataDir, "marketplace");

function publish(t: TestCore, token: string | null, archive: Buffer, checksum = sha256Hex(archive)): Promise<Res> {
  return t.api.post("/marketplace/publish", { archive: archive.toString("base64"), checksum }, null, token ? { "x-publisher-token": token } : {});
}

async function newPublisher(t: TestCore, sup: Auth, name = `Pub ${randomBytes(3).toString("hex")}`): Promise<{ id: number; token: string }> {
  const r = await t.api.post("/marketplace/publishers", { name, email: `${name.replace(/\W+/g, "-").toLowerCase()}@pub.test` }, sup);
  expect(r.status).toBe(201);
  return { id: r.body.id, token: r.body.token };
}

/** Everything a publish could write: the rows, the stored files, the catalogue as the super sees it. */
async function snapshot(t: TestCore, sup: Auth) {
  const q = (sql: string) => t.core.sequelize.query(sql, { type: QueryTypes.SELECT });
  const catalogue = await t.api.get("/marketplace/plugins", sup);
  expect(catalogue.status).toBe(200);
  return {
    plugins: await q("SELECT * FROM marketplace_plugins ORDER BY id"),
    versions: await q("SELECT * FROM marketplace_versions ORDER BY id"),
    publishers: await q("SELECT id, tokenHash, active FROM marketplace_publishers ORDER BY id"),
    files: filesUnder(storageOf(t)),
    catalogue: catalogue.body,
  };
}

const gz = (tar: Buffer) => zlib.gzipSync(tar);

/** The fixture's files with some changed, packed without the writer's checks (for unsafe entries). */
function rawArchive(opts: PluginArchiveOptions, extra: Parameters<typeof writeTar>[0]): Buffer {
  return gz(writeTar([...pluginArchiveFiles(opts).map((f) => ({ name: f.path, data: f.data })), ...extra]));
}

function withPackage(opts: PluginArchiveOptions, change: (pkg: Record<string, any>) => void): Buffer {
  const files: ArchiveFile[] = pluginArchiveFiles(opts).map((f) => {
    if (f.path !== "package.json") return f;
    const pkg = JSON.parse(f.data.toString("utf8"));
    change(pkg);
    return { ...f, data: Buffer.from(JSON.stringify(pkg)) };
  });
  return packArchive(files);
}

describe("marketplace (mariadb)", () => {
  let t: TestCore;
  let sup: Auth;
  let other: TenantFixture;

  beforeAll(async () => {
    t = await startCore();
    sup = await createSuper(t);
    other = await createTenant(t, { tier: "PREMIUM" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  describe("publishers", () => {
    it("the super creates publishers (token shown once), lists them, and rotates a token: the old one stops working", async () => {
      const created = await t.api.post("/marketplace/publishers", { name: "Acme Plugins", email: "Dev@Acme.test" }, sup);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: expect.any(Number), name: "Acme Plugins", email: "dev@acme.test", active: true, createdAt: expect.any(String), token: expect.stringMatching(/^mkp_[A-Za-z0-9_-]{20,}$/) });
      const { id, token } = created.body;

      // The token is kept as a hash only.
      const [row] = await t.core.sequelize.query<{ tokenHash: string }>("SELECT tokenHash FROM marketplace_publishers WHERE id = ?", { replacements: [id], type: QueryTypes.SELECT });
      expect(row.tokenHash).toBe(require("node:crypto").createHash("sha256").update(token).digest("hex"));

      expectError(await t.api.post("/marketplace/publishers", { name: "Again", email: "dev@acme.test" }, sup), 409, "ERR_MARKETPLACE_PUBLISHER_EXISTS");

      const ok = makePluginArchive({ id: "channel-acme", version: "1.0.0" });
      expect((await publish(t, token, ok.archive)).status).toBe(201);

      const list = await t.api.get("/marketplace/publishers", sup);
      expect(list.status).toBe(200);
      const mine = list.body.find((p: { id: number }) => p.id === id);
      expect(mine).toEqual({ id, name: "Acme Plugins", email: "dev@acme.test", active: true, createdAt: expect.any(String), plugins: 1 });
      expect(JSON.stringify(list.body)).not.toContain("token");

      const rotated = await t.api.post(`/marketplace/publishers/${id}/token`, {}, sup);
      expect(rotated.status).toBe(200);
      expect(rotated.body).toEqual({ id, token: expect.stringMatching(/^mkp_/) });
      expect(rotated.body.token).not.toBe(token);

      const next = makePluginArchive({ id: "channel-acme", version: "1.0.1" });
      const before = await snapshot(t, sup);
      const refused = await publish(t, token, next.archive);
      expectError(refused, 401, "ERR_MARKETPLACE_TOKEN_INVALID");
      expect(await snapshot(t, sup)).toEqual(before);
      expect((await publish(t, rotated.body.token, next.archive)).status).toBe(201);

      expectError(await t.api.post("/marketplace/publishers/999999/token", {}, sup), 404, "ERR_MARKETPLACE_PUBLISHER_NOT_FOUND");
    });

    it("publishing needs a valid publisher token", async () => {
      const a = makePluginArchive({ id: "channel-notoken", version: "1.0.0" });
      const before = await snapshot(t, sup);
      expectError(await publish(t, null, a.archive), 401, "ERR_MARKETPLACE_TOKEN_INVALID");
      expectError(await publish(t, "mkp_not-a-real-token-at-all", a.archive), 401, "ERR_MARKETPLACE_TOKEN_INVALID");
      expectError(await publish(t, "Bearer something", a.archive), 401, "ERR_MARKETPLACE_TOKEN_INVALID");
      // A user's session is not a publisher token.
      expectError(await t.api.post("/marketplace/publish", { archive: a.archive.toString("base64"), checksum: a.checksum }, sup), 401, "ERR_MARKETPLACE_TOKEN_INVALID");
      expect(await snapshot(t, sup)).toEqual(before);
    });

    it("only the super: another tenant's admin gets 403, no session gets 401, and nothing changes", async () => {
      const pub = await newPublisher(t, sup);
      expect((await publish(t, pub.token, makePluginArchive({ id: "channel-private", version: "1.0.0" }).archive)).status).toBe(201);
      const before = await snapshot(t, sup);
      const routes: Array<[string, string, unknown?]> = [
        ["POST", "/marketplace/publishers", { name: "Sneaky", email: "sneaky@t.test" }],
        ["GET", "/marketplace/publishers"],
        ["POST", `/marketplace/publishers/${pub.id}/token`, {}],
        ["GET", "/marketplace/plugins"],
        ["GET", "/marketplace/plugins?search=private"],
        ["GET", "/marketplace/plugins/channel-private"],
      ];
      for (const [method, p, body] of routes) {
        for (const who of [other.admin, other.supervisor, other.agent]) expectError(await t.api.call(method, p, body, who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.call(method, p, body, null), 401, "ERR_SESSION_REQUIRED");
      }
      expect(await snapshot(t, sup)).toEqual(before);
      // The old token still works: nothing was rotated.
      expect((await publish(t, pub.token, makePluginArchive({ id: "channel-private", version: "1.0.1" }).archive)).status).toBe(201);
    });
  });

  describe("publish and the catalogue", () => {
    let pub: { id: number; token: string };
    const published: Record<string, { checksum: string; size: number }> = {};

    beforeAll(async () => {
      pub = await newPublisher(t, sup, "Catalogue Corp");
    });

    it("publishes an archive: the file lands in <storage>/<id>/<version>.tgz, no temp file is left", async () => {
      const a = makePluginArchive({ id: "channel-alpha", version: "1.0.0", displayName: { "pt-BR": "Alfa Zap", en: "Alpha Zap" }, changelog: "## 1.0.0\n- first alpha\n" });
      const r = await publish(t, pub.token, a.archive);
      expect(r.status).toBe(201);
      expect(r.body).toEqual({ id: "channel-alpha", version: "1.0.0", checksum: a.checksum, size: a.archive.length, publishedAt: expect.any(String) });
      const stored = path.join(storageOf(t), "channel-alpha", "1.0.0.tgz");
      expect(fs.readFileSync(stored).equals(a.archive)).toBe(true);
      expect(filesUnder(storageOf(t)).filter((f) => f.includes(".upload-"))).toEqual([]);
      published["1.0.0"] = { checksum: a.checksum, size: a.archive.length };

      // The checksum may be given in capitals.
      const b = makePluginArchive({ id: "channel-alpha", version: "1.2.0", displayName: { "pt-BR": "Alfa Zap", en: "Alpha Zap" }, changelog: "## 1.2.0\n- second alpha\n" });
      expect((await publish(t, pub.token, b.archive, b.checksum.toUpperCase())).status).toBe(201);
      published["1.2.0"] = { checksum: b.checksum, size: b.archive.length };
      // 1.10.0 is newer than 1.2.0 (semver, not text order).
      const c = makePluginArchive({ id: "channel-alpha", version: "1.10.0", tier: "BASIC", displayName: { "pt-BR": "Alfa Zap Dez", en: "Alpha Zap Ten" }, description: "The alpha channel, ten", changelog: "## 1.10.0\n- tenth alpha\n", withUi: true });
      expect((await publish(t, pub.token, c.archive)).status).toBe(201);
      published["1.10.0"] = { checksum: c.checksum, size: c.archive.length };
      // An older version published later does not change the plugin's latest data.
      const d = makePluginArchive({ id: "channel-alpha", version: "1.1.0", tier: "PREMIUM", displayName: { "pt-BR": "Velho" }, description: "old", changelog: "## 1.1.0\n- backport\n" });
      expect((await publish(t, pub.token, d.archive)).status).toBe(201);
      published["1.1.0"] = { checksum: d.checksum, size: d.archive.length };

      const e = makePluginArchive({ id: "channel-beta", version: "0.3.0", tier: "PLUS", displayName: { "pt-BR": "Ponte Bonita", en: "Fancy Bridge" }, description: "Bridges to the Çãô network" });
      expect((await publish(t, pub.token, e.archive)).status).toBe(201);
      expect(filesUnder(path.join(storageOf(t), "channel-alpha"))).toEqual(["1.0.0.tgz", "1.1.0.tgz", "1.10.0.tgz", "1.2.0.tgz"]);
    });

    it("lists the catalogue with publisher, version count, latest data and installed", async () => {
      const r = await t.api.get("/marketplace/plugins", sup);
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(r.body.rows.length);
      const alpha = r.body.rows.find((x: { id: string }) => x.id === "channel-alpha");
      expect(alpha).toEqual({
        id: "channel-alpha",
        kind: "channel",
        tier: "BASIC",
        displayName: { "pt-BR": "Alfa Zap Dez", en: "Alpha Zap Ten" },
        description: "The alpha channel, ten",
        latestVersion: "1.10.0",
        publisher: { id: pub.id, name: "Catalogue Corp" },
        versions: 4,
        updatedAt: expect.any(String),
        installed: null,
      });
      const beta = r.body.rows.find((x: { id: string }) => x.id === "channel-beta");
      expect(beta).toMatchObject({ tier: "PLUS", latestVersion: "0.3.0", versions: 1, description: "Bridges to the Çãô network", installed: null });
    });

    it("searches case-insensitively in id, display name and description, and filters by kind and tier", async () => {
      const ids = async (qs: string) => {
        const r = await t.api.get(`/marketplace/plugins${qs}`, sup);
        expect(r.status).toBe(200);
        expect(r.body.count).toBe(r.body.rows.length);
        return r.body.rows.map((x: { id: string }) => x.id);
      };
      expect(await ids("?search=ALPHA")).toEqual(["channel-alpha"]);
      expect(await ids(`?search=${encodeURIComponent("zap dez")}`)).toEqual(["channel-alpha"]);
      expect(await ids("?search=fancy%20BRIDGE")).toEqual(["channel-beta"]);
      expect(await ids(`?search=${encodeURIComponent("çãô NETWORK")}`)).toEqual(["channel-beta"]);
      expect(await ids("?search=channel-")).toEqual(expect.arrayContaining(["channel-alpha", "channel-beta"]));
      expect(await ids(`?search=${encodeURIComponent("%")}`)).toEqual([]);
      expect(await ids(`?search=${encodeURIComponent("' OR 1=1 --")}`)).toEqual([]);
      expect(await ids("?search=nothing-like-this")).toEqual([]);
      expect(await ids("?tier=PLUS")).toEqual(["channel-beta"]);
      expect(await ids("?tier=BASIC&search=alpha")).toEqual(["channel-alpha"]);
      expect(await ids("?kind=channel&tier=PLUS")).toEqual(["channel-beta"]);
      expect(await ids("?kind=ai")).toEqual([]);
      expect(await ids("?search=&kind=&tier=")).toEqual(expect.arrayContaining(["channel-alpha", "channel-beta"]));
      expectError(await t.api.get("/marketplace/plugins?tier=GOLD", sup), 400, "ERR_VALIDATION");
    });

    it("details a plugin: versions newest first (semver) with their changelog, the latest readme and manifest", async () => {
      const r = await t.api.get("/marketplace/plugins/channel-alpha", sup);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: "channel-alpha", latestVersion: "1.10.0", tier: "BASIC", publisher: { id: pub.id, name: "Catalogue Corp" }, installed: null });
      expect(r.body.readme).toContain("channel-alpha");
      expect(r.body.manifest).toMatchObject({ id: "channel-alpha", version: "1.10.0", tier: "BASIC", ui: { remoteEntry: "remoteEntry.js", exposes: [] } });
      expect(r.body.versions.map((v: { version: string }) => v.version)).toEqual(["1.10.0", "1.2.0", "1.1.0", "1.0.0"]);
      expect(r.body.versions[0]).toEqual({
        version: "1.10.0",
        coreApi: "^1.0.0",
        tier: "BASIC",
        checksum: published["1.10.0"].checksum,
        size: published["1.10.0"].size,
        changelog: "## 1.10.0\n- tenth alpha\n",
        publishedAt: expect.any(String),
        compatible: true,
      });
      expect(r.body.versions.map((v: { changelog: string }) => v.changelog)).toEqual(["## 1.10.0\n- tenth alpha\n", "## 1.2.0\n- second alpha\n", "## 1.1.0\n- backport\n", "## 1.0.0\n- first alpha\n"]);
      expect(r.body.versions[2].tier).toBe("PREMIUM");
      expectError(await t.api.get("/marketplace/plugins/channel-nope", sup), 404, "ERR_MARKETPLACE_PLUGIN_NOT_FOUND");
    });

    it("shows what the plugin host says is installed (plugins.installed: newest version first)", async () => {
      const now = new Date();
      await t.core.sequelize.query("INSERT INTO plugin_installs (pluginId, version, previousVersion, versions, installedBy, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?)", {
        replacements: ["channel-alpha", "1.2.0", "1.0.0", JSON.stringify(["1.0.0", "1.2.0"]), null, now, now],
      });
      try {
        const list = await t.api.get("/marketplace/plugins?search=alpha", sup);
        expect(list.body.rows[0].installed).toEqual({ version: "1.2.0", previousVersion: "1.0.0", versions: ["1.2.0", "1.0.0"] });
        const detail = await t.api.get("/marketplace/plugins/channel-alpha", sup);
        expect(detail.body.installed).toEqual({ version: "1.2.0", previousVersion: "1.0.0", versions: ["1.2.0", "1.0.0"] });
        expect((await t.api.get("/marketplace/plugins/channel-beta", sup)).body.installed).toBeNull();
      } finally {
        await t.core.sequelize.query("DELETE FROM plugin_installs WHERE pluginId = 'channel-alpha'");
      }
    });

    it("marketplace.archive hands a version's archive to the installer", async () => {
      const b = t.core.broker;
      const r = (await b.call("marketplace.archive", { id: "channel-alpha", version: "1.2.0" })) as { id: string; version: string; checksum: string; size: number; archive: string };
      expect(r).toEqual({ id: "channel-alpha", version: "1.2.0", checksum: published["1.2.0"].checksum, size: published["1.2.0"].size, archive: expect.any(String) });
      expect(sha256Hex(Buffer.from(r.archive, "base64"))).toBe(published["1.2.0"].checksum);
      expect(await rejection(b.call("marketplace.archive", { id: "channel-alpha", version: "9.9.9" }))).toMatchObject({ type: "ERR_MARKETPLACE_VERSION_NOT_FOUND", code: 404 });
      expect(await rejection(b.call("marketplace.archive", { id: "channel-nope", version: "1.0.0" }))).toMatchObject({ type: "ERR_MARKETPLACE_PLUGIN_NOT_FOUND", code: 404 });
      // Not routed: the gateway does not expose it.
      expect((await t.api.get("/marketplace/archive?id=channel-alpha&version=1.2.0", sup)).status).toBe(404);
    });
  });

  describe("refused uploads change nothing", () => {
    let pub: { id: number; token: string };
    let rival: { id: number; token: string };

    beforeAll(async () => {
      pub = await newPublisher(t, sup, "Careful Co");
      rival = await newPublisher(t, sup, "Rival Co");
      expect((await publish(t, pub.token, makePluginArchive({ id: "channel-guarded", version: "1.0.0" }).archive)).status).toBe(201);
    });

    async function refused(r: Promise<Res>, status: number, code: string, before: Awaited<ReturnType<typeof snapshot>>): Promise<Res> {
      const res = await r;
      expectError(res, status, code);
      expect(await snapshot(t, sup)).toEqual(before);
      return res;
    }

    it("wrong checksum → ERR_ARCHIVE_CHECKSUM_MISMATCH", async () => {
      const before = await snapshot(t, sup);
      const a = makePluginArchive({ id: "channel-guarded", version: "1.0.1" });
      const res = await refused(publish(t, pub.token, a.archive, sha256Hex(Buffer.from("something else"))), 400, "ERR_ARCHIVE_CHECKSUM_MISMATCH", before);
      expect(res.body.data).toEqual({ expected: sha256Hex(Buffer.from("something else")), actual: a.checksum });
      await refused(publish(t, pub.token, a.archive, "abc"), 400, "ERR_VALIDATION", before);
    });

    it("path traversal, absolute paths, backslashes and links → ERR_ARCHIVE_PATH_UNSAFE", async () => {
      const before = await snapshot(t, sup);
      const opts = { id: "channel-evil", version: "1.0.0" };
      for (const extra of [
        [{ name: "../../evil.js", data: Buffer.from("x") }],
        [{ name: "dist/../../evil.js", data: Buffer.from("x") }],
        [{ name: "/etc/cron.d/evil", data: Buffer.from("x") }],
        [{ name: "dist\\..\\..\\evil.js", data: Buffer.from("x") }],
        [{ name: "dist/link", type: "symlink" as const, linkName: "/etc/passwd" }],
        [{ name: "dist/hard", type: "hardlink" as const, linkName: "package.json" }],
      ]) {
        const a = rawArchive(opts, extra);
        const res = await refused(publish(t, pub.token, a), 400, "ERR_ARCHIVE_PATH_UNSAFE", before);
        expect(res.body.data.path).toBe(extra[0].name);
      }
      expect(fs.existsSync(path.join(storageOf(t), "..", "evil.js"))).toBe(false);
    });

    it("not base64, not gzip, not a tar, a truncated archive → ERR_ARCHIVE_INVALID", async () => {
      const before = await snapshot(t, sup);
      const notB64 = t.api.post("/marketplace/publish", { archive: "@@@ not base64 @@@", checksum: "0".repeat(64) }, null, { "x-publisher-token": pub.token });
      await refused(notB64, 400, "ERR_ARCHIVE_INVALID", before);
      await refused(publish(t, pub.token, Buffer.from("PK\u0003\u0004 a zip, not a tgz")), 400, "ERR_ARCHIVE_INVALID", before);
      await refused(publish(t, pub.token, gz(Buffer.from("plain text, not a tar ".repeat(50)))), 400, "ERR_ARCHIVE_INVALID", before);
      const good = makePluginArchive({ id: "channel-guarded", version: "1.0.2" }).archive;
      await refused(publish(t, pub.token, good.subarray(0, good.length - 40)), 400, "ERR_ARCHIVE_INVALID", before);
      const dup = rawArchive({ id: "channel-guarded", version: "1.0.2" }, [{ name: "./package.json", data: Buffer.from("{}") }]);
      await refused(publish(t, pub.token, dup), 400, "ERR_ARCHIVE_INVALID", before);
    });

    it("an invalid manifest, a wrong main, a missing UI remote, an incompatible core API → ERR_ARCHIVE_MANIFEST_INVALID", async () => {
      const before = await snapshot(t, sup);
      const opts = { id: "channel-badmanifest", version: "1.0.0" };
      const cases: Array<[Buffer, RegExp]> = [
        [withPackage(opts, (p) => (p.platform.tier = "GOLD")), /platform\.tier/],
        [withPackage(opts, (p) => delete p.platform), /platform must be an object/],
        [withPackage(opts, (p) => (p.version = "one")), /version must be a semver/],
        [withPackage(opts, (p) => (p.main = "src/service.ts")), /main must be "dist\/server\/index\.js"/],
        [withPackage(opts, (p) => (p.platform.coreApi = "^7.0.0")), /not compatible with core API/],
        [withPackage(opts, (p) => (p.platform.ui = { exposes: [] })), /dist\/ui\/remoteEntry\.js/],
        [packArchive(pluginArchiveFiles(opts).filter((f) => f.path !== "package.json")), /package\.json missing/],
        [packArchive(pluginArchiveFiles(opts).filter((f) => f.path !== "dist/server/index.js")), /is missing from the archive/],
      ];
      for (const [archive, why] of cases) {
        const res = await refused(publish(t, pub.token, archive), 400, "ERR_ARCHIVE_MANIFEST_INVALID", before);
        expect(res.body.data.errors).toEqual(expect.arrayContaining([expect.stringMatching(why)]));
      }
    });

    it("a version already published → ERR_MARKETPLACE_VERSION_EXISTS (409), even with other bytes", async () => {
      const before = await snapshot(t, sup);
      const same = makePluginArchive({ id: "channel-guarded", version: "1.0.0" });
      await refused(publish(t, pub.token, same.archive), 409, "ERR_MARKETPLACE_VERSION_EXISTS", before);
      const changed = makePluginArchive({ id: "channel-guarded", version: "1.0.0", description: "different bytes" });
      const res = await refused(publish(t, pub.token, changed.archive), 409, "ERR_MARKETPLACE_VERSION_EXISTS", before);
      expect(res.body.data).toEqual({ id: "channel-guarded", version: "1.0.0" });
    });

    it("an id owned by another publisher → ERR_MARKETPLACE_PLUGIN_OWNED (403)", async () => {
      const before = await snapshot(t, sup);
      const res = await refused(publish(t, rival.token, makePluginArchive({ id: "channel-guarded", version: "2.0.0" }).archive), 403, "ERR_MARKETPLACE_PLUGIN_OWNED", before);
      expect(res.body.data).toEqual({ id: "channel-guarded" });
    });

    it("a failure while storing rolls the rows back and removes the temporary file", async () => {
      const a = makePluginArchive({ id: "channel-guarded", version: "1.5.0" });
      // A folder where the file should go: the rename into place fails inside the transaction.
      const blocker = path.join(storageOf(t), "channel-guarded", "1.5.0.tgz");
      fs.mkdirSync(path.join(blocker, "occupied"), { recursive: true });
      fs.writeFileSync(path.join(blocker, "occupied", "x"), "x");
      try {
        const before = await snapshot(t, sup);
        const res = await publish(t, pub.token, a.archive);
        expect(res.status).toBeGreaterThanOrEqual(500);
        expect(await snapshot(t, sup)).toEqual(before);
        expect(filesUnder(storageOf(t)).filter((f) => f.includes(".upload-"))).toEqual([]);
      } finally {
        fs.rmSync(blocker, { recursive: true, force: true });
      }
      // Then it goes through, and the plugin row follows the newer version.
      expect((await publish(t, pub.token, a.archive)).status).toBe(201);
      expect((await t.api.get("/marketplace/plugins/channel-guarded", sup)).body.latestVersion).toBe("1.5.0");
    });
  });
});

describe("marketplace size limit (MARKETPLACE_MAX_ARCHIVE_MB=1)", () => {
  let t: TestCore;
  let sup: Auth;
  let pub: { id: number; token: string };
  const MB = 1024 * 1024;

  beforeAll(async () => {
    t = await startCore({ env: { MARKETPLACE_MAX_ARCHIVE_MB: "1" } });
    sup = await createSuper(t);
    pub = await newPublisher(t, sup, "Big Co");
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** The fixture plugin with an incompressible blob of `bytes`. */
  const withBlob = (version: string, bytes: number) =>
    packArchive([...pluginArchiveFiles({ id: "channel-big", version }), { path: "dist/server/blob.bin", data: randomBytes(bytes) }]);

  it("refuses an archive over the limit with ERR_ARCHIVE_TOO_LARGE (413), changing nothing", async () => {
    expect(t.config.marketplaceMaxArchiveBytes).toBe(MB);
    const big = withBlob("1.0.0", MB + 64 * 1024);
    expect(big.length).toBeGreaterThan(MB);
    const before = await snapshot(t, sup);
    const r = await publish(t, pub.token, big);
    expectError(r, 413, "ERR_ARCHIVE_TOO_LARGE");
    expect(r.body.data.maxBytes).toBe(MB);
    // Refused on size before the token is even looked at.
    expectError(await publish(t, null, big), 413, "ERR_ARCHIVE_TOO_LARGE");
    // A base64 text far over the limit is refused before decoding.
    expectError(
      await t.api.post("/marketplace/publish", { archive: "A".repeat(3 * MB), checksum: "0".repeat(64) }, null, { "x-publisher-token": pub.token }),
      413,
      "ERR_ARCHIVE_TOO_LARGE",
    );
    expect(await snapshot(t, sup)).toEqual(before);
  });

  it("refuses a gzip bomb (small archive, unpacked over 10 × the limit) with ERR_ARCHIVE_TOO_LARGE", async () => {
    const bomb = packArchive([...pluginArchiveFiles({ id: "channel-big", version: "1.0.0" }), { path: "dist/server/zeros.bin", data: Buffer.alloc(12 * MB) }]);
    expect(bomb.length).toBeLessThan(MB);
    const before = await snapshot(t, sup);
    expectError(await publish(t, pub.token, bomb), 413, "ERR_ARCHIVE_TOO_LARGE");
    expect(await snapshot(t, sup)).toEqual(before);
  });

  it("accepts an archive under the limit", async () => {
    const fits = withBlob("1.0.0", MB - 100 * 1024);
    expect(fits.length).toBeLessThan(MB);
    const r = await publish(t, pub.token, fits);
    expect(r.status).toBe(201);
    expect(filesUnder(storageOf(t))).toEqual(["channel-big/1.0.0.tgz"]);
  });
});
