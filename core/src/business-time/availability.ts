/**
 * A user's availability (spec §3 Availability): per weekday, the slots they can be booked in.
 * Appointments (spec §5: "must lie within the user's availability") ask withinAvailability; a
 * booking lies inside ONE slot of its local weekday, in the tenant's time zone.
 */
import { AVAILABILITY_DEFAULT_RANGES, AVAILABILITY_SLOTS } from "./types";
import type { Availability, AvailabilitySlot } from "./types";
import { localMoment, localToUtc, parseTimeOfDay, weekdayOf } from "./local-time";

/** Nobody is bookable until they say when: seven empty days. */
export function defaultAvailability(): Availability {
  return [[], [], [], [], [], [], []];
}

/** A slot's minutes, its kind's default hours filling a missing start or end; null when malformed. */
function slotMinutes(slot: AvailabilitySlot): [number, number] | null {
  const fallback = AVAILABILITY_DEFAULT_RANGES[slot.kind];
  const start = parseTimeOfDay(slot.start ?? fallback?.start);
  const end = parseTimeOfDay(slot.end ?? fallback?.end, true);
  return start !== null && end !== null && start < end ? [start, end] : null;
}

/**
 * Whether [start, end) (epoch ms) can be booked: "ok" inside one slot of the local weekday it
 * starts on, "noDay" when the user has no slot that weekday, "outside" otherwise (also for an
 * empty or reversed interval, or one that runs past the day).
 */
export function withinAvailability(av: Availability, timeZone: string, start: number, end: number): "ok" | "outside" | "noDay" {
  const day = localMoment(timeZone, start).day;
  const slots = (Array.isArray(av) ? av[weekdayOf(day)] : undefined) ?? [];
  if (!Array.isArray(slots) || slots.length === 0) return "noDay";
  if (!(end > start)) return "outside";
  for (const slot of slots) {
    const m = slot ? slotMinutes(slot) : null;
    if (!m) continue;
    if (localToUtc(timeZone, day, m[0]) <= start && end <= localToUtc(timeZone, day, m[1])) return "ok";
  }
  return "outside";
}

/** The first problem of an availability (7 lists of slots, each a known kind with "HH:MM" times, start before end), or null. */
export function validateAvailability(av: unknown): { day: number; problem: "count" | "kind" | "format" | "order" } | null {
  if (!Array.isArray(av) || av.length !== 7) return { day: -1, problem: "count" };
  for (let day = 0; day < 7; day++) {
    const slots = av[day];
    if (!Array.isArray(slots)) return { day, problem: "count" };
    for (const s of slots as Array<Partial<AvailabilitySlot> | null>) {
      if (!s || typeof s !== "object" || !AVAILABILITY_SLOTS.includes(s.kind as AvailabilitySlot["kind"])) return { day, problem: "kind" };
      const start = parseTimeOfDay(s.start);
      const end = parseTimeOfDay(s.end, true);
      if (start === null || end === null) return { day, problem: "format" };
      if (start >= end) return { day, problem: "order" };
    }
  }
  return null;
}
