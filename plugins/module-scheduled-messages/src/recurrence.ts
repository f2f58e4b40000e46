/**
 * When a recurring scheduled message goes next (pure: no clock, no I/O).
 *
 * Occurrences keep the wall-clock time of the first send (`scheduleDate`) in the message's time
 * zone, so 09:00 stays 09:00 across a daylight-saving change. Each occurrence is counted from
 * the first send, never from the previous one, so a monthly message of the 31st goes on
 * Feb 28 (29 in a leap year), Mar 31, Apr 30…: the day is clamped to the month's length and
 * comes back when the month is long enough. Custom days are weekdays (0 = Sunday … 6 =
 * Saturday); the first send is `scheduleDate` itself, the next ones fall on those weekdays.
 * A series ends at its last occurrence not later than `recurrentUntil`.
 */

import { instantOf, isTimeZone, wallOf } from "@openatende/plugin-sdk/src/wall-clock";

export { instantOf, isTimeZone, wallOf };

export const RECURRENCES = ["daily", "weekly", "biweekly", "monthly", "custom"] as const;
export type Recurrence = (typeof RECURRENCES)[number];

export interface RecurrenceRule {
  recurrence: Recurrence;
  /** Weekdays for "custom" (0 = Sunday). */
  customDays?: number[] | null;
  /** The first send (epoch ms): the anchor of every occurrence. */
  scheduleDate: number;
  /** The last instant an occurrence may fall on (epoch ms); null: no end. */
  recurrentUntil?: number | null;
  /** IANA time zone of the wall clock the occurrences keep. */
  timeZone: string;
}

export function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The calendar date `days` after y-m-d (any sign). */
function addDays(y: number, m: number, d: number, days: number): { y: number; m: number; d: number } {
  const x = new Date(Date.UTC(y, m - 1, d + days));
  return { y: x.getUTCFullYear(), m: x.getUTCMonth() + 1, d: x.getUTCDate() };
}

/** The n-th occurrence (0: the first send) of a daily, weekly, biweekly or monthly rule. */
export function occurrence(rule: RecurrenceRule, n: number): number {
  return wallOccurrence(rule, n) + subMinute(rule.scheduleDate);
}

/** Seconds and milliseconds of the first send, kept by every occurrence (offsets are whole minutes). */
const subMinute = (t: number) => ((t % 60_000) + 60_000) % 60_000;

function wallOccurrence(rule: RecurrenceRule, n: number): number {
  const a = wallOf(rule.scheduleDate, rule.timeZone);
  if (rule.recurrence === "monthly") {
    const months = a.m - 1 + n;
    const y = a.y + Math.floor(months / 12);
    const m = (months % 12) + 1;
    return instantOf(y, m, Math.min(a.d, daysInMonth(y, m)), a.h, a.min, rule.timeZone);
  }
  const step = rule.recurrence === "daily" ? 1 : rule.recurrence === "weekly" ? 7 : rule.recurrence === "biweekly" ? 14 : 0;
  if (!step) throw new RangeError(`occurrence(): ${rule.recurrence} has no fixed step`);
  const day = addDays(a.y, a.m, a.d, n * step);
  return instantOf(day.y, day.m, day.d, a.h, a.min, rule.timeZone);
}

/**
 * The first occurrence strictly after `after` (epoch ms), or null when the series has ended
 * (past `recurrentUntil`). Missed occurrences (the platform was down) are skipped: pass the
 * time now as `after` to get the next one still to come.
 */
export function nextOccurrence(rule: RecurrenceRule, after: number): number | null {
  const until = rule.recurrentUntil ?? Number.POSITIVE_INFINITY;
  let next: number | null = null;
  if (after < rule.scheduleDate) next = rule.scheduleDate;
  else if (rule.recurrence === "custom") next = nextCustom(rule, after);
  else {
    // Estimate the index from the elapsed time, then walk: DST and month lengths move it by at most one.
    const approxStep = rule.recurrence === "daily" ? 86_400_000 : rule.recurrence === "weekly" ? 7 * 86_400_000 : rule.recurrence === "biweekly" ? 14 * 86_400_000 : 28 * 86_400_000;
    let n = Math.max(0, Math.floor((after - rule.scheduleDate) / approxStep) - 2);
    if (rule.recurrence === "monthly") {
      const a = wallOf(rule.scheduleDate, rule.timeZone);
      const w = wallOf(after, rule.timeZone);
      n = Math.max(0, (w.y - a.y) * 12 + (w.m - a.m) - 1);
    }
    for (let guard = 0; guard < 1000; guard++, n++) {
      const t = occurrence(rule, n);
      if (t > after) {
        next = t;
        break;
      }
    }
  }
  return next !== null && next <= until ? next : null;
}

function nextCustom(rule: RecurrenceRule, after: number): number | null {
  const days = new Set((rule.customDays ?? []).filter((d) => Number.isInteger(d) && d >= 0 && d <= 6));
  if (!days.size) return null;
  const a = wallOf(rule.scheduleDate, rule.timeZone);
  const w = wallOf(after, rule.timeZone);
  // From the day of `after` on, at most 8 days ahead holds every weekday once.
  for (let i = 0; i <= 8; i++) {
    const day = addDays(w.y, w.m, w.d, i);
    const weekday = new Date(Date.UTC(day.y, day.m - 1, day.d)).getUTCDay();
    if (!days.has(weekday)) continue;
    const t = instantOf(day.y, day.m, day.d, a.h, a.min, rule.timeZone) + subMinute(rule.scheduleDate);
    if (t > after) return t;
  }
  return null;
}
