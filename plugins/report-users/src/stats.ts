/**
 * The figures of /relatorios/estatisticas-atendimentos-usuarios, per attendant over the
 * tickets opened in the period: pending, in service (open), resolved (closed), total, and the
 * shortest, longest and average service time of the resolved ones (opening to closing, in
 * minutes). Tickets nobody took count under `userId: null`. Pure (StatsBuilder) so the figures
 * are tested by hand and are the reference of the database's count (stats-sql.ts, which the
 * service uses); `periodRows` reads the projection a batch of hours at a time.
 */
import type { TenantTable, Where } from "@openatende/plugin-sdk";
import { batchedRows, formatMinutes, hoursOf, inPeriod, type ReportPeriod } from "@openatende/report-kit";
import { normalise, type UserTicketRow } from "./projection";

export interface StatsFilters {
  period: ReportPeriod;
  queueIds?: number[];
}

export interface Times {
  shortestMs: number | null;
  longestMs: number | null;
  averageMs: number | null;
  /** The same in minutes as a pt-BR reader writes them ("20,00"; "" when nothing was resolved). */
  text: { shortest: string; longest: string; average: string };
}

export interface UserStats extends Times {
  userId: number | null;
  name: string;
  pending: number;
  open: number;
  closed: number;
  total: number;
}

class Tally {
  pending = 0;
  open = 0;
  closed = 0;
  total = 0;
  private min = Infinity;
  private max = -Infinity;
  private sum = 0;

  add(r: Pick<UserTicketRow, "status" | "createdAt" | "closedAt">): void {
    this.total++;
    if (r.status === "pending") this.pending++;
    else if (r.status === "open") this.open++;
    else if (r.status === "closed") {
      this.closed++;
      const ms = Math.max(0, (r.closedAt ?? r.createdAt) - r.createdAt);
      this.min = Math.min(this.min, ms);
      this.max = Math.max(this.max, ms);
      this.sum += ms;
    }
  }

  /** `n` tickets of one status at once; closed ones with their shortest, longest and summed times (ms, each ≥ 0). */
  addGroup(status: string, n: number, closed: { min: number; max: number; sum: number } | null): void {
    this.total += n;
    if (status === "pending") this.pending += n;
    else if (status === "open") this.open += n;
    else if (status === "closed" && n > 0) {
      this.closed += n;
      if (!closed) throw new Error("a group of resolved tickets comes with its times");
      this.min = Math.min(this.min, closed.min);
      this.max = Math.max(this.max, closed.max);
      this.sum += closed.sum;
    }
  }

  times(): Times {
    const has = this.closed > 0;
    const t = { shortestMs: has ? this.min : null, longestMs: has ? this.max : null, averageMs: has ? Math.round(this.sum / this.closed) : null };
    return { ...t, text: { shortest: formatMinutes(t.shortestMs), longest: formatMinutes(t.longestMs), average: formatMinutes(t.averageMs) } };
  }
}

export class StatsBuilder {
  private readonly byUser = new Map<number | null, Tally>();
  private readonly all = new Tally();

  add(r: Pick<UserTicketRow, "status" | "userId" | "createdAt" | "closedAt">): void {
    let t = this.byUser.get(r.userId);
    if (!t) this.byUser.set(r.userId, (t = new Tally()));
    t.add(r);
    this.all.add(r);
  }

  /** A group the database counted (stats-sql.ts): what adding its `n` rows one by one gives. */
  addGroup(userId: number | null, status: string, n: number, closed: { min: number; max: number; sum: number } | null): void {
    let t = this.byUser.get(userId);
    if (!t) this.byUser.set(userId, (t = new Tally()));
    t.addGroup(status, n, closed);
    this.all.addGroup(status, n, closed);
  }

  /**
   * One line per user of the tenant (those without tickets in the period too, with zeros), by
   * name, then tickets of users the tenant no longer has, then those nobody took.
   */
  rows(users: Array<{ id: number; name: string }>, unassigned: string): UserStats[] {
    const line = (userId: number | null, name: string, t = new Tally()): UserStats => ({ userId, name, pending: t.pending, open: t.open, closed: t.closed, total: t.total, ...t.times() });
    const known = new Set(users.map((u) => u.id));
    const out = [...users].sort((a, b) => a.name.localeCompare(b.name, "pt-BR")).map((u) => line(u.id, u.name, this.byUser.get(u.id)));
    for (const [id, t] of this.byUser) if (id !== null && !known.has(id)) out.push(line(id, `#${id}`, t));
    const none = this.byUser.get(null);
    if (none) out.push(line(null, unassigned, none));
    return out;
  }

  totals(): Omit<UserStats, "userId" | "name"> {
    const t = this.all;
    return { pending: t.pending, open: t.open, closed: t.closed, total: t.total, ...t.times() };
  }
}

/**
 * Every ticket of the period (and queues), a batch of hours a query and at most `chunk` rows a
 * read (report-kit's batched read: no query sorts or skips the period's rows).
 */
export function periodRows(table: TenantTable<UserTicketRow>, f: StatsFilters, chunk = 2000): AsyncGenerator<UserTicketRow> {
  const where: Where = { deleted: false, ...(f.queueIds?.length ? { queueId: f.queueIds } : {}) };
  return batchedRows(table, { where, key: "createdHour", keys: hoursOf(f.period), orderBy: [["createdHour", "asc"], ["id", "asc"]], map: normalise, keep: (r) => inPeriod(f.period, r.createdAt) }, chunk);
}
