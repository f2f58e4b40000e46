/**
 * Wall-clock reading of an instant in an IANA time zone (the tenant's): availability slots and
 * "today" are the tenant's local times, while appointments are stored as instants.
 */
export interface Wall {
  y: number;
  /** 1-12. */
  m: number;
  d: number;
  h: number;
  min: number;
  /** 0 = Sunday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: tz, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", weekday: "short" });
    formatters.set(tz, f);
  }
  return f;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** A zone this runtime knows, else UTC (a tenant setting is never trusted blindly). */
export function safeZone(tz: unknown): string {
  if (typeof tz !== "string" || !tz) return "UTC";
  try {
    formatter(tz);
    return tz;
  } catch {
    return "UTC";
  }
}

export function wallOf(t: number, tz: string): Wall {
  const p: Record<string, string> = {};
  for (const part of formatter(tz).formatToParts(new Date(t))) p[part.type] = part.value;
  return { y: +p.year, m: +p.month, d: +p.day, h: +p.hour % 24, min: +p.minute, weekday: WEEKDAYS[p.weekday] };
}

/** "YYYY-MM-DD" of the wall day (compares as text). */
export const dayKey = (w: Wall) => `${w.y}-${String(w.m).padStart(2, "0")}-${String(w.d).padStart(2, "0")}`;

/** Minutes since local midnight. */
export const minuteOfDay = (w: Wall) => w.h * 60 + w.min;

/** "dd/mm/yyyy hh:mm" in the zone (the reminders' text). */
export function formatWall(t: number, tz: string): string {
  const w = wallOf(t, tz);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(w.d)}/${p(w.m)}/${w.y} ${p(w.h)}:${p(w.min)}`;
}
