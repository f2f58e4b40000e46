/**
 * The cards counted by the database equal `summarize` over the same rows, on SQLite and
 * MariaDB (the plugin's own migrations): every status, resolutions negative, zero, missing,
 * on each threshold and past it, ages on each side of the thresholds at `now`, tickets created
 * after `now`, deleted rows, rows outside the period, the filters, and another tenant's rows.
 */
import * as path from "node:path";
import { loadPluginMigrations, openPluginDataAt, runPluginMigrations, testPluginDatabase, type PluginData, type TestPluginDatabase } from "@openatende/plugin-sdk";
import { hourOf, reportPeriod, type SlaThresholds } from "@openatende/report-kit";
import { summarize, type TicketFilters } from "./query";
import { ticketsTable, TICKET_STATUSES, type TicketRow } from "./projection";
import { summaryInSql } from "./summary-sql";

jest.setTimeout(120_000);

const MIN = 60_000;
const NOW = Date.UTC(2026, 2, 20, 12);
const TENANT = 5;
const SLA: SlaThresholds = { green: 15, yellow: 30, red: 60 };
const ODD_SLA: SlaThresholds = { green: 0.5, yellow: 1.25, red: 2.75 };

function dataset(): TicketRow[] {
  const rows: TicketRow[] = [];
  // Spans around each threshold (exactly on it, a ms before and after), and odd ones.
  const spans = [-5_000, 0, 1, 30_000, 15 * MIN - 1, 15 * MIN, 15 * MIN + 1, 45 * MIN, 60 * MIN - 1, 60 * MIN, 60 * MIN + 1, 5 * 24 * 60 * MIN, 45_000, 90_000, 165_000];
  let id = 0;
  for (let i = 0; i < 900; i++) {
    const status = TICKET_STATUSES[i % TICKET_STATUSES.length];
    // Ages at NOW around the thresholds too, some created after NOW.
    const createdAt = i % 7 === 0 ? NOW - spans[i % spans.length] : NOW - ((i * 7_919_993) % (20 * 24 * 60 * MIN)) + 1_000;
    const closedAt = status === "closed" ? (i % 13 === 0 ? null : createdAt + spans[Math.floor(i / 5) % spans.length]) : null;
    rows.push({ id: ++id, protocol: null, status, contactId: i, contactName: "", contactNumber: null, queueId: i % 5 === 0 ? null : i % 3, userId: i % 4 === 0 ? null : i % 6, createdAt, closedAt, createdHour: hourOf(createdAt), version: 1, deleted: i % 29 === 0 });
  }
  return rows;
}

describe.each(["sqlite", "mysql"] as const)("summary cards counted on %s", (dialect) => {
  let db: TestPluginDatabase;
  let data: PluginData;
  const rows = dataset();
  const table = () => ticketsTable(data.forTenant(TENANT));

  beforeAll(async () => {
    db = await testPluginDatabase(dialect);
    data = await openPluginDataAt(db.address);
    await runPluginMigrations(data, loadPluginMigrations(path.join(__dirname, "..")));
    await table().upsertMany(rows);
    await ticketsTable(data.forTenant(TENANT + 1)).upsertMany(rows.map((r) => ({ ...r, status: "open" as const, deleted: false })));
  });
  afterAll(async () => {
    await data?.close();
    await db?.drop();
  });

  const period = (from: string, to: string) => reportPeriod({ from, to, tz: "America/Sao_Paulo" }, NOW, "ERR_X");
  const reference = (f: TicketFilters, sla: SlaThresholds | null, now: number) =>
    summarize(
      rows.filter((r) => !r.deleted && r.createdAt >= f.period.start && r.createdAt < f.period.end && (!f.status?.length || f.status.includes(r.status)) && (!f.queueIds?.length || f.queueIds.includes(r.queueId!)) && (!f.userIds?.length || f.userIds.includes(r.userId!)) && (!f.ids || f.ids.includes(r.id))),
      sla,
      now,
    );

  const cases: Array<[string, TicketFilters, SlaThresholds | null, number]> = [
    ["the whole month", { period: period("2026-03-01", "2026-03-31") }, SLA, NOW],
    ["a week, at a later clock", { period: period("2026-03-10", "2026-03-17") }, SLA, NOW + 37 * MIN + 123],
    ["thresholds of fractions of a minute", { period: period("2026-03-01", "2026-03-31") }, ODD_SLA, NOW + 7],
    ["no SLA in the settings", { period: period("2026-03-01", "2026-03-31") }, null, NOW],
    ["statuses, queues and users", { period: period("2026-03-01", "2026-03-31"), status: ["open", "closed", "chatbot"], queueIds: [1, 2], userIds: [1, 2, 3, 5] }, SLA, NOW],
    ["a search's tickets", { period: period("2026-03-01", "2026-03-31"), ids: [7, 14, 21, 22, 23, 100, 101, 500] }, SLA, NOW],
    ["a search that found nothing", { period: period("2026-03-01", "2026-03-31"), ids: [] }, SLA, NOW],
    ["a period with no tickets", { period: period("2025-01-01", "2025-01-31") }, SLA, NOW],
  ];

  it.each(cases)("equals summarize for %s", async (_name, f, sla, now) => {
    const want = reference(f, sla, now);
    if (!f.ids && f.period.start > Date.UTC(2026, 0, 1)) expect(want.total).toBeGreaterThan(10);
    expect(await summaryInSql(table(), f, sla, now)).toEqual(want);
  });

  it("covers every class: the dataset is not one where the classes could all be zero", () => {
    const s = reference(cases[0][1], SLA, NOW);
    for (const counts of [s.closedSla, s.inProgressSla]) expect(Object.values(counts).every((n) => n > 0)).toBe(true);
    expect(s.pending * s.open * (s.total - s.closed - s.open - s.pending)).toBeGreaterThan(0);
    expect(s.nextChangeAt).not.toBeNull();
  });
});
