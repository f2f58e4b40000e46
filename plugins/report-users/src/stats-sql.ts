/**
 * The per-user figures counted by the database: one query grouped by attendant and status over
 * the period's rows (`createdAt` in range, on the projection's (deleted, createdAt, …) index),
 * fed to StatsBuilder a group at a time instead of a row at a time. The figures are those of
 * adding the rows one by one (stats.ts, the reference: stats-sql.test.ts compares them on both
 * engines). A resolved ticket's time is max(0, closedAt − createdAt), 0 when closedAt is
 * missing: the sum takes the positive spans only, and a group with any span not positive
 * (null included: the count of positive ones falls short) has 0 as its shortest.
 */
import type { TenantTable, Where } from "@openatende/plugin-sdk";
import { StatsBuilder, type StatsFilters } from "./stats";
import type { UserTicketRow } from "./projection";

const span = { diff: ["closedAt", "createdAt"] as [string, string] };

export function rangeWhereOf(f: StatsFilters): Where {
  return { deleted: false, createdAt: { gte: f.period.start, lt: f.period.end }, ...(f.queueIds?.length ? { queueId: f.queueIds } : {}) };
}

/** A StatsBuilder holding the period's tickets, counted in one query. */
export async function statsInSql(table: TenantTable<UserTicketRow>, f: StatsFilters): Promise<StatsBuilder> {
  const groups = await table.aggregate({
    where: rangeWhereOf(f),
    groupBy: ["userId", "status"],
    measures: { n: { count: true }, positive: { count: span, range: { gt: 0 } }, sum: { sum: span, range: { gt: 0 } }, min: { min: span }, max: { max: span } },
  });
  const b = new StatsBuilder();
  for (const g of groups) {
    const n = g.n as number;
    const positive = g.positive as number;
    const closed = g.status === "closed" ? { min: positive < n ? 0 : (g.min as number), max: Math.max(0, (g.max as number | null) ?? 0), sum: (g.sum as number | null) ?? 0 } : null;
    b.addGroup(g.userId === null ? null : Number(g.userId), g.status as string, n, closed);
  }
  return b;
}
