/**
 * The summary cards counted by the database: one grouped query by status over the period's
 * rows (`createdAt` in range, on the projection's (deleted, createdAt, …) index), instead of
 * reading every row into `summarize`. The figures are `summarize`'s (query.ts, the reference:
 * summary-sql.test.ts compares them on both engines):
 *
 * - a closed ticket's resolution is max(0, closedAt − createdAt), 0 when closedAt is missing:
 *   attention and overdue are ranges of closedAt − createdAt (null and ≤ 0 fall in neither),
 *   onTime the rest; the mean sums only the positive spans;
 * - a ticket in progress is classed by its age at `now`: ranges of createdAt (age ≤ green ⇔
 *   createdAt ≥ now − green), and its next change is the earliest createdAt of a class plus
 *   that class's threshold.
 */
import type { Measure, TenantTable, Where } from "@openatende/plugin-sdk";
import { ratio, type SlaThresholds } from "@openatende/report-kit";
import { summarize, type TicketFilters, type TicketSummary } from "./query";
import type { TicketRow } from "./projection";

const MIN = 60_000;

/** The period's rows and the filters, by range on createdAt (not the batched read's hours). */
export function rangeWhereOf(f: TicketFilters): Where {
  const w: Where = { deleted: false, createdAt: { gte: f.period.start, lt: f.period.end } };
  if (f.status?.length) w.status = f.status;
  if (f.queueIds?.length) w.queueId = f.queueIds;
  if (f.userIds?.length) w.userId = f.userIds;
  if (f.ids) w.id = f.ids;
  return w;
}

const span = { diff: ["closedAt", "createdAt"] as [string, string] };

/** The measures of the SLA classes (createdAt bounds as whole ms: createdAt is an integer column). */
function slaMeasures(sla: SlaThresholds, now: number): Record<string, Measure> {
  const g = sla.green * MIN;
  const r = sla.red * MIN;
  // age = now − createdAt; age ≤ g ⇔ createdAt ≥ now − g; g < age < r ⇔ now − r < createdAt < now − g
  const onTimeFrom = Math.ceil(now - g);
  const attention = { createdAt: { gt: Math.floor(now - r), lt: Math.ceil(now - g) } };
  return {
    closedAttention: { count: span, range: { gt: g, lt: r } },
    closedOverdue: { count: span, range: { gte: r } },
    ageAttention: { count: true, where: attention },
    ageOverdue: { count: true, where: { createdAt: { lte: Math.floor(now - r) } } },
    firstOnTime: { min: "createdAt", where: { createdAt: { gte: onTimeFrom } } },
    firstAttention: { min: "createdAt", where: attention },
  };
}

/** The cards of `f` at `now`, counted in one query. */
export async function summaryInSql(table: TenantTable<TicketRow>, f: TicketFilters, sla: SlaThresholds | null, now: number): Promise<TicketSummary> {
  const s = summarize([], sla, now);
  if (f.ids && !f.ids.length) return s;
  const groups = await table.aggregate({
    where: rangeWhereOf(f),
    groupBy: ["status"],
    measures: { n: { count: true }, resolution: { sum: span, range: { gt: 0 } }, ...(sla ? slaMeasures(sla, now) : {}) },
  });
  let resolutionSum = 0;
  const nextOf = (first: unknown, add: number) => (first === null || first === undefined ? null : (first as number) + add);
  for (const g of groups) {
    const n = g.n as number;
    s.total += n;
    if (g.status === "open") s.open += n;
    if (g.status === "pending") s.pending += n;
    const closed = g.status === "closed";
    if (closed) {
      s.closed += n;
      resolutionSum += (g.resolution as number | null) ?? 0;
    } else s.inProgress += n;
    if (!sla) continue;
    const attention = (closed ? g.closedAttention : g.ageAttention) as number;
    const overdue = (closed ? g.closedOverdue : g.ageOverdue) as number;
    const counts = closed ? s.closedSla : s.inProgressSla;
    counts.onTime += n - attention - overdue;
    counts.attention += attention;
    counts.overdue += overdue;
    if (closed) continue;
    for (const next of [nextOf(g.firstOnTime, sla.green * MIN + 1), nextOf(g.firstAttention, sla.red * MIN)]) {
      if (next !== null && (s.nextChangeAt === null || next < s.nextChangeAt)) s.nextChangeAt = next;
    }
  }
  return { ...s, resolutionRate: ratio(s.closed, s.total), avgResolutionMs: s.closed ? Math.round(resolutionSum / s.closed) : null };
}
