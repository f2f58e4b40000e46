/**
 * The report's questions to its projection: which rows a filter selects (an indexed
 * `createdHour IN (…)` plus equality filters, then the exact period), a page of them newest
 * first, all of them one batch of hours at a time (exports and cards never hold every row, and
 * no query sorts or skips the whole period's rows), and the summary cards of spec §2 computed
 * over them (pure: `summarize`).
 */
import type { TenantTable, Where } from "@openatende/plugin-sdk";
import { emptySlaCounts, hoursOf, inPeriod, nextSlaChange, ratio, ticketSla, type ReportPeriod, type SlaClass, type SlaThresholds } from "@openatende/report-kit";
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

/**
 * The selection's hours, newest first, a batch at a time: each query reads one batch of hours
 * (`createdHour IN (batch)`), so its sort and its OFFSET cover that batch's rows only, never
 * the whole period's (an OFFSET over the period re-sorts every row before it on each page:
 * quadratic in the period's rows). A batch that came back thin doubles the next one (a sparse
 * year takes a few queries), one that needed more than a page halves it (a busy day stays small).
 * Hours are disjoint and a row's hour follows from its createdAt, so batch after batch, each
 * sorted, is the newest-first order of the whole selection.
 */
const FIRST_BATCH_HOURS = 6;
const MAX_BATCH_HOURS = 24 * 32;

class HourBatches {
  private readonly hours: number[];
  private next = 0;
  private size = FIRST_BATCH_HOURS;

  constructor(f: TicketFilters) {
    // A search names its tickets (at most a thousand): one batch, the whole period.
    this.hours = hoursOf(f.period).reverse();
    if (f.ids) this.size = this.hours.length;
  }

  /** The next batch of hours (undefined: the period is done). */
  take(): number[] | undefined {
    if (this.next >= this.hours.length) return undefined;
    const batch = this.hours.slice(this.next, this.next + this.size);
    this.next += batch.length;
    return batch;
  }

  /** The next batch starts at the hour after (older than) `hour`, one of the last batch's. */
  resumeAfter(hour: number): void {
    this.next = this.hours[0] - hour + 1;
  }

  /** What the last batch held, against the page size the reader wants. */
  saw(rows: number, page: number): void {
    if (rows < page / 4) this.size = Math.min(MAX_BATCH_HOURS, this.size * 2);
    else if (rows > page) this.size = Math.max(1, Math.floor(this.size / 2));
  }
}

/** One page (1-based) of the selected rows, newest first; earlier pages' batches are counted, not read. */
export async function pageOf(table: TenantTable<TicketRow>, f: TicketFilters, page: number, limit: number): Promise<{ rows: TicketRow[]; hasMore: boolean }> {
  if (f.ids && !f.ids.length) return { rows: [], hasMore: false };
  const w = whereOf(f);
  const batches = new HourBatches(f);
  let skip = (page - 1) * limit;
  const found: TicketRow[] = [];
  for (let hours = batches.take(); hours && found.length <= limit; hours = batches.take()) {
    const where = { ...w, createdHour: hours };
    if (skip > 0) {
      const n = await table.count(where);
      batches.saw(n, limit);
      if (n <= skip) {
        skip -= n;
        continue;
      }
    }
    const rows = await table.find(where, { orderBy: ORDER, limit: limit + 1 - found.length, offset: skip });
    if (skip === 0) batches.saw(rows.length, limit);
    skip = 0;
    found.push(...rows.map(fromDb));
  }
  return { rows: found.slice(0, limit).filter((r) => inPeriod(f.period, r.createdAt)), hasMore: found.length > limit };
}

/**
 * Every selected row, newest first, read at most `chunk` rows a query. A batch with more rows
 * than that goes on from the hour its chunk ended in: that hour alone, then the next batches
 * from the hour after it, so an OFFSET only ever skips rows of one hour (the repository compares
 * by equality: there is no "older than" to continue from).
 */
export async function* allRows(table: TenantTable<TicketRow>, f: TicketFilters, chunk = 1000): AsyncGenerator<TicketRow> {
  if (f.ids && !f.ids.length) return;
  const w = whereOf(f);
  const batches = new HourBatches(f);
  const read = async (hours: number[], offset: number) => (await table.find({ ...w, createdHour: hours }, { orderBy: ORDER, limit: chunk, offset })).map(fromDb);
  const inside = (rows: TicketRow[]) => rows.filter((r) => inPeriod(f.period, r.createdAt));
  for (let hours = batches.take(); hours; hours = batches.take()) {
    const first = await read(hours, 0);
    yield* inside(first);
    batches.saw(first.length < chunk ? first.length : chunk + 1, chunk);
    if (first.length < chunk) continue;
    const lastHour = first[first.length - 1].createdHour;
    for (let offset = first.filter((r) => r.createdHour === lastHour).length; ; offset += chunk) {
      const rows = await read([lastHour], offset);
      yield* inside(rows);
      if (rows.length < chunk) break;
    }
    batches.resumeAfter(lastHour);
  }
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
