/**
 * The report's reads of its projection on MariaDB (the plugin's own tables, migrated as the host
 * does), through report-kit's batched read (its own test counts the queries): pages and the
 * whole selection come newest first, exactly the period's rows and filters, whatever the
 * density — a busy hour with more rows than a read, sparse weeks, ties on the same instant —
 * and a search's tickets in one query.
 */
import * as path from "node:path";
import { loadPluginMigrations, openPluginDataAt, runPluginMigrations, testPluginDatabase, type PluginData, type TestPluginDatabase } from "@openatende/plugin-sdk";
import { hourOf, reportPeriod } from "@openatende/report-kit";
import { allRows, pageOf, type TicketFilters } from "../src/query";
import { ticketsTable, type TicketRow } from "../src/projection";

jest.setTimeout(120_000);

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 1); // 1 Mar 2026
const TENANT = 31;

let db: TestPluginDatabase;
let data: PluginData;
let rows: TicketRow[];

function row(id: number, createdAt: number, status: TicketRow["status"], deleted = false): TicketRow {
  return { id, protocol: `P${id}`, status, contactId: id, contactName: `C ${id}`, contactNumber: null, queueId: id % 3, userId: null, createdAt, closedAt: status === "closed" ? createdAt + 60_000 : null, createdHour: hourOf(createdAt), version: createdAt, deleted };
}

const march = (from = "2026-03-01", to = "2026-04-09") => reportPeriod({ from, to, tz: "UTC" }, T0, "ERR_X");
const newestFirst = (a: TicketRow, b: TicketRow) => b.createdAt - a.createdAt || b.id - a.id;
const expected = (f: TicketFilters) =>
  rows
    .filter((r) => !r.deleted && r.createdAt >= f.period.start && r.createdAt < f.period.end && (!f.status || f.status.includes(r.status)) && (!f.ids || f.ids.includes(r.id)))
    .sort(newestFirst)
    .map((r) => r.id);

async function collect(it: AsyncGenerator<TicketRow>): Promise<number[]> {
  const out: number[] = [];
  for await (const r of it) out.push(r.id);
  return out;
}

beforeAll(async () => {
  db = await testPluginDatabase("mysql");
  data = await openPluginDataAt(db.address);
  await runPluginMigrations(data, loadPluginMigrations(path.join(__dirname, "..")));
  rows = [];
  let id = 0;
  // A busy afternoon: 1500 tickets in three hours of 5 March, ten of them at one same instant.
  for (let i = 0; i < 1500; i++) rows.push(row(++id, Date.UTC(2026, 2, 5, 14) + (i < 10 ? 0 : i * 7_000), i % 4 ? "closed" : "open"));
  // Sparse weeks: one ticket every 23 hours from 1 March to mid-April (some after the period).
  for (let t = T0 + 30 * 60_000; t < T0 + 45 * 24 * HOUR; t += 23 * HOUR) rows.push(row(++id, t, "pending"));
  // Deleted rows and rows before the period are never read.
  for (let i = 0; i < 50; i++) rows.push(row(++id, Date.UTC(2026, 2, 6) + i * HOUR, "closed", true));
  for (let i = 0; i < 20; i++) rows.push(row(++id, Date.UTC(2026, 1, 20) + i * HOUR, "closed"));
  const table = ticketsTable(data.forTenant(TENANT));
  for (let i = 0; i < rows.length; i += 500) await table.upsertMany(rows.slice(i, i + 500));
  // Another tenant's rows in the same hours stay out.
  await ticketsTable(data.forTenant(TENANT + 1)).upsertMany(rows.slice(0, 300).map((r) => ({ ...r, id: r.id + 100_000 })));
});

afterAll(async () => {
  await data?.close();
  await db?.drop();
});

describe("reading the projection by batches of hours", () => {
  it("yields the whole selection newest first (ties by id), with its filters, on MariaDB", async () => {
    const table = ticketsTable(data.forTenant(TENANT));
    for (const f of [{ period: march() }, { period: march(), status: ["closed" as const] }, { period: march("2025-05-01", "2026-04-30") }]) {
      const ids = await collect(allRows(table, f, 100));
      expect(ids).toEqual(expected(f));
      expect(ids.length).toBeGreaterThan(f.status ? 1000 : 1500);
    }
  });

  it("pages newest first: the pages joined are the selection, hasMore until the last", async () => {
    for (const f of [{ period: march() }, { period: march(), status: ["closed" as const] }]) {
      const table = ticketsTable(data.forTenant(TENANT));
      const got: number[] = [];
      for (let page = 1; ; page++) {
        const r = await pageOf(table, f, page, 50);
        got.push(...r.rows.map((x) => x.id));
        if (!r.hasMore) break;
        expect(r.rows.length).toBe(50);
      }
      expect(got).toEqual(expected(f));
      expect((await pageOf(table, f, 200, 50)).rows).toEqual([]);
    }
  });

  it("finds a search's tickets over the period, and nothing for an empty search", async () => {
    const f = { period: march(), ids: [3, 1499, 1600, 1700, 1, 999_999] };
    const table = ticketsTable(data.forTenant(TENANT));
    expect((await pageOf(table, f, 1, 50)).rows.map((r) => r.id)).toEqual(expected(f));
    expect(await collect(allRows(table, { period: march(), ids: [] }))).toEqual([]);
    expect((await pageOf(table, { period: march(), ids: [] }, 1, 50)).rows).toEqual([]);
  });
});
