/**
 * The tenant-scoped repository on a real SQLite file and a real MariaDB database: CRUD, the
 * tenant scope (no statement reaches another tenant's rows, an empty where included), upserts
 * all or nothing and on disk when they return (read back through a second connection),
 * Buffers, json, datetimes, booleans, duplicate keys, and names that never reach SQL.
 */
import { DuplicateRowError, PluginData, PluginMigration } from "./contract";
import { PluginDataError } from "./errors";
import { openPluginDataAt } from "./open";
import { runPluginMigrations } from "./migrate";
import { testPluginDatabase, TestPluginDatabase } from "./testing";

type KeyRow = { connectionId: number; type: string; id: string; value: Buffer | null; updatedAt?: Date };
type NoteRow = { id: number; title: string; meta: unknown; done: boolean; at: Date | null; big?: number | string | null };

const migrations: PluginMigration[] = [
  {
    name: "0001-keys",
    async up(schema) {
      await schema.createTable("keys", {
        columns: { connectionId: { type: "integer" }, type: { type: "string", length: 64 }, id: { type: "string" }, value: { type: "blob", nullable: true }, updatedAt: { type: "datetime", nullable: true } },
        primaryKey: ["connectionId", "type", "id"],
      });
    },
  },
  {
    name: "0002-notes",
    async up(schema) {
      await schema.createTable("notes", {
        columns: {
          id: { type: "integer" },
          title: { type: "string", length: 100 },
          meta: { type: "json", nullable: true },
          done: { type: "boolean", default: false },
          at: { type: "datetime", nullable: true },
          big: { type: "bigint", nullable: true },
        },
        primaryKey: ["id"],
        indexes: [{ columns: ["title"], unique: true }],
      });
    },
  },
];

