/**
 * The statistics' read of the projection on MariaDB (the plugin's own tables, migrated as the
 * host does): every ticket of the period and queues exactly once, whatever the density — a busy
 * afternoon, sparse weeks, deleted rows, another tenant in the same hours — one batch of hours a
 * query, never an OFFSET (the ORDER BY id with OFFSET over the whole period it replaced re-read
 * every earlier row for each chunk: bench:reports), and a sparse year in a few queries.
 */
import * as path from "node:path";
import { loadPluginMigrations, openPluginDataAt, runPluginMigrations, testPluginDatabase, type FindOptions, type PluginData, type TenantTable, type TestPluginDatabase, type Where } from "@openatende/plugin-sdk";
import { hourOf, reportPeriod } from "@openatende/report-kit";
import { periodRows, type StatsFilters } from "../src/stats";
import { ticketRows, type UserTicketRow } from "../src/projection";

jest.setTimeout(120_000);

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 1);
const TENANT = 41;

let db: TestPluginDatabase;
let data: PluginData;
const rows: UserTicketRow[] = [];

function row(id: number, createdAt: number, deleted = false, queueId = id % 3): UserTicketRow {
  return { id, status: id % 2 ? "closed" : "open", userId: id % 5, queueId, createdAt, closedAt: id % 2 ? createdAt + 60_000 : null, createdHour: hourOf(createdAt), version: createdAt, deleted };
}

function counted(table: TenantTable<UserTicketRow>) {
  const finds: Array<{ hours: number; offset?: number; rows: number }> = [];
  const proxy = Object.create(table) as TenantTable<UserTicketRow>;
  proxy.find = async (where?: Where, opts?: FindOptions) => {
    const r = await table.find(where, opts);
    finds.push({ hours: (where?.createdHour as number[]).length, offset: opts?.offset, rows: r.length });
    return r;
  };
  return { table: proxy, finds };
}

const period = (from: string, to: string) => reportPeriod({ from, to, tz: "UTC" }, T0, "ERR_X");
const expected = (f: StatsFilters) =>
  rows
    .filter((r) => !r.deleted && r.createdAt >= f.period.start && r.createdAt < f.period.end && (!f.queueIds || f.queueIds.includes(r.queueId!)))
    .map((r) => r.id)
    .sort((a, b) => a - b);

async function ids(it: AsyncGenerator<UserTicketRow>): Promise<number[]> {
  const out: number[] = [];
  for await (const r of it) out.push(r.id);
  return out.sort((a, b) => a - b);
}

beforeAll(async () => {
  db = await testPluginDatabase("mysql");
  data = await openPluginDataAt(db.address);
  await runPluginMigrations(data, loadPluginMigrations(path.join(__dirname, "..")));
  let id = 0;
  for (let i = 0; i < 3000; i++) rows.push(row(++id, Date.UTC(2026, 2, 5, 14) + i * 3_000));
  for (let t = T0 + 30 * 60_000; t < T0 + 45 * 24 * HOUR; t += 23 * HOUR) rows.push(row(++id, t));
  for (let i = 0; i < 50; i++) rows.push(row(++id, Date.UTC(2026, 2, 6) + i * HOUR, true));
  for (let i = 0; i < 20; i++) rows.push(row(++id, Date.UTC(2026, 1, 20) + i * HOUR));
  const table = ticketRows(data.forTenant(TENANT));
  for (let i = 0; i < rows.length; i += 500) await table.upsertMany(rows.slice(i, i + 500));
  await ticketRows(data.forTenant(TENANT + 1)).upsertMany(rows.slice(0, 300).map((r) => ({ ...r, id: r.id + 100_000 })));
});

afterAll(async () => {
  await data?.close();
  await db?.drop();
});

describe("the statistics' rows of a period", () => {
  it("are every ticket of the period once, at most a chunk a query, an OFFSET only within one hour", async () => {
    const f = { period: period("2026-03-01", "2026-04-09") };
    const { table, finds } = counted(ticketRows(data.forTenant(TENANT)));
    const got = await ids(periodRows(table, f, 500));
    expect(got).toEqual(expected(f));
    expect(got.length).toBeGreaterThan(3000);
    expect(finds.filter((x) => x.offset !== undefined).every((x) => x.hours === 1)).toBe(true);
    expect(Math.max(...finds.map((x) => x.rows))).toBeLessThanOrEqual(500);
    // The busy afternoon (1200 an hour) makes the batch halve from its widest down to an hour:
    // each halving throws away one chunk read (log2(24 * 32) of them at most), nothing else.
    expect(finds.reduce((s, x) => s + x.rows, 0)).toBeLessThanOrEqual(got.length + 10 * 500);
  });

  it("keeps to the chosen queues", async () => {
    const f = { period: period("2026-03-01", "2026-04-09"), queueIds: [2] };
    expect(await ids(periodRows(ticketRows(data.forTenant(TENANT)), f))).toEqual(expected(f));
  });

  it("reads a sparse year in a few queries (a thin batch doubles the next)", async () => {
    const f = { period: period("2025-05-01", "2026-04-30") };
    const { table, finds } = counted(ticketRows(data.forTenant(TENANT)));
    expect(await ids(periodRows(table, f))).toEqual(expected(f));
    // 8760 hours: a few dozen queries (the busy afternoon halves the batches down to an hour).
    expect(finds.length).toBeLessThan(60);
  });
});
