/**
 * A report's period: `from` and `to` as calendar dates ("YYYY-MM-DD", both inclusive) in the
 * reader's time zone, or with neither the current month there (spec: the tickets report
 * defaults to the current month). It becomes an instant range [start, end) and the hour buckets
 * the projection indexes rows by (`hourOf`: hours since the epoch, so one bucket list serves
 * every whole-hour time zone; a row in a boundary hour is checked against the exact range).
 */
import { PluginError } from "@openatende/plugin-sdk";

export interface ReportPeriod {
  /** The dates as given or defaulted ("2026-11-01", "2026-11-30"). */
  from: string;
  to: string;
  timeZone: string;
  /** Epoch ms: the first instant of `from`, the first instant after `to`. */
  start: number;
  end: number;
}

/** The longest period a report answers (a year and a day: leap years). */
export const MAX_PERIOD_DAYS = 367;
const HOUR = 3_600_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The hour bucket of an instant. */
export const hourOf = (ms: number) => Math.floor(ms / HOUR);

/** The hour buckets that cover [start, end). */
export function hoursOf(p: { start: number; end: number }): number[] {
  const out: number[] = [];
  for (let h = hourOf(p.start); h <= hourOf(p.end - 1); h++) out.push(h);
  return out;
}

export const inPeriod = (p: { start: number; end: number }, ms: number) => ms >= p.start && ms < p.end;

const formats = new Map<string, Intl.DateTimeFormat>();
function parts(ms: number, timeZone: string): { y: number; m: number; d: number; h: number; min: number; s: number } {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    formats.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { y: +p.year, m: +p.month, d: +p.day, h: +p.hour % 24, min: +p.minute, s: +p.second };
}

/**
 * The instant whose UTC reading is the wall clock of `ms` in `timeZone`: what a spreadsheet cell
 * holds so that it shows the reader's local time (Excel dates carry no zone).
 */
export function wallTime(ms: number, timeZone: string): number {
  const p = parts(ms, timeZone);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) + (ms % 1000);
}

/** Is `tz` a time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    parts(0, tz);
    return true;
  } catch {
    return false;
  }
}

/** The first instant of a calendar date in `timeZone`. */
export function startOfDay(y: number, m: number, d: number, timeZone: string): number {
  const wall = Date.UTC(y, m - 1, d);
  let t = wall;
  for (let i = 0; i < 3; i++) {
    const p = parts(t, timeZone);
    const offset = Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - t;
    t = wall - offset;
  }
  return t;
}

/** Today's date in `timeZone` at `now`. */
export function dateIn(now: number, timeZone: string): { y: number; m: number; d: number } {
  const p = parts(now, timeZone);
  return { y: p.y, m: p.m, d: p.d };
}

const iso = (y: number, m: number, d: number) => `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;

function parseDate(s: string): { y: number; m: number; d: number } | null {
  const m = DATE.exec(s);
  if (!m) return null;
  const [y, mo, d] = [+m[1], +m[2], +m[3]];
  const back = new Date(Date.UTC(y, mo - 1, d));
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return { y, m: mo, d };
}

/**
 * The period of a query. Errors are the plugin's `<codePrefix>_PERIOD_INVALID` (400), naming the
 * field: a date that is not one, a zone this runtime does not know, `to` before `from`, or
 * more than MAX_PERIOD_DAYS.
 */
export function reportPeriod(q: { from?: string; to?: string; tz?: string }, now: number, codePrefix: string, defaultZone = "America/Sao_Paulo"): ReportPeriod {
  const bad = (field: string, reason: string) => new PluginError(`${codePrefix}_PERIOD_INVALID`, 400, { field, reason });
  const timeZone = q.tz || defaultZone;
  if (!isTimeZone(timeZone)) throw bad("tz", "zone");
  const today = dateIn(now, timeZone);
  let from = q.from ? parseDate(q.from) : null;
  let to = q.to ? parseDate(q.to) : null;
  if (q.from && !from) throw bad("from", "date");
  if (q.to && !to) throw bad("to", "date");
  if (!from && !to) {
    from = { y: today.y, m: today.m, d: 1 };
    to = { y: today.y, m: today.m, d: new Date(Date.UTC(today.y, today.m, 0)).getUTCDate() };
  } else if (!from) {
    from = { y: to!.y, m: to!.m, d: 1 };
  } else if (!to) {
    to = { y: from.y, m: from.m, d: new Date(Date.UTC(from.y, from.m, 0)).getUTCDate() };
  }
  const days = (Date.UTC(to!.y, to!.m - 1, to!.d) - Date.UTC(from.y, from.m - 1, from.d)) / 86_400_000;
  if (days < 0) throw bad("to", "beforeFrom");
  if (days + 1 > MAX_PERIOD_DAYS) throw bad("to", "tooLong");
  const next = new Date(Date.UTC(to!.y, to!.m - 1, to!.d + 1));
  return {
    from: iso(from.y, from.m, from.d),
    to: iso(to!.y, to!.m, to!.d),
    timeZone,
    start: startOfDay(from.y, from.m, from.d, timeZone),
    end: startOfDay(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone),
  };
}
