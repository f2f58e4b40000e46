/**
 * A plugin's own data, end to end with the fixture plugin fixtures-plugins/own-data/module-memo
 * (a migrations/ folder, notes written and read through openPluginData):
 * - in the core's process on SQLite: its file DATA_DIR/plugin-data/<id>.sqlite, migrated at load;
 * - in two plugin nodes of their own over NATS on MariaDB: its own database next to the core's,
 *   the migration run once although both nodes started together (one waits for the other's lock),
 *   one node's write read through the other;
 * - installed from the marketplace (packed with the SDK's packer): an upgrade runs only the new
 *   migration, a rollback keeps the tables and the record, a failing migration keeps the old
 *   version running and says which migration failed.
 * Never in the core's database, and every tenant sees only its own notes.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createConnection, Connection } from "mysql2/promise";
import { builtinModules } from "node:module";
import { migrationLockName, readArchive, sha256Hex } from "@openatende/plugin-sdk";
import { runCli } from "@openatende/plugin-sdk/src/cli/testing";
import { Auth, TestCore, createSuper, startCore, uid } from "./helpers";
import { startPluginNode, PluginNode } from "./plugin-node";
import { createPluginsService } from "../src/plugins/plugins.service";
import { pluginDatabaseName, pluginDataPreparer } from "../src/plugins/data";
import { transporterForPluginNodes } from "../src/plugins/external";

jest.setTimeout(240_000);

const OWN_DATA = path.join(__dirname, "fixtures-plugins/own-data");
const NOTES = path.join(OWN_DATA, "module-memo");

type Note = { id: string; text: string; writtenBy: string; label?: string | null };

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const root = () => createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "" });

async function tablesIn(c: Connection, database: string): Promise<string[]> {
  const [rows] = await c.query("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?", [database]);
  return (rows as Array<{ name: string }>).map((r) => r.name).sort();
}

async function migrationsIn(c: Connection, database: string): Promise<Array<{ name: string; ranAt: string }>> {
  const [rows] = await c.query(`SELECT name, ranAt FROM \`${database}\`.\`_migrations\` ORDER BY name`);
  return rows as Array<{ name: string; ranAt: string }>;
}

describe("a plugin's own data in the core's process, on SQLite", () => {
  let t: TestCore;

  beforeAll(async () => {
    t = await startCore({ dialect: "sqlite", env: { SERVICES: "api,core" } });
    t.core.broker.createService(createPluginsService(t.core.deps, { pluginDirs: [OWN_DATA], startTimeoutMs: 10_000 }));
    await t.core.broker.waitForServices(["plugins", { name: "module-memo", version: 1 }], 90_000);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("lives in DATA_DIR/plugin-data/<id>.sqlite, made by its migration at load, never in the core's database", async () => {
    const where = (await t.core.broker.call("v1.module-memo.where")) as { dialect: string; at: string };
    const file = path.join(t.config.dataDir, "plugin-data", "module-memo.sqlite");
    expect(where).toEqual({ dialect: "sqlite", at: file });
    await t.core.broker.call("v1.module-memo.put", { tenantId: 1, id: "n1", text: "only mine" });
    expect(fs.existsSync(file)).toBe(true);

    const [core] = await t.core.sequelize.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('notes', '_migrations', '_schema')");
    expect(core).toEqual([]);
    const { Sequelize } = await import("sequelize");
    const own = new Sequelize({ dialect: "sqlite", storage: file, logging: false });
    try {
      const [tables] = await own.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
      expect((tables as Array<{ name: string }>).map((r) => r.name)).toEqual(["_migrations", "_schema", "notes"]);
      const [rows] = await own.query("SELECT tenantId, id, text FROM notes");
      expect(rows).toEqual([{ tenantId: 1, id: "n1", text: "only mine" }]);
      const [ran] = await own.query("SELECT name FROM _migrations");
      expect(ran).toEqual([{ name: "0001-notes" }]);
    } finally {
      await own.close();
    }
  });

  it("keeps each tenant to its own notes through the plugin's actions", async () => {
    await t.core.broker.call("v1.module-memo.put", { tenantId: 2, id: "n1", text: "tenant two's" });
    const one = (await t.core.broker.call("v1.module-memo.list", { tenantId: 1 })) as { notes: Note[] };
    const two = (await t.core.broker.call("v1.module-memo.list", { tenantId: 2 })) as { notes: Note[] };
    expect(one.notes.map((n) => n.text)).toEqual(["only mine"]);
    expect(two.notes.map((n) => n.text)).toEqual(["tenant two's"]);
    expect(((await t.core.broker.call("v1.module-memo.list", { tenantId: 3 })) as { notes: Note[] }).notes).toEqual([]);
  });

  it("does not run a migration again at the next load", async () => {
    const again = await pluginDataPreparer(t.config)({ id: "module-memo", folder: NOTES });
    expect(again.applied).toEqual([]);
    expect(again.database?.url).toBe(`sqlite:${path.join(t.config.dataDir, "plugin-data", "module-memo.sqlite")}`);
    // A plugin without migrations/ gets no database at all.
    expect(await pluginDataPreparer(t.config)({ id: "module-fixture", folder: path.join(__dirname, "fixtures-plugins/module-fixture") })).toEqual({ applied: [] });
  });
});

describe("a plugin's own data in two plugin nodes of their own, on MariaDB over NATS", () => {
  const namespace = `plugdata-${uid()}`;
  const nodeDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-plugin-data-node-"));
  let t: TestCore;
  let db: Connection;
  let pluginDb: string;
  const nodes: PluginNode[] = [];

  beforeAll(async () => {
    t = await startCore({ env: { NAMESPACE: namespace, TRANSPORTER: "nats://127.0.0.1:4222", LOG_LEVEL: "error" } });
    pluginDb = pluginDatabaseName(t.config.database.database!, "module-memo");
    db = await root();
  });
  afterAll(async () => {
    for (const n of nodes) await n.kill("SIGTERM");
    await db?.end();
    await t?.stop();
    fs.rmSync(nodeDataDir, { recursive: true, force: true });
  });

  it("runs the migration once although two nodes start together: one waits for the other's lock", async () => {
    expect(pluginDb).toBe(`${t.config.database.database}__module_memo`);
    // The test holds the plugin database's migration lock: both nodes must queue behind it.
    const holder = await root();
    try {
      const [got] = await holder.query("SELECT GET_LOCK(?, 60) AS l", [migrationLockName(pluginDb)]);
      expect(Number((got as Array<{ l: number }>)[0].l)).toBe(1);
      const env = {
        TRANSPORTER: transporterForPluginNodes(t.config, t.core.broker),
        NAMESPACE: namespace,
        DATABASE_URL: t.config.database.url,
        DATA_DIR: nodeDataDir,
        REDIS_URL: t.config.redisUrl,
        PUBLIC_URL: t.config.publicUrl,
        JWT_SECRET: t.config.jwtSecret,
        LOG_LEVEL: "info",
      };
      nodes.push(startPluginNode(["module-memo", "--dir", OWN_DATA], env), startPluginNode(["module-memo", "--dir", OWN_DATA], env));
      await until("both nodes waiting for the migration lock", async () => {
        const [rows] = await db.query("SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND INFO LIKE '%GET_LOCK%'", [pluginDb]);
        return Number((rows as Array<{ n: number }>)[0].n) === 2;
      });
      expect(await tablesIn(db, pluginDb)).not.toContain("notes");
      await holder.query("SELECT RELEASE_LOCK(?)", [migrationLockName(pluginDb)]);
    } finally {
      await holder.end();
    }
    const ids = await Promise.all(nodes.map((n) => n.ready));
    expect(new Set(ids).size).toBe(2);
    expect((await migrationsIn(db, pluginDb)).map((m) => m.name)).toEqual(["0001-notes"]);
    const applied = nodes.map((n) => n.output.join("").includes("module-memo: migration 0001-notes applied"));
    expect(applied.filter(Boolean)).toHaveLength(1);
  });

  it("keeps the data in the plugin's own database, shared by both nodes, never in the core's", async () => {
    const [a, b] = await Promise.all(nodes.map((n) => n.ready));
    await until("both nodes' services on the core's broker", async () => {
      const list = t.core.broker.registry.getServiceList({ onlyAvailable: true }) as Array<{ name: string; nodeID: string }>;
      return list.filter((s) => s.name === "module-memo").length === 2;
    });
    const put = (await t.core.broker.call("v1.module-memo.put", { tenantId: 1, id: "n1", text: "written on a" }, { nodeID: a })) as { node: string };
    expect(put.node).toBe(a);
    const read = (await t.core.broker.call("v1.module-memo.list", { tenantId: 1 }, { nodeID: b })) as { node: string; notes: Note[] };
    expect(read.node).toBe(b);
    expect(read.notes).toEqual([{ id: "n1", text: "written on a", writtenBy: a }]);
    expect(((await t.core.broker.call("v1.module-memo.list", { tenantId: 2 }, { nodeID: a })) as { notes: Note[] }).notes).toEqual([]);
    expect(await t.core.broker.call("v1.module-memo.where", {}, { nodeID: b })).toEqual({ dialect: "mysql", at: pluginDb });

    expect(await tablesIn(db, pluginDb)).toEqual(["_migrations", "_schema", "notes"]);
    const coreTables = await tablesIn(db, t.config.database.database!);
    expect(coreTables).toContain("tickets");
    expect(coreTables.filter((n) => ["notes", "_migrations", "_schema"].includes(n))).toEqual([]);
    const [rows] = await db.query(`SELECT tenantId, id FROM \`${pluginDb}\`.notes`);
    expect(rows).toEqual([{ tenantId: 1, id: "n1" }]);
  });
});

describe("a plugin's own data across marketplace installs, upgrades and rollbacks (MariaDB)", () => {
  const id = `module-memo-${uid().toLowerCase().replace(/[^a-z0-9]/g, "").slice(0, 8)}`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "oa-plugin-data-pack-"));
  let t: TestCore;
  let sup: Auth;
  let token: string;
  let db: Connection;
  let pluginDb: string;
  const service = `v1.${id}`;
  const archives: Record<string, Buffer> = {};

  /** The fixture as version `version` of plugin `id`, with `extra` migration files, packed with the SDK's CLI. */
  async function packVersion(version: string, extra: Record<string, string>): Promise<Buffer> {
    const dir = path.join(work, version);
    fs.cpSync(NOTES, dir, { recursive: true });
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    pkg.name = `@fixture/${id}`;
    pkg.version = version;
    pkg.platform.id = id;
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2));
    for (const [name, text] of Object.entries(extra)) fs.writeFileSync(path.join(dir, "migrations", name), text);
    const run = await runCli(["pack", dir, "--out", path.join(work, "out"), "--json"]);
    if (run.code !== 0) throw new Error(`pack ${version} failed:\n${run.stdout}\n${run.stderr}`);
    return fs.readFileSync(JSON.parse(run.stdout.trim().split("\n").pop()!).file);
  }
  const migration = (name: string, body: string) => `import type { PluginMigration } from "@openatende/plugin-sdk";
export const migration: PluginMigration = { name: ${JSON.stringify(name)}, async up(schema) { ${body} } };
`;
  const publish = async (archive: Buffer) => {
    const r = await t.api.post("/marketplace/publish", { archive: archive.toString("base64"), checksum: sha256Hex(archive) }, null, { "x-publisher-token": token });
    expect(r.status).toBe(201);
  };
  const notesOf = async (tenantId: number) => ((await t.core.broker.call(`${service}.list`, { tenantId })) as { notes: Note[] }).notes;

  beforeAll(async () => {
    t = await startCore({ env: { PLUGIN_INSTALLS: "true" } });
    pluginDb = pluginDatabaseName(t.config.database.database!, id);
    db = await root();
    sup = await createSuper(t);
    const pub = await t.api.post("/marketplace/publishers", { name: "Notes", email: `notes-${uid()}@pub.test` }, sup);
    token = pub.body.token;
    const [v1, v11, v12] = await Promise.all([
      packVersion("1.0.0", {}),
      packVersion("1.1.0", { "0002-labels.ts": migration("0002-labels", `await schema.addColumn("notes", "label", { type: "string", length: 40, nullable: true });`) }),
      packVersion("1.2.0", {
        "0002-labels.ts": migration("0002-labels", `await schema.addColumn("notes", "label", { type: "string", length: 40, nullable: true });`),
        "0003-broken.ts": migration("0003-broken", `await schema.createTable("half", { columns: { id: { type: "integer" } }, primaryKey: ["id"] }); throw new Error("0003 is broken");`),
      }),
    ]);
    Object.assign(archives, { "1.0.0": v1, "1.1.0": v11, "1.2.0": v12 });
    for (const a of [v1, v11, v12]) await publish(a);
  });
  afterAll(async () => {
    await t?.stop();
    await db?.end();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("packs the migrations into the archive as plain JS files next to the server bundle", async () => {
    const files = readArchive(archives["1.1.0"], { maxBytes: 20 * 1024 * 1024 });
    const paths = files.map((f) => f.path).sort();
    expect(paths.filter((p) => p.startsWith("migrations/"))).toEqual(["migrations/0001-notes.js", "migrations/0002-labels.js"]);
    expect(paths).toContain("dist/server/index.js");
    // Bundled: nothing but what the host provides is required at run time.
    const bundle = files.find((f) => f.path === "dist/server/index.js")!.data.toString("utf8");
    const required = [...new Set([...bundle.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]))].filter((m) => !m.startsWith("node:") && !builtinModules.includes(m));
    expect(required.sort()).toEqual(["moleculer", "sequelize"]);
  });

  it("installs: the host makes the plugin's database, the node runs the migration before the service starts", async () => {
    const r = await t.api.post("/plugins/installed", { id, version: "1.0.0" }, sup);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ version: "1.0.0", running: true });
    expect((await migrationsIn(db, pluginDb)).map((m) => m.name)).toEqual(["0001-notes"]);
    await t.core.broker.call(`${service}.put`, { tenantId: 5, id: "kept", text: "from 1.0.0" });
    expect(await notesOf(5)).toEqual([expect.objectContaining({ id: "kept", text: "from 1.0.0" })]);
    expect(await t.core.broker.call(`${service}.where`)).toEqual({ dialect: "mysql", at: pluginDb });
    expect(await tablesIn(db, t.config.database.database!)).not.toContain("notes");
  });

  it("upgrades: only the new migration runs, the rows written before are still there", async () => {
    const before = await migrationsIn(db, pluginDb);
    const r = await t.api.post("/plugins/installed", { id, version: "1.1.0" }, sup);
    expect(r.status).toBe(200);
    const after = await migrationsIn(db, pluginDb);
    expect(after.map((m) => m.name)).toEqual(["0001-notes", "0002-labels"]);
    expect(after[0].ranAt).toBe(before[0].ranAt);
    expect(await notesOf(5)).toEqual([{ id: "kept", text: "from 1.0.0", writtenBy: expect.any(String), label: null }]);
  });

  it("rolls back: the old version runs on the same tables, the newer migration stays recorded", async () => {
    const r = await t.api.post(`/plugins/installed/${id}/rollback`, {}, sup);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ version: "1.0.0", running: true });
    expect((await migrationsIn(db, pluginDb)).map((m) => m.name)).toEqual(["0001-notes", "0002-labels"]);
    const [cols] = await db.query("SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'notes' ORDER BY ORDINAL_POSITION", [pluginDb]);
    expect((cols as Array<{ c: string }>).map((x) => x.c)).toEqual(["tenantId", "id", "text", "writtenBy", "label"]);
    await t.core.broker.call(`${service}.put`, { tenantId: 5, id: "after-rollback", text: "from 1.0.0 again" });
    expect((await notesOf(5)).map((n) => n.id)).toEqual(["after-rollback", "kept"]);
  });

  it("refuses a version whose migration fails: the running one stays, the failed migration is named and left undone", async () => {
    const r = await t.api.post("/plugins/installed", { id, version: "1.2.0" }, sup);
    expect(r.status).toBe(422);
    expect(r.body.error).toBe("ERR_PLUGIN_INSTALL_FAILED");
    expect(JSON.stringify(r.body.data)).toContain("migration 0003-broken");
    await until("the old version back", async () => (await t.api.get("/plugins/installed", sup)).body.find((p: { id: string; running: boolean }) => p.id === id && p.running));
    expect((await t.api.get("/plugins/installed", sup)).body.find((p: { id: string }) => p.id === id)).toMatchObject({ version: "1.0.0", running: true });
    expect((await migrationsIn(db, pluginDb)).map((m) => m.name)).toEqual(["0001-notes", "0002-labels"]);
    expect(await tablesIn(db, pluginDb)).toEqual(["_migrations", "_schema", "notes"]);
    await until("the service answering again", async () => (await notesOf(5).catch(() => null))?.length === 2);
  });
});
