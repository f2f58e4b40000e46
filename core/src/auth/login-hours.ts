/**
 * Login limited to registered hours (spec §6). `hours` maps a weekday (0 = Sunday … 6) to
 * the intervals in which the user may log in, in the tenant's time zone.
 */
export type LoginHours = Partial<Record<"0" | "1" | "2" | "3" | "4" | "5" | "6", Array<{ start: string; end: string }>>>;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** An end may also be 24:00, so a slot can run to the end of the day (ends are exclusive). */
const END = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

export function validLoginHours(h: unknown): h is LoginHours {
  if (!h || typeof h !== "object" || Array.isArray(h)) return false;
  for (const [day, slots] of Object.entries(h as Record<string, unknown>)) {
    if (!/^[0-6]$/.test(day) || !Array.isArray(slots)) return false;
    for (const s of slots as Array<Record<string, unknown>>) {
      if (!s || typeof s.start !== "string" || typeof s.end !== "string") return false;
      if (!HHMM.test(s.start) || !END.test(s.end) || s.start >= s.end) return false;
    }
  }
  return true;
}

/** Weekday and HH:MM of `now` in a time zone. */
export function localClock(now: Date, timeZone: string): { day: string; hhmm: string } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
  }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const hour = get("hour") === "24" ? "00" : get("hour");
  return { day: String(days.indexOf(get("weekday"))), hhmm: `${hour}:${get("minute")}` };
}

export function withinLoginHours(hours: LoginHours, now: Date, timeZone: string): boolean {
  const { day, hhmm } = localClock(now, timeZone);
  const slots = hours[day as keyof LoginHours] ?? [];
  return slots.some((s) => hhmm >= s.start && hhmm < s.end);
}
