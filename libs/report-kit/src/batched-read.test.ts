/**
 * The batched read on a real plugin database (SQLite in a temp folder; the report plugins run
 * it on MariaDB in their integration tests): the whole selection in its order, exactly once,
 * whatever the density — a busy afternoon with more rows than a read, sparse weeks, ties on one
 * instant, deleted rows, another tenant in the same hours — at most a read's rows a query, an
 * OFFSET only within one key value, no row read twice, and a sparse year in a few queries.
 */
import { openPluginDataAt, runPluginMigrations, testPluginDatabase, type PluginData, type TenantTable, type TestPluginDatabase, type Where } from "@openatende/plugin-sdk";
import { countedTable, keysOf, type FindNote } from "./counted-finds";
import { batchedPage, batchedRows, KeyBatches, MAX_BATCH_KEYS, type BatchedSelection } from "./batched-read";

interface Row extends Record<string, unknown> {
  id: number;
  createdAt: number;
  createdHour: number;
  queueId: number;
  deleted: boolean;
}

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 1);
const TENANT = 7;
const MIGRATION = {
  name: "0001-rows",
  up: (s: { createTable: (n: string, d: object) => Promise<void> }) =>
    s.createTable("rows", {
      columns: { id: { type: "integer" }, createdAt: { type: "bigint" }, createdHour: { type: "integer" }, queueId: { type: "integer" }, deleted: { type: "boolean" } },
      primaryKey: ["id"],
      indexes: [{ columns: ["deleted", "createdHour", "createdAt"] }],
    }),
};

let db: TestPluginDatabase;
let data: PluginData;
const rows: Row[] = [];

const row = (id: number, createdAt: number, deleted = false): Row => ({ id, createdAt, createdHour: Math.floor(createdAt / HOUR), queueId: id % 3, deleted });
const fromDb = (r: Row): Row => ({ ...r, createdAt: Number(r.createdAt), createdHour: Number(r.createdHour), deleted: !!Number(r.deleted) });

/** The hours from `from` to `to` (days after T0), and the selection over them newest first. */
function hours(fromDay: number, toDay: number): number[] {
  const out: number[] = [];
  for (let h = Math.floor((T0 + fromDay * 24 * HOUR) / HOUR); h < (T0 + toDay * 24 * HOUR) / HOUR; h++) out.push(h);
  return out;
}
function newestFirst(keys: number[], where: Where = {}): BatchedSelection<Row> {
  return { where: { deleted: false, ...where }, key: "createdHour", keys: [...keys].reverse(), orderBy: [["createdAt", "desc"], ["id", "desc"]], map: fromDb };
}
function expected(keys: number[], queueIds?: number[]): number[] {
  const set = new Set(keys);
  return rows
    .filter((r) => !r.deleted && set.has(r.createdHour) && (!queueIds || queueIds.includes(r.queueId)))
    .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
    .map((r) => r.id);
}

/** The table with each query's where, offset and rows noted. */
function counted(table: TenantTable<Row>) {
  const finds: FindNote[] = [];
  return { table: countedTable(table, finds), finds };
}
const hoursOf = (f: FindNote) => keysOf(f, "createdHour");

async function ids(it: AsyncGenerator<Row>): Promise<number[]> {
  const out: number[] = [];
  for await (const r of it) out.push(r.id);
  return out;
}

beforeAll(async () => {
  db = await testPluginDatabase("sqlite");
  data = await openPluginDataAt(db.address);
  await runPluginMigrations(data, [MIGRATION as never]);
  let id = 0;
  // A busy afternoon: 1500 rows in three hours of 5 March, ten of them at one same instant.
  for (let i = 0; i < 1500; i++) rows.push(row(++id, Date.UTC(2026, 2, 5, 14) + (i < 10 ? 0 : i * 7_000)));
  // Sparse weeks: one row every 23 hours for 45 days.
  for (let t = T0 + 30 * 60_000; t < T0 + 45 * 24 * HOUR; t += 23 * HOUR) rows.push(row(++id, t));
  // Deleted rows are never read.
  for (let i = 0; i < 50; i++) rows.push(row(++id, Date.UTC(2026, 2, 6) + i * HOUR, true));
  const table = data.forTenant(TENANT).table<Row>("rows");
  for (let i = 0; i < rows.length; i += 500) await table.upsertMany(rows.slice(i, i + 500));
  // Another tenant's rows in the same hours stay out.
  await data.forTenant(TENANT + 1).table<Row>("rows").upsertMany(rows.slice(0, 300).map((r) => ({ ...r, id: r.id + 100_000 })));
});

