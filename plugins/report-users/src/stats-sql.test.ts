/**
 * The per-user figures counted by the database equal StatsBuilder fed row by row, on SQLite
 * and MariaDB (the plugin's own migrations): every status, attendants and none, resolution
 * times negative, zero, missing and long, deleted rows, rows outside the period, the queue
 * filter, and another tenant's rows.
 */
import * as path from "node:path";
import { loadPluginMigrations, openPluginDataAt, runPluginMigrations, testPluginDatabase, type PluginData, type TestPluginDatabase } from "@openatende/plugin-sdk";
import { hourOf, reportPeriod } from "@openatende/report-kit";
import { StatsBuilder, type StatsFilters } from "./stats";
import { statsInSql } from "./stats-sql";
import { ticketRows, type UserTicketRow } from "./projection";

jest.setTimeout(120_000);

const MIN = 60_000;
const NOW = Date.UTC(2026, 2, 31, 12);
const TENANT = 8;
const STATUSES = ["open", "pending", "closed", "closed", "group", "chatbot"] as const;
const USERS = [
  { id: 1, name: "Ana" },
  { id: 2, name: "Bia" },
  { id: 3, name: "Caio" },
  { id: 4, name: "Davi" },
];

function dataset(): UserTicketRow[] {
  const spans = [-5_000, 0, 1, 20 * MIN, 45 * MIN, 150 * MIN, 3 * 24 * 60 * MIN + 17, 59_999];
  const rows: UserTicketRow[] = [];
  for (let i = 1; i <= 800; i++) {
    const status = STATUSES[i % STATUSES.length];
    const createdAt = Date.UTC(2026, 2, 1) + ((i * 7_919_993) % (35 * 24 * 60 * MIN));
    const userId = i % 7 === 0 ? null : [1, 2, 3, 9][i % 4];
    // User 3's resolved tickets all take a positive time: its shortest is not 0.
    const k = Math.floor(i / 6) % spans.length;
    const closedAt = status === "closed" ? (userId !== 3 && i % 17 === 0 ? null : createdAt + (userId === 3 ? Math.abs(spans[k]) + 1 : spans[k])) : null;
    rows.push({ id: i, status, userId, queueId: i % 5 === 0 ? null : i % 3, createdAt, closedAt, createdHour: hourOf(createdAt), version: 1, deleted: i % 31 === 0 } as UserTicketRow);
  }
  return rows;
}

describe.each(["sqlite", "mysql"] as const)("per-user figures counted on %s", (dialect) => {
  let db: TestPluginDatabase;
  let data: PluginData;
  const rows = dataset();
  const table = () => ticketRows(data.forTenant(TENANT));

  beforeAll(async () => {
    db = await testPluginDatabase(dialect);
    data = await openPluginDataAt(db.address);
    await runPluginMigrations(data, loadPluginMigrations(path.join(__dirname, "..")));
    await table().upsertMany(rows);
    await ticketRows(data.forTenant(TENANT + 1)).upsertMany(rows.map((r) => ({ ...r, status: "pending", deleted: false })));
  });
  afterAll(async () => {
    await data?.close();
    await db?.drop();
  });

  const period = (from: string, to: string) => reportPeriod({ from, to, tz: "America/Sao_Paulo" }, NOW, "ERR_X");
  const reference = (f: StatsFilters) => {
    const b = new StatsBuilder();
    for (const r of rows) if (!r.deleted && r.createdAt >= f.period.start && r.createdAt < f.period.end && (!f.queueIds?.length || f.queueIds.includes(r.queueId!))) b.add(r);
    return b;
  };

  it.each([
    ["the whole month", { period: period("2026-03-01", "2026-03-31") }],
    ["a week and two queues", { period: period("2026-03-09", "2026-03-15"), queueIds: [0, 2] }],
    ["a day", { period: period("2026-03-12", "2026-03-12") }],
    ["a period with no tickets", { period: period("2025-01-01", "2025-01-31") }],
  ] as Array<[string, StatsFilters]>)("equals StatsBuilder row by row for %s", async (_name, f) => {
    const want = reference(f);
    const got = await statsInSql(table(), f);
    expect(got.rows(USERS, "Sem atendente")).toEqual(want.rows(USERS, "Sem atendente"));
    expect(got.totals()).toEqual(want.totals());
  });

  it("has a dataset where shortest times are 0 for some users and positive for another, and unknown users and nobody", () => {
    const lines = reference({ period: period("2026-03-01", "2026-03-31") }).rows(USERS, "-");
    const byId = new Map(lines.map((l) => [l.userId, l]));
    expect(byId.get(1)!.shortestMs).toBe(0);
    expect(byId.get(3)!.shortestMs).toBeGreaterThan(0);
    expect(byId.get(9)!.closed).toBeGreaterThan(0);
    expect(byId.get(null)!.total).toBeGreaterThan(0);
    expect(byId.get(4)!.total).toBe(0);
  });
});
