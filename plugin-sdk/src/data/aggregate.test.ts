/**
 * Range conditions and grouped aggregates on a real SQLite file and a real MariaDB database:
 * the figures equal the same ones counted in JS over the rows, stay inside the tenant, and
 * names that are not the table's own never reach SQL.
 */
import type { PluginData, PluginMigration } from "./contract";
import { PluginDataError } from "./errors";
import { openPluginDataAt } from "./open";
import { runPluginMigrations } from "./migrate";
import { testPluginDatabase, TestPluginDatabase } from "./testing";

type TicketRow = { id: number; status: string; userId: number | null; createdAt: number; closedAt: number | null; at: Date | null; note: unknown };

const migrations: PluginMigration[] = [
  {
    name: "0001-tickets",
    async up(schema) {
      await schema.createTable("tickets", {
        columns: {
          id: { type: "integer" },
          status: { type: "string", length: 16 },
          userId: { type: "integer", nullable: true },
          createdAt: { type: "bigint" },
          closedAt: { type: "bigint", nullable: true },
          at: { type: "datetime", nullable: true },
          note: { type: "json", nullable: true },
        },
        primaryKey: ["id"],
        indexes: [{ columns: ["createdAt", "status"] }],
      });
    },
  },
];

const BASE = 1_700_000_000_000;
/** Varied rows: statuses, users (and none), spans negative, zero, long, and closings missing. */
function rowsFor(seed: number): TicketRow[] {
  const out: TicketRow[] = [];
  for (let i = 1; i <= 120; i++) {
    const status = ["open", "pending", "closed", "closed", "group"][(i * seed) % 5];
    const createdAt = BASE + ((i * 7919 * seed) % 86_400) * 1000;
    const span = [-5000, 0, 60_000, 3_600_000, 7_200_000 + i][(i + seed) % 5];
    const closedAt = status === "closed" ? (i % 11 === 0 ? null : createdAt + span) : null;
    out.push({ id: i, status, userId: i % 4 === 0 ? null : (i % 3) + 1, createdAt, closedAt, at: new Date(createdAt), note: null });
  }
  return out;
}

