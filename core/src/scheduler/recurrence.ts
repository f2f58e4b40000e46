/**
 * When a recurring job runs next (pure: no Redis, no clock of its own).
 *
 * Two kinds of rule (JobRecurrence): an interval in ms, counted from the previous due time
 * (so every node computes the same next time, and the occurrence's job id is the same
 * everywhere), or a wall-clock time "HH:MM" in an IANA time zone, daily or on some weekdays.
 * A series never bursts: after downtime the next occurrence is the first one after now.
 */
import type { JobRecurrence } from "@openatende/plugin-sdk";

/** The shortest interval a recurring job may have. */
export const MIN_INTERVAL_MS = 1000;

const AT = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Why the rule is invalid (the offending field), or null when it is fine. */
export function recurrenceProblem(every: unknown): string | null {
  if (typeof every === "number") return Number.isInteger(every) && every >= MIN_INTERVAL_MS ? null : "every";
  if (!every || typeof every !== "object" || Array.isArray(every)) return "every";
  const r = every as { at?: unknown; days?: unknown; tz?: unknown };
  if (typeof r.at !== "string" || !AT.test(r.at)) return "every.at";
  if (r.days !== undefined) {
    if (!Array.isArray(r.days) || r.days.length === 0 || r.days.some((d) => !Number.isInteger(d) || d < 0 || d > 6)) return "every.days";
  }
  if (r.tz !== undefined) {
    if (typeof r.tz !== "string") return "every.tz";
    try {
      formatter(r.tz);
    } catch {
      return "every.tz";
    }
  }
  const extra = Object.keys(r).filter((k) => !["at", "days", "tz"].includes(k));
  return extra.length ? `every.${extra[0]}` : null;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: tz, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    formatters.set(tz, f);
  }
  return f;
}

/** The wall-clock fields of the instant `t` in `tz`. */
function localParts(tz: string, t: number) {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(t))) if (p.type !== "literal") parts[p.type] = Number(p.value);
  return { y: parts.year, m: parts.month - 1, d: parts.day, h: parts.hour % 24, min: parts.minute, s: parts.second };
}

/** How far `tz` is ahead of UTC at the instant `t` (ms). */
function offsetAt(tz: string, t: number): number {
  const p = localParts(tz, t);
  return Date.UTC(p.y, p.m, p.d, p.h, p.min, p.s) - Math.floor(t / 1000) * 1000;
}

/** The instant whose wall clock in `tz` reads y-m-d h:min (in a DST gap, the hour after). */
function fromLocal(tz: string, y: number, m: number, d: number, h: number, min: number): number {
  const asUtc = Date.UTC(y, m, d, h, min);
  const first = asUtc - offsetAt(tz, asUtc);
  const second = asUtc - offsetAt(tz, first);
  return second;
}

/** The first occurrence of the rule strictly after `after`. */
export function nextOccurrence(every: JobRecurrence, after: number): number {
  if (typeof every === "number") return after + every;
  const tz = every.tz ?? "UTC";
  const [h, min] = every.at.split(":").map(Number);
  const today = localParts(tz, after);
  // A week and a day covers any set of weekdays, whatever the offset does in between.
  for (let i = 0; i <= 8; i++) {
    const day = new Date(Date.UTC(today.y, today.m, today.d + i));
    if (every.days && !every.days.includes(day.getUTCDay())) continue;
    const t = fromLocal(tz, day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), h, min);
    if (t > after) return t;
  }
  throw new Error(`no occurrence of ${JSON.stringify(every)} after ${new Date(after).toISOString()}`);
}

/**
 * The occurrence after the one due at `dueAt`, run when the clock reads `now`: an interval
 * counts from the due time (skipping periods already past), a wall-clock rule takes its next
 * time after both.
 */
export function followingOccurrence(every: JobRecurrence, dueAt: number, now: number): number {
  if (typeof every === "number") {
    const periods = Math.max(1, Math.floor((now - dueAt) / every) + 1);
    return dueAt + periods * every;
  }
  return nextOccurrence(every, Math.max(dueAt, now));
}
