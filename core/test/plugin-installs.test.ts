/**
 * Plugins installed from the marketplace (core/src/plugins/installs.ts): the super installs a
 * published version, which is unpacked under DATA_DIR/plugins/<id>/<version>/ and runs in a
 * plugin node of its own; upgrade, rollback, a version that does not start (the old one keeps
 * running), uninstall refused while connections use it, the installed plugins started again
 * with the core, and the refusals (installs off, bundled id, not a super).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { packArchive, readArchive, sha256Hex } from "@openatende/plugin-sdk";
import { Auth, TestCore, TenantFixture, createSuper, createTenant, dropDatabase, startCore, uid } from "./helpers";
import { makePluginArchive } from "../../marketplace/test/fixtures";

jest.setTimeout(240_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(150);
  }
}

describe("plugins installed from the marketplace", () => {
  let t: TestCore;
  let sup: Auth;
  let a: TenantFixture;
  let b: TenantFixture;
  let token: string;
  const id = `channel-inst-${uid().toLowerCase().replace(/[^a-z0-9]/g, "").slice(0, 8)}`;

  const publish = async (archive: Buffer, checksum = sha256Hex(archive)) => {
    const r = await t.api.post("/marketplace/publish", { archive: archive.toString("base64"), checksum }, null, { "x-publisher-token": token });
    expect(r.status).toBe(201);
    return r.body;
  };
  const pluginNodeIds = () =>
    (t.core.broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }) as Array<{ name: string; nodeID: string }>).filter((s) => s.name === id).map((s) => s.nodeID);

  beforeAll(async () => {
    t = await startCore({ env: { PLUGIN_INSTALLS: "true" } });
    sup = await createSuper(t);
    a = await createTenant(t, { tier: "PREMIUM" });
    b = await createTenant(t, { tier: "PREMIUM" });
    const pub = await t.api.post("/marketplace/publishers", { name: "Acme", email: `acme-${uid()}@pub.test` }, sup);
    expect(pub.status).toBe(201);
    token = pub.body.token;
    await publish(makePluginArchive({ id, version: "1.0.0", withUi: true, changelog: "first" }).archive);
    await publish(makePluginArchive({ id, version: "1.1.0", withUi: true, changelog: "second" }).archive);
    await publish(makePluginArchive({ id, version: "2.0.0", withUi: true, changelog: "third" }).archive);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("is the super's: a tenant admin is refused", async () => {
    expect((await t.api.post("/plugins/installed", { id, version: "1.0.0" }, a.admin)).status).toBe(403);
    expect((await t.api.get("/plugins/installed", a.admin)).status).toBe(403);
  });

  it("installs a version: unpacked under DATA_DIR/plugins/<id>/<version>, running in a plugin node of its own", async () => {
    const r = await t.api.post("/plugins/installed", { id, version: "1.0.0" }, sup);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id, version: "1.0.0", previousVersion: null, versions: ["1.0.0"], kind: "channel", running: true, connections: 0 });
    const folder = path.join(t.config.dataDir, "plugins", id, "1.0.0");
    expect(fs.existsSync(path.join(folder, "package.json"))).toBe(true);
    expect(fs.existsSync(path.join(folder, "dist/server/index.js"))).toBe(true);
    // Not in the core's process: the service lives on another node.
    const nodes = pluginNodeIds();
    expect(nodes.length).toBe(1);
    expect(nodes[0]).not.toBe(t.core.broker.nodeID);
    expect(t.core.broker.getLocalService({ name: id, version: 1 })).toBeFalsy();
    const again = await t.api.post("/plugins/installed", { id, version: "1.0.0" }, sup);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("ERR_PLUGIN_ALREADY_INSTALLED");
    const list = await t.api.get("/plugins/installed", sup);
    expect(list.body.map((p: { id: string }) => p.id)).toContain(id);
  });

  it("is for no tenant until the super allows it; then only that tenant sees it, its UI served from the install folder", async () => {
    const enabledOf = async (f: TenantFixture) => ((await t.api.get("/plugins/enabled", f.admin)).body as Array<{ id: string; ui: { remoteEntry: string } | null }>).find((p) => p.id === id);
    expect(await enabledOf(a)).toBeUndefined();
    const allow = await t.api.put(`/plugins/${id}/tenants/${a.tenantId}`, { allowed: true }, sup);
    expect(allow.status).toBe(200);
    const mine = await enabledOf(a);
    expect(mine?.ui?.remoteEntry).toBe(`/api/plugins/${id}/remote/remoteEntry.js?v=1.0.0`);
    expect(await enabledOf(b)).toBeUndefined();
    const remote = await fetch(`${t.url}${mine!.ui!.remoteEntry}`);
    expect(remote.status).toBe(200);
    expect(await remote.text()).toBe(fs.readFileSync(path.join(t.config.dataDir, "plugins", id, "1.0.0", "dist/ui/remoteEntry.js"), "utf8"));
  });

  it("upgrades: the new version runs in a new node, the connection made before keeps working", async () => {
    const conn = await t.api.post("/connections", { name: `Inst ${uid()}`, type: id, settings: {} }, a.admin);
    expect(conn.status).toBe(201);
    const before = pluginNodeIds();
    const r = await t.api.post("/plugins/installed", { id, version: "1.1.0" }, sup);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ version: "1.1.0", previousVersion: "1.0.0", versions: ["1.1.0", "1.0.0"], running: true, connections: 1 });
    const after = pluginNodeIds();
    expect(after.length).toBe(1);
    expect(after[0]).not.toBe(before[0]);
    const connected = await t.api.post(`/connections/${conn.body.id}/connect`, {}, a.admin);
    expect(connected.status).toBe(200);
    const enabled = (await t.api.get("/plugins/enabled", a.admin)).body.find((p: { id: string }) => p.id === id);
    expect(enabled.version).toBe("1.1.0");
    expect(enabled.ui.remoteEntry).toContain("?v=1.1.0");
  });

  it("rolls back to the version it replaced", async () => {
    const r = await t.api.post(`/plugins/installed/${id}/rollback`, {}, sup);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ version: "1.0.0", previousVersion: "1.1.0", running: true });
    expect((await t.api.get("/plugins/enabled", a.admin)).body.find((p: { id: string }) => p.id === id).version).toBe("1.0.0");
  });

  it("keeps the running version when the new one does not start, and says why", async () => {
    const files = readArchive(makePluginArchive({ id, version: "1.2.0" }).archive, { maxBytes: 10 * 1024 * 1024 });
    const broken = files.map((f) => (f.path === "dist/server/index.js" ? { ...f, data: Buffer.from('throw new Error("boom at load");\n') } : f));
    await publish(packArchive(broken));
    const r = await t.api.post("/plugins/installed", { id, version: "1.2.0" }, sup);
    expect(r.status).toBe(422);
    expect(r.body.error).toBe("ERR_PLUGIN_INSTALL_FAILED");
    expect(JSON.stringify(r.body.data)).toContain("boom at load");
    await until("the old version back", async () => pluginNodeIds().length === 1);
    const list = (await t.api.get("/plugins/installed", sup)).body.find((p: { id: string }) => p.id === id);
    expect(list).toMatchObject({ version: "1.0.0", previousVersion: "1.1.0", running: true });
  });

  it("refuses to uninstall while connections use it, then uninstalls: node, files and tenants' settings gone", async () => {
    const r = await t.api.del(`/plugins/installed/${id}`, sup);
    expect(r.status).toBe(409);
    expect(r.body.error).toBe("ERR_PLUGIN_IN_USE");
    expect(r.body.data.connections).toBe(1);
    expect(pluginNodeIds().length).toBe(1);
    const conns = (await t.api.get("/connections", a.admin)).body as Array<{ id: number; type: string; name: string }>;
    const conn = conns.find((c) => c.type === id)!;
    expect((await t.api.call("DELETE", `/connections/${conn.id}`, { confirmation: conn.name }, a.admin)).status).toBe(200);
    const ok = await t.api.del(`/plugins/installed/${id}`, sup);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ id, uninstalled: true });
    await until("the node gone", async () => pluginNodeIds().length === 0);
    expect(fs.existsSync(path.join(t.config.dataDir, "plugins", id))).toBe(false);
    expect((await t.api.get("/plugins/installed", sup)).body.find((p: { id: string }) => p.id === id)).toBeUndefined();
    expect((await t.api.get("/plugins/enabled", a.admin)).body.find((p: { id: string }) => p.id === id)).toBeUndefined();
    const [rows] = await t.core.sequelize.query("SELECT COUNT(*) AS n FROM tenant_plugins WHERE pluginId = ?", { replacements: [id] });
    expect(Number((rows as Array<{ n: number }>)[0].n)).toBe(0);
    expect((await t.api.del(`/plugins/installed/${id}`, sup)).body.error).toBe("ERR_PLUGIN_NOT_INSTALLED");
  });

  it("refuses an id shipped with the platform, a version not in the catalogue, and bad params", async () => {
    await publish(makePluginArchive({ id: "channel-webchat", version: "9.0.0" }).archive);
    const bundled = await t.api.post("/plugins/installed", { id: "channel-webchat", version: "9.0.0" }, sup);
    expect(bundled.status).toBe(409);
    expect(bundled.body.error).toBe("ERR_PLUGIN_BUNDLED");
    const missing = await t.api.post("/plugins/installed", { id, version: "7.7.7" }, sup);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("ERR_MARKETPLACE_VERSION_NOT_FOUND");
    const bad = await t.api.post("/plugins/installed", { id, version: "../../etc" }, sup);
    expect(bad.status).toBe(400);
    expect((await t.api.post(`/plugins/installed/${id}/rollback`, {}, sup)).body.error).toBe("ERR_PLUGIN_NOT_INSTALLED");
  });

  it("upgrades across majors: connections pinned to the old major follow the one that runs", async () => {
    expect((await t.api.post("/plugins/installed", { id, version: "1.1.0" }, sup)).status).toBe(200);
    // Uninstalling forgot the tenants' settings: the super allows it again.
    expect((await t.api.put(`/plugins/${id}/tenants/${a.tenantId}`, { allowed: true }, sup)).status).toBe(200);
    const conn = await t.api.post("/connections", { name: `Major ${uid()}`, type: id, settings: {} }, a.admin);
    expect(conn.body.pluginMajor).toBe(1);
    const r = await t.api.post("/plugins/installed", { id, version: "2.0.0" }, sup);
    expect(r.status).toBe(200);
    expect((await t.api.get(`/connections/${conn.body.id}`, a.admin)).body.pluginMajor).toBe(2);
    expect((await t.api.post(`/connections/${conn.body.id}/connect`, {}, a.admin)).status).toBe(200);
  });
});

describe("installed plugins across a restart of the core", () => {
  it("starts the installed version again with the core", async () => {
    const first = await startCore({ env: { PLUGIN_INSTALLS: "true" } });
    const env = { PLUGIN_INSTALLS: "true", DATA_DIR: first.config.dataDir, DATABASE_URL: first.config.database.url };
    const id = `channel-again-${uid().toLowerCase().replace(/[^a-z0-9]/g, "").slice(0, 8)}`;
    let second: TestCore | undefined;
    try {
      const sup = await createSuper(first);
      const pub = await first.api.post("/marketplace/publishers", { name: "Again", email: `again-${uid()}@pub.test` }, sup);
      const { archive } = makePluginArchive({ id, version: "1.0.0" });
      expect((await first.api.post("/marketplace/publish", { archive: archive.toString("base64"), checksum: sha256Hex(archive) }, null, { "x-publisher-token": pub.body.token })).status).toBe(201);
      expect((await first.api.post("/plugins/installed", { id, version: "1.0.0" }, sup)).status).toBe(200);
      await first.core.stop();
      second = await startCore({ env });
      const b = second.core.broker;
      await until("the installed plugin's service", async () => b.registry.hasService(`v1.${id}`, undefined as unknown as string), 60_000);
      const sup2 = await second.api.login(sup.email);
      const list = (await second.api.get("/plugins/installed", { ...sup, ...sup2 })).body;
      expect(list.find((p: { id: string }) => p.id === id)).toMatchObject({ version: "1.0.0", running: true });
    } finally {
      // The second core ran on the first one's database and folder: both go at the end.
      if (second) await second.core.stop();
      else await first.core.stop();
      if (first.config.database.dialect === "mysql") await dropDatabase(first.config.database.database!);
      fs.rmSync(first.config.dataDir, { recursive: true, force: true });
    }
  });

  it("answers ERR_PLUGIN_INSTALLS_DISABLED where installs are off", async () => {
    const t = await startCore();
    try {
      const sup = await createSuper(t);
      const r = await t.api.post("/plugins/installed", { id: "channel-x", version: "1.0.0" }, sup);
      expect(r.status).toBe(409);
      expect(r.body.error).toBe("ERR_PLUGIN_INSTALLS_DISABLED");
      expect((await t.api.get("/plugins/installed", sup)).body).toEqual([]);
    } finally {
      await t.stop();
    }
  });
});
