/**
 * The report's questions to its projection: which rows a filter selects (an indexed
 * `createdHour IN (…)` plus equality filters, then the exact period), a page of them newest
 * first, all of them one batch of hours at a time (report-kit's batched read: exports and cards
 * never hold every row, and no query sorts or skips the whole period's rows), and the summary
 * cards of spec §2 computed over them (pure: `summarize`, the reference of the count the service
 * asks of the database, summary-sql.ts).
 */
import type { TenantTable, Where } from "@openatende/plugin-sdk";
import { batchedPage, batchedRows, emptySlaCounts, hoursOf, inPeriod, nextSlaChange, ratio, ticketSla, type BatchedSelection, type ReportPeriod, type SlaClass, type SlaThresholds } from "@openatende/report-kit";
import { fromDb, type TicketRow, type TicketStatus } from "./projection";

export interface TicketFilters {
  period: ReportPeriod;
  status?: TicketStatus[];
  queueIds?: number[];
  userIds?: number[];
  /** The tickets a search found (an empty list: none); absent when nobody searched. */
  ids?: number[];
}

const ORDER: Array<[string, "asc" | "desc"]> = [
  ["createdAt", "desc"],
  ["id", "desc"],
];

export function whereOf(f: TicketFilters): Where {
  const w: Where = { deleted: false, createdHour: hoursOf(f.period) };
  if (f.status?.length) w.status = f.status;
  if (f.queueIds?.length) w.queueId = f.queueIds;
  if (f.userIds?.length) w.userId = f.userIds;
  if (f.ids) w.id = f.ids;
  return w;
}

/** The selection cut into batches of hours, newest first (report-kit's batched read). */
function selectionOf(f: TicketFilters): BatchedSelection<TicketRow> {
  // A search names its tickets (at most a thousand): one batch, the whole period.
  return { where: whereOf(f), key: "createdHour", keys: hoursOf(f.period).reverse(), orderBy: ORDER, map: fromDb, keep: (r) => inPeriod(f.period, r.createdAt), oneBatch: !!f.ids };
}

/** One page (1-based) of the selected rows, newest first; earlier pages' batches are counted, not read. */
export async function pageOf(table: TenantTable<TicketRow>, f: TicketFilters, page: number, limit: number): Promise<{ rows: TicketRow[]; hasMore: boolean }> {
  if (f.ids && !f.ids.length) return { rows: [], hasMore: false };
  return batchedPage(table, selectionOf(f), page, limit);
}

/** Every selected row, newest first, read at most `chunk` rows a query. */
export async function* allRows(table: TenantTable<TicketRow>, f: TicketFilters, chunk = 1000): AsyncGenerator<TicketRow> {
  if (f.ids && !f.ids.length) return;
  yield* batchedRows(table, selectionOf(f), chunk);
}

export interface TicketSummary {
  total: number;
  open: number;
  pending: number;
  /** Not closed yet: open, pending, with a bot or a group. */
  inProgress: number;
  closed: number;
  /** closed / total (0..1, 4 decimals); null with no tickets. */
  resolutionRate: number | null;
  /** The thresholds counted against (minutes); null when the settings do not say them. */
  sla: SlaThresholds | null;
  /** Closed tickets by their resolution time. */
  closedSla: Record<SlaClass, number>;
  /** Tickets in progress by their age now: they move as the clock passes the thresholds. */
  inProgressSla: Record<SlaClass, number>;
  /** Mean creation-to-closing time of the closed ones, in ms (null: none closed). */
  avgResolutionMs: number | null;
  /** When the next ticket in progress changes class (epoch ms; null: none will). */
  nextChangeAt: number | null;
  /** The clock the classes were counted at. */
  at: number;
}

export class SummaryBuilder {
  private s: TicketSummary;
  private resolutionSum = 0;

  constructor(
    private readonly sla: SlaThresholds | null,
    private readonly now: number,
  ) {
    this.s = { total: 0, open: 0, pending: 0, inProgress: 0, closed: 0, resolutionRate: null, sla, closedSla: emptySlaCounts(), inProgressSla: emptySlaCounts(), avgResolutionMs: null, nextChangeAt: null, at: now };
  }

  add(r: Pick<TicketRow, "status" | "createdAt" | "closedAt">): void {
    const s = this.s;
    s.total++;
    if (r.status === "open") s.open++;
    if (r.status === "pending") s.pending++;
    const closed = r.status === "closed";
    if (closed) {
      s.closed++;
      this.resolutionSum += Math.max(0, (r.closedAt ?? r.createdAt) - r.createdAt);
    } else s.inProgress++;
    if (!this.sla) return;
    const t = { createdAt: r.createdAt, closedAt: closed ? (r.closedAt ?? r.createdAt) : null };
    const cls = ticketSla(t, this.sla, this.now);
    (closed ? s.closedSla : s.inProgressSla)[cls]++;
    const next = nextSlaChange(t, this.sla, this.now);
    if (next !== null && (s.nextChangeAt === null || next < s.nextChangeAt)) s.nextChangeAt = next;
  }

  result(): TicketSummary {
    return { ...this.s, resolutionRate: ratio(this.s.closed, this.s.total), avgResolutionMs: this.s.closed ? Math.round(this.resolutionSum / this.s.closed) : null };
  }
}

/** The cards over a list of rows (tests, and the route through allRows). */
export function summarize(rows: Iterable<Pick<TicketRow, "status" | "createdAt" | "closedAt">>, sla: SlaThresholds | null, now: number): TicketSummary {
  const b = new SummaryBuilder(sla, now);
  for (const r of rows) b.add(r);
  return b.result();
}
