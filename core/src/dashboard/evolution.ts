import { AppError } from "../errors/app-error";
import { call, type Caller } from "../bus/call";

/** The longest period the evolution covers (days). */
export const EVOLUTION_MAX_DAYS = 92;
const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Minutes to add to UTC to get the wall clock of `timeZone` at `at` (−180 for São Paulo). */
export function tzOffsetMinutes(timeZone: string, at: Date): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(at);
  } catch {
    return 0;
  }
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** The dates from `from` to `to` inclusive ("YYYY-MM-DD"). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

export interface EvolutionQuery {
  tenantId: number;
  timezone: string;
  /** Local dates "YYYY-MM-DD"; default: the last 7 days up to today. */
  dateFrom?: string;
  dateTo?: string;
  /** An agent's scope: their own tickets and their queues' (null: the whole tenant). */
  mine: { userId: number; queues: number[] } | null;
}

/**
 * Day by day over a period in the tenant's time zone: tickets created (per connection, group
 * chats left out) and resolved, and the time from creation to resolution per user. The
 * grouped counts are the tickets service's (tickets.dailyCounts), the connections' names the
 * connections service's.
 */
export async function ticketEvolution(ctx: Caller, q: EvolutionQuery) {
  const offset = tzOffsetMinutes(q.timezone, new Date());
  const today = new Date(Date.now() + offset * 60_000).toISOString().slice(0, 10);
  const valid = (field: string, v: string) => {
    if (!DATE.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) throw new AppError("ERR_VALIDATION", { field, rule: "date" });
    return v;
  };
  const to = valid("dateTo", q.dateTo ?? today);
  const from = valid("dateFrom", q.dateFrom ?? new Date(Date.parse(`${to}T00:00:00Z`) - 6 * DAY_MS).toISOString().slice(0, 10));
  const fromMs = Date.parse(`${from}T00:00:00Z`);
  const toMs = Date.parse(`${to}T00:00:00Z`);
  if (fromMs > toMs) throw new AppError("ERR_VALIDATION", { field: "dateFrom", reason: "after dateTo" });
  if ((toMs - fromMs) / DAY_MS + 1 > EVOLUTION_MAX_DAYS) throw new AppError("ERR_VALIDATION", { field: "dateFrom", reason: `more than ${EVOLUTION_MAX_DAYS} days` });
  const start = new Date(fromMs - offset * 60_000);
  const end = new Date(toMs + DAY_MS - offset * 60_000);
  const counts = await call(ctx, "tickets.dailyCounts", { tenantId: q.tenantId, start: start.toISOString(), end: end.toISOString(), offsetMinutes: offset, mine: q.mine });
  const { created, closed: closedDaily, byUser: closedByUser } = counts;

  const days = daysBetween(from, to);
  const index = new Map(days.map((d, i) => [d, i]));
  const dayKey = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));
  const daily = days.map((date) => ({ date, created: 0, closed: 0 }));
  const connections = new Map<string, { connectionId: number | null; total: number; daily: number[] }>();
  for (const r of created) {
    const i = index.get(dayKey(r.day));
    if (i === undefined) continue;
    daily[i].created += r.n;
    const key = String(r.connectionId);
    if (!connections.has(key)) connections.set(key, { connectionId: r.connectionId, total: 0, daily: days.map(() => 0) });
    const c = connections.get(key)!;
    c.daily[i] += r.n;
    c.total += r.n;
  }
  for (const r of closedDaily) {
    const i = index.get(dayKey(r.day));
    if (i !== undefined) daily[i].closed += r.n;
  }
  let closed = 0;
  let secs = 0;
  const handle = closedByUser.map((r) => {
    const n = r.n;
    const s = Math.max(0, r.secs);
    closed += n;
    secs += s;
    return { userId: r.userId, closed: n, avgHandleSeconds: n ? Math.round(s / n) : null };
  });

  const ids = [...connections.values()].map((c) => c.connectionId).filter((x): x is number => x !== null);
  const names = ids.length ? await call(ctx, "connections.names", { tenantId: q.tenantId, ids }) : [];
  const byId = new Map(names.map((c) => [Number(c.id), c]));
  return {
    period: { from, to, timezone: q.timezone, days },
    daily,
    byConnection: [...connections.values()]
      .map((c) => ({ ...c, name: c.connectionId === null ? null : (byId.get(c.connectionId)?.name ?? null), type: c.connectionId === null ? null : (byId.get(c.connectionId)?.type ?? null) }))
      .sort((a, b) => b.total - a.total),
    handle: handle.sort((a, b) => b.closed - a.closed),
    avgHandleSeconds: closed ? Math.round(secs / closed) : null,
  };
}
