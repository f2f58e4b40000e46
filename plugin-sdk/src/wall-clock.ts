/**
 * Wall-clock readings of instants in an IANA time zone (a tenant's), through Intl only: what
 * plugins that keep local times (recurring messages, appointments) read and build instants
 * from. Formatters are cached per zone.
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
    f = new Intl.DateTimeFormat("en-US", { timeZone: tz, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric", weekday: "short" });
    formatters.set(tz, f);
  }
  return f;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** Is `tz` a time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of the instant `t` in `tz`. */
export function wallOf(t: number, tz: string): Wall {
  const parts: Record<string, string> = {};
  for (const p of formatter(tz).formatToParts(new Date(t))) parts[p.type] = p.value;
  return { y: +parts.year, m: +parts.month, d: +parts.day, h: +parts.hour % 24, min: +parts.minute, weekday: WEEKDAYS[parts.weekday] };
}

/** Offset of `tz` from UTC at the instant t (ms, positive east). */
function offsetAt(t: number, tz: string): number {
  const w = wallOf(t, tz);
  const base = t - (((t % 1000) + 1000) % 1000);
  // Offsets are whole minutes: the seconds read the same on both clocks.
  return Date.UTC(w.y, w.m - 1, w.d, w.h, w.min, new Date(base).getUTCSeconds()) - base;
}

/** The instant whose wall clock in `tz` reads y-m-d h:min; in a daylight-saving gap, the same time an hour later. */
export function instantOf(y: number, m: number, d: number, h: number, min: number, tz: string): number {
  const asUtc = Date.UTC(y, m - 1, d, h, min);
  const first = asUtc - offsetAt(asUtc, tz);
  const t = asUtc - offsetAt(first, tz);
  const w = wallOf(t, tz);
  if (w.h === h && w.min === min && w.d === d) return t;
  if (wallOf(first, tz).h === h) return first;
  // A gap: no instant reads that time; take the one an hour later (how clocks are read there).
  const later = Date.UTC(y, m - 1, d, h + 1, min);
  return later - offsetAt(later - offsetAt(later, tz), tz);
}