describe.each(["sqlite", "mysql"] as const)("plugin data repository on %s", (dialect) => {
  let db: TestPluginDatabase;
  let data: PluginData;

  beforeAll(async () => {
    db = await testPluginDatabase(dialect);
    data = await openPluginDataAt(db.address);
    await runPluginMigrations(data, migrations);
  });
  afterAll(async () => {
    await data?.close();
    await db?.drop();
  });

  const keysOf = (tenantId: number) => data.forTenant(tenantId).table<KeyRow>("keys");
  const notesOf = (tenantId: number) => data.forTenant(tenantId).table<NoteRow>("notes");

  it("inserts, gets, finds, counts, updates and deletes, rows coming back without tenantId", async () => {
    const notes = notesOf(11);
    await notes.insert({ id: 1, title: "first", meta: { tags: ["a", "b"], n: 1.5, nested: { ok: true } }, done: false, at: new Date("2024-05-06T07:08:09.123Z") });
    await notes.insert({ id: 2, title: "second", meta: null, done: true, at: null });
    await notes.insert({ id: 3, title: "third", meta: [1, "two", null], done: false, at: null });

    const first = await notes.get({ id: 1 });
    expect(first).toEqual({ id: 1, title: "first", meta: { tags: ["a", "b"], n: 1.5, nested: { ok: true } }, done: false, at: new Date("2024-05-06T07:08:09.123Z"), big: null });
    expect(first).not.toHaveProperty("tenantId");
    expect(await notes.get({ id: 99 })).toBeNull();
    expect((await notes.find({}, { orderBy: [["id", "desc"]] })).map((r) => r.id)).toEqual([3, 2, 1]);
    expect((await notes.find({ done: false }, { orderBy: [["id", "asc"]] })).map((r) => r.id)).toEqual([1, 3]);
    expect((await notes.find({ id: [1, 3, 42] }, { orderBy: [["id", "asc"]] })).map((r) => r.title)).toEqual(["first", "third"]);
    expect((await notes.find({ id: [] })).length).toBe(0);
    expect((await notes.find({ at: null }, { orderBy: [["id", "asc"]] })).map((r) => r.id)).toEqual([2, 3]);
    expect((await notes.find({}, { orderBy: [["id", "asc"]], limit: 1, offset: 1 })).map((r) => r.id)).toEqual([2]);
    expect((await notes.find({}, { orderBy: [["id", "asc"]], offset: 2 })).map((r) => r.id)).toEqual([3]);
    expect((await notes.get({ id: 3 }))!.meta).toEqual([1, "two", null]);
    expect(await notes.count()).toBe(3);
    expect(await notes.count({ done: true })).toBe(1);

    expect(await notes.update({ id: [1, 2] }, { done: true, meta: { changed: 1 } })).toBe(2);
    expect(await notes.count({ done: true })).toBe(2);
    expect((await notes.get({ id: 2 }))!.meta).toEqual({ changed: 1 });
    // A row matched but left as it was still counts (FOUND_ROWS on MySQL, as SQLite does).
    expect(await notes.update({ id: 1 }, { done: true })).toBe(1);
    expect(await notes.delete({ id: 3 })).toBe(1);
    expect(await notes.delete({ id: 3 })).toBe(0);
    expect(await notes.count()).toBe(2);
  });

  it("keeps every tenant inside its own rows, also for update, delete and count with an empty where", async () => {
    const a = notesOf(21);
    const b = notesOf(22);
    // The same keys in both tenants: the tenant leads every key.
    await a.insert({ id: 1, title: "a-one", meta: null, done: false, at: null });
    await a.insert({ id: 2, title: "a-two", meta: null, done: false, at: null });
    await b.insert({ id: 1, title: "b-one", meta: null, done: false, at: null });

    expect((await a.find()).map((r) => r.title).sort()).toEqual(["a-one", "a-two"]);
    expect((await b.find()).map((r) => r.title)).toEqual(["b-one"]);
    expect(await b.get({ id: 2 })).toBeNull();
    expect(await b.count({})).toBe(1);

    expect(await b.update({}, { title: "b-renamed" })).toBe(1);
    expect((await a.find()).map((r) => r.title).sort()).toEqual(["a-one", "a-two"]);
    expect(await b.update({ id: 2 }, { done: true })).toBe(0);
    expect((await a.get({ id: 2 }))!.done).toBe(false);

    expect(await b.delete({})).toBe(1);
    expect(await b.count()).toBe(0);
    expect(await a.count()).toBe(2);
    await b.upsertMany([{ id: 2, title: "b-two", meta: null, done: true, at: null }]);
    expect((await a.get({ id: 2 }))!.title).toBe("a-two");
    expect(await a.delete({})).toBe(2);
    expect((await b.find()).map((r) => r.title)).toEqual(["b-two"]);
    expect(() => data.forTenant(0)).toThrow(PluginDataError);
    expect(() => data.forTenant(-1)).toThrow(PluginDataError);
  });

  it("refuses a duplicate key on insert with DuplicateRowError (primary key and unique index), and an update onto a taken unique value", async () => {
    const notes = notesOf(31);
    await notes.insert({ id: 1, title: "x", meta: null, done: false, at: null });
    await notes.insert({ id: 2, title: "y", meta: null, done: false, at: null });
    await expect(notes.insert({ id: 1, title: "other", meta: null, done: false, at: null })).rejects.toBeInstanceOf(DuplicateRowError);
    await expect(notes.insert({ id: 3, title: "x", meta: null, done: false, at: null })).rejects.toThrow(/already in notes/);
    await expect(notes.update({ id: 2 }, { title: "x" })).rejects.toBeInstanceOf(DuplicateRowError);
    // Another tenant has its own key space.
    await notesOf(32).insert({ id: 1, title: "x", meta: null, done: false, at: null });
  });

  it("keeps Buffers byte for byte through blob columns, and datetimes and big integers as written", async () => {
    const keys = keysOf(41);
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const at = new Date("2023-12-31T23:59:59.999Z");
    await keys.upsert({ connectionId: 1, type: "pre-key", id: "1", value: bytes, updatedAt: at });
    await keys.upsert({ connectionId: 1, type: "pre-key", id: "2", value: new Uint8Array([0, 0xff, 0]) as unknown as Buffer });
    const got = await keys.get({ connectionId: 1, type: "pre-key", id: "1" });
    expect(Buffer.isBuffer(got!.value)).toBe(true);
    expect(got!.value!.equals(bytes)).toBe(true);
    expect(got!.updatedAt).toEqual(at);
    expect((await keys.get({ connectionId: 1, type: "pre-key", id: "2" }))!.value).toEqual(Buffer.from([0, 0xff, 0]));
    const notes = notesOf(41);
    await notes.insert({ id: 1, title: "big", meta: null, done: false, at: null, big: 2 ** 40 });
    expect((await notes.get({ id: 1 }))!.big).toBe(2 ** 40);
  });

  it("tells case apart in keys on both engines", async () => {
    const keys = keysOf(45);
    await keys.upsertMany([
      { connectionId: 1, type: "session", id: "AbC", value: Buffer.from("upper") },
      { connectionId: 1, type: "session", id: "abc", value: Buffer.from("lower") },
    ]);
    expect(await keys.count()).toBe(2);
    expect((await keys.get({ connectionId: 1, type: "session", id: "abc" }))!.value!.toString()).toBe("lower");
  });

  it("upserts many rows in one go: new ones inserted, existing ones replaced, the same key twice merged in order", async () => {
    const keys = keysOf(51);
    await keys.upsertMany(Array.from({ length: 40 }, (_, i) => ({ connectionId: 7, type: "pre-key", id: String(i), value: Buffer.from(`v1-${i}`) })));
    await keys.upsertMany([
      ...Array.from({ length: 20 }, (_, i) => ({ connectionId: 7, type: "pre-key", id: String(i * 2), value: Buffer.from(`v2-${i * 2}`) })),
      { connectionId: 7, type: "sender-key", id: "g1", value: Buffer.from("first") },
      { connectionId: 7, type: "sender-key", id: "g1", value: Buffer.from("second") },
      { connectionId: 7, type: "app-state", id: "x", value: null },
    ]);
    expect(await keys.count({ connectionId: 7, type: "pre-key" })).toBe(40);
    const some = await keys.find({ connectionId: 7, type: "pre-key", id: ["0", "1", "2", "3"] }, { orderBy: [["id", "asc"]] });
    expect(some.map((r) => r.value!.toString())).toEqual(["v2-0", "v1-1", "v2-2", "v1-3"]);
    expect((await keys.get({ connectionId: 7, type: "sender-key", id: "g1" }))!.value!.toString()).toBe("second");
    expect((await keys.get({ connectionId: 7, type: "app-state", id: "x" }))!.value).toBeNull();
    // More rows than one statement takes: still one transaction.
    await keys.upsertMany(Array.from({ length: 2500 }, (_, i) => ({ connectionId: 8, type: "pre-key", id: `k${i}`, value: Buffer.from([i % 256]) })));
    expect(await keys.count({ connectionId: 8 })).toBe(2500);
  });

  it("is all or nothing: one bad row in upsertMany writes none of them, nor does a failing statement half-way", async () => {
    const keys = keysOf(61);
    await keys.upsert({ connectionId: 1, type: "t", id: "kept", value: Buffer.from("old") });
    const rows = [
      { connectionId: 1, type: "t", id: "kept", value: Buffer.from("new") },
      { connectionId: 1, type: "t", id: "fresh", value: Buffer.from("x") },
      { connectionId: 1, type: "t", id: "bad", value: "not a buffer" as unknown as Buffer },
    ];
    await expect(keys.upsertMany(rows)).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_VALUE" });
    expect(await keys.count()).toBe(1);
    expect((await keys.get({ id: "kept" }))!.value!.toString()).toBe("old");

    // The second statement (another shape of row) fails in the database: the first is rolled back.
    const notes = notesOf(61);
    await notes.insert({ id: 9, title: "taken", meta: null, done: false, at: null });
    await expect(
      notes.upsertMany([
        { id: 1, title: "one", meta: null, done: false, at: null },
        { id: 2, title: "taken", meta: { x: 1 }, done: false } as NoteRow,
      ]),
    ).rejects.toBeInstanceOf(DuplicateRowError);
    expect(await notes.get({ id: 1 })).toBeNull();
    expect(await notes.count()).toBe(1);
    // MySQL would take the unique title's clash for "the row exists" and change row 9: refused alike.
    expect((await notes.get({ id: 9 }))!.meta).toBeNull();
  });

  it("has what upsertMany wrote on disk when it returns: a second connection reads it", async () => {
    const keys = keysOf(71);
    const second = await openPluginDataAt(db.address);
    try {
      const rows = Array.from({ length: 60 }, (_, i) => ({ connectionId: 3, type: "session", id: `s${i}`, value: Buffer.from(`payload-${i}`) }));
      const started = Date.now();
      for (let round = 0; round < 20; round++) await keys.upsertMany(rows.map((r) => ({ ...r, value: Buffer.from(`${r.value.toString()}-${round}`) })));
      const ms = (Date.now() - started) / 20;
      // Dozens of keys per call must not cost more than a few fsyncs.
      expect(ms).toBeLessThan(250);
      const seen = await second.forTenant(71).table<KeyRow>("keys").find({ connectionId: 3, type: "session", id: rows.map((r) => r.id) });
      expect(seen.length).toBe(60);
      expect(seen.every((r) => r.value!.toString().endsWith("-19"))).toBe(true);
      expect(await second.forTenant(72).table<KeyRow>("keys").count()).toBe(0);
    } finally {
      await second.close();
    }
  });

  it("runs a transaction all or nothing, and its TenantData writes inside it", async () => {
    const t = data.forTenant(81);
    await expect(
      t.transaction(async (tx) => {
        await tx.table<NoteRow>("notes").insert({ id: 1, title: "in tx", meta: null, done: false, at: null });
        expect(await tx.table<NoteRow>("notes").count()).toBe(1);
        await tx.transaction(async (inner) => inner.table<KeyRow>("keys").upsert({ connectionId: 1, type: "x", id: "y", value: null }));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await t.table("notes").count()).toBe(0);
    expect(await t.table("keys").count()).toBe(0);
    const out = await t.transaction(async (tx) => {
      await tx.table<NoteRow>("notes").insert({ id: 1, title: "kept", meta: null, done: false, at: null });
      await tx.table<KeyRow>("keys").upsertMany([{ connectionId: 1, type: "x", id: "y", value: Buffer.from("z") }]);
      return "done";
    });
    expect(out).toBe("done");
    expect(await t.table("notes").count()).toBe(1);
    expect(await t.table("keys").count()).toBe(1);
  });

  it("keeps names out of SQL unless they are the table's own, and says what is wrong", async () => {
    const t = data.forTenant(91);
    for (const bad of ["notes; DROP TABLE keys", "no-dash", "1abc", "", "a".repeat(65), "notes`", 'notes"']) {
      expect(() => t.table(bad)).toThrow(expect.objectContaining({ code: "ERR_PLUGIN_DATA_IDENTIFIER" }));
    }
    expect(() => t.table("_migrations")).toThrow(expect.objectContaining({ code: "ERR_PLUGIN_DATA_IDENTIFIER" }));
    await expect(t.table("missing").find()).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_UNKNOWN_TABLE" });
    const notes = t.table<NoteRow>("notes");
    await expect(notes.find({ ["title = title OR 1=1 --"]: "x" })).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_IDENTIFIER" });
    await expect(notes.find({ nope: 1 })).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_UNKNOWN_COLUMN" });
    // Names of every object's prototype are no columns either.
    await expect(notes.find({ constructor: 1, toString: "x" })).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_UNKNOWN_COLUMN" });
    await expect(notes.find(JSON.parse('{"__proto__": 1}'))).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_IDENTIFIER" });
    await expect(notes.find({}, { orderBy: [["id; DROP TABLE notes", "asc"]] })).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_IDENTIFIER" });
    await expect(notes.find({}, { orderBy: [["id", "sideways" as "asc"]] })).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_VALUE" });
    await expect(notes.find({}, { limit: 1.5 })).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_VALUE" });
    await expect(notes.insert({ id: 1, title: "x", meta: null, done: false, at: null, tenantId: 2 } as NoteRow)).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_IDENTIFIER" });
    await expect(notes.find({ tenantId: 92 })).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_IDENTIFIER" });
    await expect(notes.delete({ id: undefined } as never)).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_VALUE" });
    await expect(notes.find({ meta: "x" })).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_VALUE" });
    await expect(notes.insert({ id: "1" as unknown as number, title: "x", meta: null, done: false, at: null })).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_VALUE" });
    await expect(notes.insert({ id: 5 } as NoteRow)).rejects.toThrow(/needs column title/);
    await expect(notes.update({ id: 1 }, {})).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_VALUE" });
    await expect(notes.insert({ id: 8, title: "x".repeat(101), meta: null, done: false, at: null })).rejects.toThrow(/at most 100 characters/);
    await notes.insert({ id: 8, title: "😀".repeat(100), meta: null, done: false, at: null });
    // A value is only ever a bound parameter.
    const sneaky = "x' OR '1'='1";
    await notes.insert({ id: 7, title: sneaky, meta: null, done: false, at: null });
    expect((await notes.find({ title: sneaky })).map((r) => r.id)).toEqual([7]);
    expect(await notes.count({ title: "x" })).toBe(0);
  });

  it("refuses to work once closed", async () => {
    const other = await openPluginDataAt(db.address);
    await other.close();
    await other.close();
    await expect(other.forTenant(1).table("notes").count()).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_CLOSED" });
  });
});
