/**
 * The SchemaBuilder on a real SQLite file and a real MariaDB database: tenantId first, leading
 * the primary key and every index; column types per engine; defaults; columns and indexes
 * added later; dropped tables; definitions that cannot be built refused with the reason.
 */
import { PluginMigration, SchemaBuilder } from "./contract";
import { SqlPluginData } from "./database";
import { runPluginMigrations } from "./migrate";
import { testPluginDatabase, TestPluginDatabase } from "./testing";

interface Column {
  name: string;
  type: string;
  nullable: boolean;
}

/** Columns in order with their engine type, the primary key, and each index's columns. */
async function describeTable(data: SqlPluginData, table: string): Promise<{ columns: Column[]; primaryKey: string[]; indexes: Record<string, { columns: string[]; unique: boolean }> }> {
  if (data.dialect === "sqlite") {
    const cols = await data.select<{ name: string; type: string; notnull: number; pk: number }>(`PRAGMA table_info("${table}")`);
    const indexes: Record<string, { columns: string[]; unique: boolean }> = {};
    for (const i of await data.select<{ name: string; unique: number; origin: string }>(`PRAGMA index_list("${table}")`)) {
      if (i.origin === "pk") continue;
      const parts = await data.select<{ name: string; seqno: number }>(`PRAGMA index_info("${i.name}")`);
      indexes[i.name] = { columns: parts.sort((a, b) => a.seqno - b.seqno).map((p) => p.name), unique: i.unique === 1 };
    }
    return {
      columns: cols.map((c) => ({ name: c.name, type: c.type.toUpperCase(), nullable: c.notnull === 0 })),
      primaryKey: cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
      indexes,
    };
  }
  const db = data.address.database!;
  const cols = await data.select<{ name: string; type: string; nullable: string }>(
    "SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = $1 AND TABLE_NAME = $2 ORDER BY ORDINAL_POSITION",
    [db, table],
  );
  const stats = await data.select<{ name: string; col: string; seq: number; nonUnique: number }>(
    "SELECT INDEX_NAME AS name, COLUMN_NAME AS col, SEQ_IN_INDEX AS seq, NON_UNIQUE AS nonUnique FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = $1 AND TABLE_NAME = $2 ORDER BY INDEX_NAME, SEQ_IN_INDEX",
    [db, table],
  );
  const indexes: Record<string, { columns: string[]; unique: boolean }> = {};
  for (const s of stats) {
    indexes[s.name] ??= { columns: [], unique: Number(s.nonUnique) === 0 };
    indexes[s.name].columns.push(s.col);
  }
  const primaryKey = indexes.PRIMARY?.columns ?? [];
  delete indexes.PRIMARY;
  return { columns: cols.map((c) => ({ name: c.name, type: c.type.toUpperCase(), nullable: c.nullable === "YES" })), primaryKey, indexes };
}

const TYPES: Record<"sqlite" | "mysql", string[]> = {
  sqlite: ["INTEGER", "VARCHAR(40)", "VARCHAR(191)", "TEXT", "INTEGER", "INTEGER", "INTEGER", "TEXT", "TEXT", "BLOB"],
  mysql: ["INT(11)", "VARCHAR(40)", "VARCHAR(191)", "LONGTEXT", "INT(11)", "BIGINT(20)", "TINYINT(1)", "LONGTEXT", "DATETIME(3)", "LONGBLOB"],
};

