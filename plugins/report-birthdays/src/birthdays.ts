/**
 * The birthday rules, pure functions of the clock and the tenant's time zone (the tests move
 * the clock over Dec 31 / Jan 1 and Feb 29):
 *
 * - a period is the dates of a month of the current year, today, or this week (Sunday to
 *   Saturday), all in the tenant's time zone;
 * - a contact's birthday occurs in a year on its month and day; a Feb 29 birthday occurs on
 *   Feb 28 in a year that has no Feb 29;
 * - the age shown and put in {{age}} is the age the contact turns on that occurrence;
 * - a birthday has passed when its occurrence this year is before today; today's has not (a
 *   message scheduled after 9:00 on the day itself goes at once);
 * - a scheduled message goes at 9:00, local time, on the occurrence.
 */
import { dateIn, startOfDay, wallTime } from "@openatende/report-kit";

export interface Ymd {
  y: number;
  m: number;
  d: number;
}

export const PERIODS = ["month", "today", "week"] as const;
export type Period = (typeof PERIODS)[number];

/** The hour (local) a scheduled birthday message goes at. */
export const SEND_HOUR = 9;

const BIRTHDAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export const isoOf = (x: Ymd) => `${String(x.y).padStart(4, "0")}-${String(x.m).padStart(2, "0")}-${String(x.d).padStart(2, "0")}`;
const compare = (a: Ymd, b: Ymd) => a.y - b.y || a.m - b.m || a.d - b.d;
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const plusDays = (x: Ymd, n: number): Ymd => {
  const t = new Date(Date.UTC(x.y, x.m - 1, x.d + n));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
};

/** A contact's birthday field ("YYYY-MM-DD"), or null when it has none or it is not a date. */
export function parseBirthday(s: string | null | undefined): Ymd | null {
  const m = s ? BIRTHDAY.exec(s.slice(0, 10)) : null;
  if (!m) return null;
  const x = { y: +m[1], m: +m[2], d: +m[3] };
  return x.m >= 1 && x.m <= 12 && x.d >= 1 && x.d <= daysIn(x.y, x.m) ? x : null;
}

/** The date a birthday is celebrated on in `year` (Feb 29 → Feb 28 in a common year). */
export function occurrenceIn(b: Ymd, year: number): Ymd {
  if (b.m === 2 && b.d === 29 && !isLeap(year)) return { y: year, m: 2, d: 28 };
  return { y: year, m: b.m, d: b.d };
}

/** The age turned on the occurrence in `year`. */
export const ageIn = (b: Ymd, year: number) => year - b.y;

/** Today in the time zone. */
export const todayIn = (now: number, timeZone: string): Ymd => dateIn(now, timeZone);

/** The dates of a period, in order (a month: of the current year). */
export function periodDates(period: Period, now: number, timeZone: string, month?: number): Ymd[] {
  const today = todayIn(now, timeZone);
  if (period === "today") return [today];
  if (period === "week") {
    const weekday = new Date(Date.UTC(today.y, today.m - 1, today.d)).getUTCDay();
    const sunday = plusDays(today, -weekday);
    return Array.from({ length: 7 }, (_, i) => plusDays(sunday, i));
  }
  const m = month ?? today.m;
  return Array.from({ length: daysIn(today.y, m) }, (_, i) => ({ y: today.y, m, d: i + 1 }));
}

/** The months a period's dates fall in (what the core is asked for). */
export const monthsOf = (dates: Ymd[]) => [...new Set(dates.map((x) => x.m))];

/** The occurrence of a birthday within a period's dates (null: not in the period). */
export function occurrenceInPeriod(b: Ymd, dates: Ymd[]): Ymd | null {
  for (const x of dates) {
    const o = occurrenceIn(b, x.y);
    if (compare(o, x) === 0) return o;
  }
  return null;
}

/** Has this date passed (before today, in the time zone)? */
export const hasPassed = (date: Ymd, now: number, timeZone: string) => compare(date, todayIn(now, timeZone)) < 0;

/** The instant of a local wall-clock time on a date in the time zone. */
export function localInstant(date: Ymd, hour: number, timeZone: string): number {
  const wanted = Date.UTC(date.y, date.m - 1, date.d, hour);
  let t = startOfDay(date.y, date.m, date.d, timeZone) + hour * 3_600_000;
  // A change of offset between midnight and the hour (a DST day): read the wall clock back and correct.
  t += wanted - wallTime(t, timeZone);
  return t;
}

/**
 * When a birthday message for an occurrence goes: 9:00 local on it; at once when that hour has
 * already come today; null when the birthday has passed this year.
 */
export function birthdayRunAt(occurrence: Ymd, now: number, timeZone: string): number | null {
  if (hasPassed(occurrence, now, timeZone)) return null;
  return Math.max(localInstant(occurrence, SEND_HOUR, timeZone), now);
}

/** The message with {{name}} and {{age}} filled in (spaces inside the braces allowed, any case). */
export function renderMessage(body: string, v: { name: string; age: number | null }): string {
  return body.replace(/\{\{\s*(name|age)\s*\}\}/gi, (_, key: string) => (key.toLowerCase() === "name" ? v.name : v.age === null ? "" : String(v.age)));
}
