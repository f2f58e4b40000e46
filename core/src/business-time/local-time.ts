/**
 * Wall-clock arithmetic in an IANA time zone, through Intl only (no time-zone library).
 *
 * A local calendar date is a day number: days since 1970-01-01 of that wall-clock date, so
 * "the next day" is +1 and the weekday is arithmetic, whatever the offset does. A time of day
 * is minutes since local midnight, 0…1440 (1440 = "24:00", the next day's 00:00).
 *
 * Turning a wall-clock time into an instant is where DST bites, and the rule here is one:
 * the instant is the FIRST one at which the wall clock reads that time or later.
 *  - In a skipped hour (spring forward: São Paulo 2018-11-04 00:00 → 01:00, New York
 *    2026-03-08 02:00 → 03:00) that is the moment of the jump: a range opening at 00:30 in
 *    São Paulo that day opens at 01:00, and a day without a midnight starts at the jump.
 *  - In a repeated hour (fall back: São Paulo 2019-02-17 00:00 → 23:00 of the 16th, New York
 *    2026-11-01 02:00 → 01:00) it is the first occurrence: a range closing at 01:30 in New
 *    York that night closes at the first 01:30, and a day that repeats an hour lasts 25 h.
 * The mapping never goes backwards, so a day's ranges come out in order and inside the day.
 */

export const MINUTE = 60_000;
export const DAY_MS = 86_400_000;
export const MINUTES_PER_DAY = 1440;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether Intl knows the zone (an unknown one would make every other function here throw). */
export function isValidTimeZone(timeZone: string): boolean {
  if (typeof timeZone !== "string" || !timeZone) return false;
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock at instant `t` in `timeZone`, to the second, as if it were UTC (ms). */
function wallAt(timeZone: string, t: number): number {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(t))) {
    if (part.type !== "literal") p[part.type] = Number(part.value);
  }
  return Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second);
}

/** How far `timeZone` is ahead of UTC at instant `t` (ms; negative west of Greenwich). */
export function offsetAt(timeZone: string, t: number): number {
  return wallAt(timeZone, t) - Math.floor(t / 1000) * 1000;
}

export interface LocalMoment {
  /** The local calendar date as a day number. */
  day: number;
  /** Minutes since local midnight (0…1439), seconds dropped. */
  minute: number;
}

/** The local date and time of day at instant `t`. */
export function localMoment(timeZone: string, t: number): LocalMoment {
  const wall = wallAt(timeZone, t);
  const day = Math.floor(wall / DAY_MS);
  return { day, minute: Math.floor((wall - day * DAY_MS) / MINUTE) };
}

/** 0 = Sunday … 6 = Saturday (1970-01-01, day 0, was a Thursday). */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** The day number of "YYYY-MM-DD" (anything after the first ten characters is ignored), or null. */
export function dayFromIso(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(typeof date === "string" ? date : "");
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / DAY_MS;
}

/** "YYYY-MM-DD" of a day number. */
export function isoFromDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Month (1–12) and day of month of a day number. */
export function monthDayOf(day: number): { month: number; date: number } {
  const d = new Date(day * DAY_MS);
  return { month: d.getUTCMonth() + 1, date: d.getUTCDate() };
}

const START = /^([01]\d|2[0-3]):([0-5]\d)$/;
const END = /^(?:([01]\d|2[0-3]):([0-5]\d)|(24):(00))$/;

/**
 * Minutes of an "HH:MM" time of day, or null when malformed. `asEnd`: "24:00" is allowed (the
 * end of the day); a start may not be 24:00.
 */
export function parseTimeOfDay(text: unknown, asEnd = false): number | null {
  if (typeof text !== "string") return null;
  const m = (asEnd ? END : START).exec(text);
  if (!m) return null;
  return m[3] ? MINUTES_PER_DAY : Number(m[1]) * 60 + Number(m[2]);
}

/**
 * The first instant at which the wall clock in `timeZone` reads local date `day` at `minute`
 * (0…1440) or later: see the file's comment for skipped and repeated hours.
 */
export function localToUtc(timeZone: string, day: number, minute: number): number {
  // The same schedules ask for the same days on every message; Intl is the slow part.
  const key = `${timeZone}|${day}|${minute}`;
  let t = converted.get(key);
  if (t === undefined) {
    if (converted.size >= CONVERSIONS_KEPT) converted.clear();
    t = convert(timeZone, day, minute);
    converted.set(key, t);
  }
  return t;
}

const CONVERSIONS_KEPT = 20_000;
const converted = new Map<string, number>();

function convert(timeZone: string, day: number, minute: number): number {
  const wall = day * DAY_MS + minute * MINUTE;
  // The answer lies within 14 h of `wall` (the widest offsets); the offsets a day either side
  // are the candidates, and one more read covers a transition between them.
  const before = offsetAt(timeZone, wall - DAY_MS);
  const after = offsetAt(timeZone, wall + DAY_MS);
  let best: number | null = null;
  for (const o of before === after ? [before] : [before, after, offsetAt(timeZone, wall)]) {
    const t = wall - o;
    if (offsetAt(timeZone, t) === o && (best === null || t < best)) best = t;
  }
  if (best !== null) return best;
  // No instant reads `wall`: it is in a skipped stretch. Find the jump, the first instant
  // whose wall clock is past it (transitions fall on whole seconds).
  let lo = Math.floor((wall - Math.max(before, after)) / 1000); // reads before `wall`
  let hi = Math.ceil((wall - Math.min(before, after)) / 1000); // reads after it
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallAt(timeZone, mid * 1000) >= wall) hi = mid;
    else lo = mid;
  }
  return hi * 1000;
}

/** The instant local date `day` begins (its midnight, or the jump when it has none). */
export function dayStart(timeZone: string, day: number): number {
  return localToUtc(timeZone, day, 0);
}