afterAll(async () => {
  await data?.close();
  await db?.drop();
});

describe("KeyBatches", () => {
  it("doubles after a thin batch up to its widest, halves after a crowded one, resumes after a key", () => {
    const b = new KeyBatches(Array.from({ length: 5000 }, (_, i) => i));
    expect(b.take()).toHaveLength(6);
    b.saw(0, 100);
    expect(b.take()).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    for (let i = 0; i < 12; i++) b.saw(0, 100);
    expect(b.take()).toHaveLength(MAX_BATCH_KEYS);
    b.saw(500, 100);
    b.resumeAfter(20);
    expect(b.take()![0]).toBe(21);
    expect(() => b.resumeAfter(-1)).toThrow();
    expect(new KeyBatches([1, 2, 3], true).take()).toEqual([1, 2, 3]);
  });
});

describe("batchedRows", () => {
  it("yields the whole selection in order, each row read once, an OFFSET only within one hour", async () => {
    const keys = hours(0, 40);
    const { table, finds } = counted(data.forTenant(TENANT).table<Row>("rows"));
    const got = await ids(batchedRows(table, newestFirst(keys), 100));
    expect(got).toEqual(expected(keys));
    expect(got.length).toBeGreaterThan(1500);
    expect(finds.filter((f) => f.offset > 0).every((f) => hoursOf(f) === 1)).toBe(true);
    expect(Math.max(...finds.map((f) => f.rows))).toBeLessThanOrEqual(100);
    expect(finds.reduce((s, f) => s + f.rows, 0)).toBe(got.length);
    expect(Math.max(...finds.map(hoursOf))).toBeLessThanOrEqual(MAX_BATCH_KEYS);
  });

  it("adds `pad` to a read of one key value, and answers the same rows", async () => {
    const keys = hours(0, 40);
    const { table, finds } = counted(data.forTenant(TENANT).table<Row>("rows"));
    expect(await ids(batchedRows(table, { ...newestFirst(keys), pad: -1 }, 100))).toEqual(expected(keys));
    const one = finds.filter((f) => f.offset > 0);
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((f) => (f.where.createdHour as number[]).length === 2 && (f.where.createdHour as number[])[1] === -1)).toBe(true);
  });

  it("keeps to the where (queues) and to `keep`", async () => {
    const keys = hours(0, 40);
    const table = data.forTenant(TENANT).table<Row>("rows");
    expect(await ids(batchedRows(table, newestFirst(keys, { queueId: [2] })))).toEqual(expected(keys, [2]));
    const early = await ids(batchedRows(table, { ...newestFirst(keys), keep: (r) => r.createdAt < Date.UTC(2026, 2, 5, 15) }, 200));
    expect(early).toEqual(expected(keys).filter((id) => rows[id - 1].createdAt < Date.UTC(2026, 2, 5, 15)));
  });

  it("reads a sparse year in a few queries (a thin batch doubles the next)", async () => {
    const keys = hours(-300, 60);
    const { table, finds } = counted(data.forTenant(TENANT).table<Row>("rows"));
    expect(await ids(batchedRows(table, newestFirst(keys), 1000))).toEqual(expected(keys));
    expect(finds.length).toBeLessThan(30);
  });
});

describe("batchedPage", () => {
  it("pages in order: the pages joined are the selection, hasMore until the last, nothing past it", async () => {
    const keys = hours(0, 40);
    const table = data.forTenant(TENANT).table<Row>("rows");
    const got: number[] = [];
    for (let page = 1; ; page++) {
      const r = await batchedPage(table, newestFirst(keys), page, 50);
      got.push(...r.rows.map((x) => x.id));
      if (!r.hasMore) break;
      expect(r.rows).toHaveLength(50);
    }
    expect(got).toEqual(expected(keys));
    expect((await batchedPage(table, newestFirst(keys), 200, 50)).rows).toEqual([]);
  });

  it("reads named rows in one query with oneBatch", async () => {
    const keys = hours(0, 40);
    const { table, finds } = counted(data.forTenant(TENANT).table<Row>("rows"));
    const r = await batchedPage(table, { ...newestFirst(keys, { id: [3, 1499, 1600, 1, 999_999] }), oneBatch: true }, 1, 50);
    expect(r.rows.map((x) => x.id)).toEqual(expected(keys).filter((id) => [3, 1499, 1600, 1].includes(id)));
    expect(finds).toHaveLength(1);
  });
});
