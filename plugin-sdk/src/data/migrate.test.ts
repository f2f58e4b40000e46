/**
 * Migrations on a real SQLite file and a real MariaDB database: in name order, each once and
 * recorded; a failing one leaves nothing of itself behind (SQLite: its transaction; MySQL: the
 * builder's undo) and is reported by name; two "nodes" running the same list at once apply
 * each migration once; a run waits for another node's lock. Plus migration files in a folder.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PluginMigration } from "./contract";
import { SqlPluginData } from "./database";
import { PluginMigrationError } from "./errors";
import { loadPluginMigrations, pluginMigrationFiles } from "./folder";
import { appliedPluginMigrations, migrationLockName, runPluginMigrations } from "./migrate";
import { testPluginDatabase, TestPluginDatabase } from "./testing";
import { openPluginDataAt } from "./open";

const table = (name: string): PluginMigration => ({
  name,
  up: (s) => s.createTable(`t_${name.replace(/-/g, "_")}`, { columns: { id: { type: "integer" } }, primaryKey: ["id"] }),
});

async function tablesOf(data: SqlPluginData): Promise<string[]> {
  const rows =
    data.dialect === "sqlite"
      ? await data.select<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      : await data.select<{ name: string }>("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = $1", [data.address.database!]);
  return rows.map((r) => r.name).sort();
}

describe.each(["sqlite", "mysql"] as const)("plugin migrations on %s", (dialect) => {
  let db: TestPluginDatabase;
  let data: SqlPluginData;

  beforeEach(async () => {
    db = await testPluginDatabase(dialect);
    data = await SqlPluginData.open(db.address);
  });
  afterEach(async () => {
    await data?.close();
    await db?.drop();
  });

  it("runs pending migrations in name order, each once, and records them", async () => {
    const order: string[] = [];
    const spy = (m: PluginMigration): PluginMigration => ({ name: m.name, up: async (s) => (order.push(m.name), m.up(s)) });
    const first = await runPluginMigrations(data, [spy(table("0002-b")), spy(table("0001-a"))]);
    expect(first.applied).toEqual(["0001-a", "0002-b"]);
    expect(order).toEqual(["0001-a", "0002-b"]);
    const again = await runPluginMigrations(data, [spy(table("0001-a")), spy(table("0002-b")), spy(table("0003-c"))]);
    expect(again.applied).toEqual(["0003-c"]);
    expect(order).toEqual(["0001-a", "0002-b", "0003-c"]);
    const recorded = await appliedPluginMigrations(data);
    expect(recorded.map((r) => r.name)).toEqual(["0001-a", "0002-b", "0003-c"]);
    for (const r of recorded) expect(Number.isNaN(Date.parse(r.ranAt))).toBe(false);
    expect((await runPluginMigrations(db.address, [table("0001-a"), table("0002-b"), table("0003-c")])).applied).toEqual([]);
    // The address as its URL alone does as well.
    expect((await runPluginMigrations(db.address.url, [table("0004-d")])).applied).toEqual(["0004-d"]);
    const byUrl = await openPluginDataAt(db.address.url);
    expect(byUrl.dialect).toBe(dialect);
    await byUrl.close();
    expect(await tablesOf(data)).toEqual(["_migrations", "_schema", "t_0001_a", "t_0002_b", "t_0003_c", "t_0004_d"]);
  });

  it("leaves nothing of a failing migration behind, reports it by name, and runs it again next time", async () => {
    await runPluginMigrations(data, [
      {
        name: "0001-base",
        async up(s) {
          await s.createTable("base", { columns: { id: { type: "integer" }, name: { type: "string" } }, primaryKey: ["id"] });
          await s.createTable("old", { columns: { id: { type: "integer" } }, primaryKey: ["id"] });
        },
      },
    ]);
    await data.forTenant(1).table("base").insert({ id: 1, name: "kept" });
    await data.forTenant(1).table("old").insert({ id: 7 });
    let broken = true;
    const second: PluginMigration = {
      name: "0002-more",
      async up(s) {
        await s.createTable("extra", { columns: { id: { type: "integer" } }, primaryKey: ["id"] });
        await s.addColumn("base", "note", { type: "string", nullable: true });
        await s.addIndex("base", { columns: ["name"] });
        await s.dropTable("old");
        if (broken) throw new Error("the author's bug");
      },
    };
    const third = table("0003-after");
    const err = await runPluginMigrations(data, [second, third]).catch((e) => e);
    expect(err).toBeInstanceOf(PluginMigrationError);
    expect(err.migration).toBe("0002-more");
    expect(err.message).toMatch(/migration 0002-more: failed.*the author's bug/);
    // Nothing of 0002 is left, 0003 did not run, 0001's tables and rows are as they were.
    expect(await tablesOf(data)).toEqual(["_migrations", "_schema", "base", "old"]);
    expect((await appliedPluginMigrations(data)).map((r) => r.name)).toEqual(["0001-base"]);
    expect(await data.forTenant(1).table("base").find()).toEqual([{ id: 1, name: "kept" }]);
    expect(await data.forTenant(1).table("old").find()).toEqual([{ id: 7 }]);
    await expect(data.forTenant(1).table("extra").count()).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_UNKNOWN_TABLE" });

    broken = false;
    expect((await runPluginMigrations(data, [second, third])).applied).toEqual(["0002-more", "0003-after"]);
    expect(await data.forTenant(1).table("base").find()).toEqual([{ id: 1, name: "kept", note: null }]);
    expect(await tablesOf(data)).toEqual(["_migrations", "_schema", "base", "extra", "t_0003_after"]);
  });

  it("applies each migration once when two nodes run the same list at the same time", async () => {
    const other = await SqlPluginData.open(db.address);
    try {
      const list = Array.from({ length: 6 }, (_, i) => table(`000${i + 1}-m`));
      const [a, b] = await Promise.all([runPluginMigrations(data, list), runPluginMigrations(other, list)]);
      expect([...a.applied, ...b.applied].sort()).toEqual(list.map((m) => m.name));
      expect((await appliedPluginMigrations(data)).length).toBe(6);
    } finally {
      await other.close();
    }
  });

  it("refuses a list with a nameless, duplicate or up-less migration before running any", async () => {
    await expect(runPluginMigrations(data, [table("0001"), table("0001")])).rejects.toThrow(/0001: is named twice/);
    await expect(runPluginMigrations(data, [{ name: "", up: async () => undefined }])).rejects.toThrow(/needs a name/);
    await expect(runPluginMigrations(data, [{ name: "0001" } as PluginMigration])).rejects.toThrow(/needs an up/);
    expect(await appliedPluginMigrations(data)).toEqual([]);
  });

  if (dialect === "mysql") {
    it("waits for the lock another node holds, and says so when it waits too long", async () => {
      const holder = await data.sequelize.transaction();
      try {
        const [got] = await data.select<{ l: number }>("SELECT GET_LOCK($1, 5) AS l", [migrationLockName(data.address.database!)], holder);
        expect(Number(got.l)).toBe(1);
        await expect(runPluginMigrations(db.address, [table("0001")], { lockTimeoutMs: 1000 })).rejects.toThrow(/another node has been running this plugin's migrations/);
        const waiting = runPluginMigrations(db.address, [table("0001")], { lockTimeoutMs: 30_000 });
        await data.select("SELECT RELEASE_LOCK($1)", [migrationLockName(data.address.database!)], holder);
        expect((await waiting).applied).toEqual(["0001"]);
      } finally {
        await holder.commit();
      }
    });
  }
});

describe("migration files in a plugin's migrations/ folder", () => {
  const dirs: string[] = [];
  const plugin = (files: Record<string, string>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-plugin-migrations-"));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, "migrations"));
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, "migrations", name), text);
    return dir;
  };
  const js = (name: string) => `exports.migration = { name: ${JSON.stringify(name)}, async up(s) { await s.createTable(${JSON.stringify(`t${name.slice(0, 4)}`)}, { columns: { id: { type: "integer" } }, primaryKey: ["id"] }); } };\n`;
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it("loads them in file-name order, leaving out what is not a migration", async () => {
    const dir = plugin({ "0002-b.js": js("0002-b"), "0001-a.js": js("0001-a"), "README.md": "# notes", "0003.test.js": "throw new Error('not a migration')", "types.d.ts": "export {};" });
    expect(pluginMigrationFiles(dir).map((f) => path.basename(f))).toEqual(["0001-a.js", "0002-b.js"]);
    const list = loadPluginMigrations(dir);
    expect(list.map((m) => m.name)).toEqual(["0001-a", "0002-b"]);
    const db = await testPluginDatabase("sqlite");
    try {
      expect((await runPluginMigrations(db.address, list)).applied).toEqual(["0001-a", "0002-b"]);
    } finally {
      await db.drop();
    }
    expect(pluginMigrationFiles(path.join(dir, "nowhere"))).toEqual([]);
  });

  it("names the file that exports no migration, does not load, or doubles another", () => {
    expect(() => loadPluginMigrations(plugin({ "0001-x.js": "exports.other = 1;\n" }))).toThrow(/0001-x.js: does not export `migration`/);
    expect(() => loadPluginMigrations(plugin({ "0001-x.js": "exports.migration = { name: 'x' };\n" }))).toThrow(/does not export `migration`/);
    expect(() => loadPluginMigrations(plugin({ "0001-x.js": "syntax error here(\n" }))).toThrow(/0001-x.js: cannot be loaded/);
    expect(() => loadPluginMigrations(plugin({ "0001-x.js": js("0001-x"), "0001-x.ts": "" }))).toThrow(/two files hold migration 0001-x/);
  });
});