describe.each(["sqlite", "mysql"] as const)("plugin data aggregates on %s", (dialect) => {
  let db: TestPluginDatabase;
  let data: PluginData;
  const rows = rowsFor(3);
  const table = (tenantId: number) => data.forTenant(tenantId).table<TicketRow>("tickets");

  beforeAll(async () => {
    db = await testPluginDatabase(dialect);
    data = await openPluginDataAt(db.address);
    await runPluginMigrations(data, migrations);
    await table(1).upsertMany(rows);
    // Another tenant's rows, same ids: never in tenant 1's figures.
    await table(2).upsertMany(rowsFor(7).map((r) => ({ ...r, status: "closed", closedAt: r.createdAt + 1 })));
  });
  afterAll(async () => {
    await data?.close();
    await db?.drop();
  });

  it("selects by ranges (gt, gte, lt, lte, also on datetimes), with the plain forms beside them", async () => {
    const from = BASE + 20_000_000;
    const to = BASE + 60_000_000;
    const found = await table(1).find({ createdAt: { gte: from, lt: to }, status: ["open", "closed"] }, { orderBy: [["id", "asc"]] });
    const expected = rows.filter((r) => r.createdAt >= from && r.createdAt < to && ["open", "closed"].includes(r.status)).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(5);
    expect(found.map((r) => r.id)).toEqual(expected);
    expect(await table(1).count({ createdAt: { gt: from, lte: to } })).toBe(rows.filter((r) => r.createdAt > from && r.createdAt <= to).length);
    expect(await table(1).count({ at: { lt: new Date(from) } })).toBe(rows.filter((r) => r.createdAt < from).length);
    // null never falls in a range
    expect(await table(1).count({ closedAt: { gte: 0 } })).toBe(rows.filter((r) => r.closedAt !== null).length);
    expect(await table(1).delete({ createdAt: { lt: 0 } })).toBe(0);
  });

  it("refuses a range with no bound or an unknown one, and one on a json or boolean column", async () => {
    await expect(table(1).find({ createdAt: {} })).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_VALUE" });
    await expect(table(1).find({ createdAt: { from: 1 } as never })).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_VALUE" });
    await expect(table(1).find({ note: { gt: 1 } })).rejects.toMatchObject({ code: "ERR_PLUGIN_DATA_VALUE" });
    await expect(table(1).find({ createdAt: { gt: "x" } })).rejects.toBeInstanceOf(PluginDataError);
  });

  it("groups and measures as JS over the same rows: counts, filtered counts, sums, mins and maxes of columns and differences", async () => {
    const hour = 3_600_000;
    const got = await table(1).aggregate({
      where: { createdAt: { gte: BASE } },
      groupBy: ["userId", "status"],
      measures: {
        n: { count: true },
        withClosing: { count: "closedAt" },
        long: { count: { diff: ["closedAt", "createdAt"] }, range: { gte: hour } },
        mid: { count: { diff: ["closedAt", "createdAt"] }, range: { gt: 0, lt: hour } },
        positive: { sum: { diff: ["closedAt", "createdAt"] }, range: { gt: 0 } },
        shortest: { min: { diff: ["closedAt", "createdAt"] } },
        longest: { max: { diff: ["closedAt", "createdAt"] } },
        firstCreated: { min: "createdAt", where: { status: "closed" } },
        lastCreated: { max: "createdAt" },
      },
    });
    const key = (u: number | null, s: string) => `${u}|${s}`;
    const groups = new Map<string, TicketRow[]>();
    for (const r of rows) groups.set(key(r.userId, r.status), [...(groups.get(key(r.userId, r.status)) ?? []), r]);
    expect(got.map((g) => key(g.userId as number | null, g.status as string)).sort()).toEqual([...groups.keys()].sort());
    const spans = (rs: TicketRow[]) => rs.filter((r) => r.closedAt !== null).map((r) => r.closedAt! - r.createdAt);
    const orNull = (xs: number[], f: (...v: number[]) => number) => (xs.length ? f(...xs) : null);
    for (const g of got) {
      const rs = groups.get(key(g.userId as number | null, g.status as string))!;
      const s = spans(rs);
      expect(g).toEqual({
        userId: g.userId,
        status: g.status,
        n: rs.length,
        withClosing: s.length,
        long: s.filter((x) => x >= hour).length,
        mid: s.filter((x) => x > 0 && x < hour).length,
        positive: orNull(s.filter((x) => x > 0), (...v) => v.reduce((a, b) => a + b, 0)),
        shortest: orNull(s, Math.min),
        longest: orNull(s, Math.max),
        firstCreated: orNull(rs.filter((r) => r.status === "closed").map((r) => r.createdAt), Math.min),
        lastCreated: Math.max(...rs.map((r) => r.createdAt)),
      });
    }
    // groups come in ascending order of their columns (nulls first on both engines)
    expect(got.map((g) => g.userId)).toEqual([...got.map((g) => g.userId)].sort((a, b) => (a === null ? -1 : b === null ? 1 : (a as number) - (b as number))));
  });

  it("answers one row of zeros and nulls without groupBy, and no rows by groups, when nothing matches; another tenant's rows never count", async () => {
    const measures = { n: { count: true as const }, s: { sum: "createdAt" } };
    expect(await table(1).aggregate({ where: { createdAt: { lt: 0 } }, measures })).toEqual([{ n: 0, s: null }]);
    expect(await table(1).aggregate({ where: { createdAt: { lt: 0 } }, groupBy: ["status"], measures })).toEqual([]);
    expect(await table(3).aggregate({ measures })).toEqual([{ n: 0, s: null }]);
    const [all] = await table(1).aggregate({ measures: { n: { count: true }, closed: { count: true, where: { status: "closed" } } } });
    expect(all).toEqual({ n: rows.length, closed: rows.filter((r) => r.status === "closed").length });
  });

  it("keeps names out of SQL: unknown or tenant columns, non-numeric operands, bad measures", async () => {
    const bad = async (q: unknown) => expect(table(1).aggregate(q as never)).rejects.toBeInstanceOf(PluginDataError);
    await bad({ groupBy: ["nope"], measures: { n: { count: true } } });
    await bad({ groupBy: ["tenantId"], measures: { n: { count: true } } });
    await bad({ groupBy: ["status; DROP TABLE tickets"], measures: { n: { count: true } } });
    await bad({ groupBy: ["note"], measures: { n: { count: true } } });
    await bad({ measures: {} });
    await bad({ measures: { n: { sum: "status" } } });
    await bad({ measures: { n: { sum: "tenantId" } } });
    await bad({ measures: { n: { sum: { diff: ["closedAt", "1) OR (1"] } } } });
    await bad({ measures: { n: { count: true, sum: "createdAt" } } });
    await bad({ measures: { n: { avg: "createdAt" } } });
    await bad({ measures: { n: { count: true, range: { gt: 1 } } } });
    await bad({ measures: { n: { count: "createdAt", range: { gt: "1" } } } });
    await bad({ groupBy: ["status"], measures: { status: { count: true } } });
    await bad({ measures: { n: { count: true, where: { nope: 1 } } } });
    expect(await table(1).count()).toBe(rows.length);
  });
});