describe.each(["sqlite", "mysql"] as const)("plugin schema builder on %s", (dialect) => {
  let db: TestPluginDatabase;
  let data: SqlPluginData;
  const migrate = (name: string, up: (s: SchemaBuilder) => Promise<void>) => runPluginMigrations(data, [{ name, up }] as PluginMigration[]);

  beforeAll(async () => {
    db = await testPluginDatabase(dialect);
    data = await SqlPluginData.open(db.address);
  });
  afterAll(async () => {
    await data?.close();
    await db?.drop();
  });

  it("creates a table with tenantId first and leading the primary key and every index, each type mapped for the engine", async () => {
    await migrate("0001", async (s) => {
      expect(s.dialect).toBe(dialect);
      await s.createTable("everything", {
        columns: {
          code: { type: "string", length: 40 },
          name: { type: "string" },
          body: { type: "text", nullable: true },
          n: { type: "integer", default: 3 },
          big: { type: "bigint", nullable: true },
          flag: { type: "boolean", default: true },
          doc: { type: "json", nullable: true },
          at: { type: "datetime", nullable: true },
          bytes: { type: "blob", nullable: true },
        },
        primaryKey: ["code"],
        indexes: [{ columns: ["name"] }, { columns: ["n", "flag"], unique: true, name: "everything_n_flag_u" }],
      });
    });
    const t = await describeTable(data, "everything");
    expect(t.columns.map((c) => c.name)).toEqual(["tenantId", "code", "name", "body", "n", "big", "flag", "doc", "at", "bytes"]);
    expect(t.columns.map((c) => c.type)).toEqual(TYPES[dialect]);
    expect(t.columns.map((c) => c.nullable)).toEqual([false, false, false, true, false, true, false, true, true, true]);
    expect(t.primaryKey).toEqual(["tenantId", "code"]);
    expect(t.indexes).toEqual({
      everything_name: { columns: ["tenantId", "name"], unique: false },
      everything_n_flag_u: { columns: ["tenantId", "n", "flag"], unique: true },
    });
    // Defaults apply to rows written without them.
    const rows = data.forTenant(1).table<Record<string, unknown>>("everything");
    await rows.insert({ code: "a", name: "A" });
    expect(await rows.get({ code: "a" })).toMatchObject({ n: 3, flag: true, body: null, doc: null });
  });

  it("adds columns and indexes later, and drops tables", async () => {
    await migrate("0002", async (s) => {
      await s.createTable("later", { columns: { id: { type: "integer" } }, primaryKey: ["id"] });
      await s.createTable("gone", { columns: { id: { type: "integer" } }, primaryKey: ["id"] });
    });
    await data.forTenant(5).table("later").insert({ id: 1 });
    await migrate("0003", async (s) => {
      await s.addColumn("later", "label", { type: "string", default: "none" });
      await s.addColumn("later", "seen", { type: "datetime", nullable: true });
      await s.addIndex("later", { columns: ["label"] });
      await s.dropTable("gone");
    });
    const t = await describeTable(data, "later");
    expect(t.columns.map((c) => c.name)).toEqual(["tenantId", "id", "label", "seen"]);
    expect(t.indexes).toEqual({ later_label: { columns: ["tenantId", "label"], unique: false } });
    expect(await data.forTenant(5).table("later").get({ id: 1 })).toEqual({ id: 1, label: "none", seen: null });
    await expect(data.forTenant(5).table("gone").count()).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_UNKNOWN_TABLE" });
    const tables = dialect === "sqlite" ? await data.select<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'") : await data.select<{ name: string }>("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = $1", [data.address.database!]);
    expect(tables.map((r) => r.name).sort()).toEqual(["_migrations", "_schema", "everything", "later"]);
  });

  it("refuses definitions that cannot be built, saying why, and changes nothing", async () => {
    const refusals: Array<[string, (s: SchemaBuilder) => Promise<void>, RegExp]> = [
      ["bad table name", (s) => s.createTable("x; DROP TABLE later", { columns: { id: { type: "integer" } }, primaryKey: ["id"] }), /table name .* is not allowed/],
      ["host's name", (s) => s.createTable("_mine", { columns: { id: { type: "integer" } }, primaryKey: ["id"] }), /belong to the host/],
      ["tenantId column", (s) => s.createTable("t1", { columns: { tenantId: { type: "integer" } }, primaryKey: ["tenantId"] }), /tenant scope/],
      ["no primary key", (s) => s.createTable("t2", { columns: { id: { type: "integer" } }, primaryKey: [] }), /needs a primary key/],
      ["unknown pk column", (s) => s.createTable("t3", { columns: { id: { type: "integer" } }, primaryKey: ["nope"] }), /primary key names column nope/],
      ["nullable pk", (s) => s.createTable("t4", { columns: { id: { type: "integer", nullable: true } }, primaryKey: ["id"] }), /cannot be nullable/],
      ["text pk", (s) => s.createTable("t5", { columns: { id: { type: "text" } }, primaryKey: ["id"] }), /cannot be in a primary key/],
      ["unknown type", (s) => s.createTable("t6", { columns: { id: { type: "uuid" as "text" } }, primaryKey: ["id"] }), /type must be one of/],
      ["json index", (s) => s.createTable("t7", { columns: { id: { type: "integer" }, j: { type: "json" } }, primaryKey: ["id"], indexes: [{ columns: ["j"] }] }), /cannot be indexed/],
      ["existing table", (s) => s.createTable("LATER", { columns: { id: { type: "integer" } }, primaryKey: ["id"] }), /already exists/],
      ["NOT NULL without default", (s) => s.addColumn("later", "must", { type: "integer" }), /needs a default/],
      ["column twice", (s) => s.addColumn("later", "Label", { type: "string", nullable: true }), /already has a column/],
      ["unknown table", (s) => s.addIndex("nowhere", { columns: ["id"] }), /does not exist/],
      ["bad column name", (s) => s.addColumn("later", "a-b", { type: "integer", nullable: true }), /column name .* is not allowed/],
      ["bad default", (s) => s.addColumn("later", "d", { type: "integer", default: "three" }), /takes an integer/],
    ];
    for (const [what, up, message] of refusals) {
      await expect(migrate(`bad-${what}`, up)).rejects.toThrow(message);
    }
    const done = await data.select<{ name: string }>(`SELECT name FROM ${dialect === "mysql" ? "`_migrations`" : '"_migrations"'} ORDER BY name`);
    expect(done.map((r) => r.name)).toEqual(["0001", "0002", "0003"]);
    const t = await describeTable(data, "later");
    expect(t.columns.map((c) => c.name)).toEqual(["tenantId", "id", "label", "seen"]);
  });

  it("syncs each commit to disk (SQLite: WAL with synchronous FULL; MariaDB: InnoDB's flush at commit) and compares text by bytes", async () => {
    if (dialect === "sqlite") {
      // A new connection per transaction: each one is tuned (checked on a fresh one).
      const sync = await data.inTransaction((tx) => data.select<{ synchronous: number }>("PRAGMA synchronous", [], tx));
      expect(sync[0].synchronous).toBe(2);
      expect((await data.select<{ journal_mode: string }>("PRAGMA journal_mode"))[0].journal_mode).toBe("wal");
    } else {
      const [t] = await data.select<{ c: string }>("SELECT TABLE_COLLATION AS c FROM information_schema.TABLES WHERE TABLE_SCHEMA = $1 AND TABLE_NAME = 'later'", [data.address.database!]);
      expect(t.c).toBe("utf8mb4_bin");
      const [tx] = await data.select<{ f: number | string }>("SELECT @@innodb_flush_log_at_trx_commit AS f");
      expect(Number(tx.f)).toBe(1);
    }
  });
});
