/**
 * Builders for the business-time unit tests (schedules, holidays, weeks), so each test states
 * only what it is about. Test support only: nothing in the product imports it.
 */
import type { BusinessHours, DayHours, Holiday, TimeRulesInput } from "./types";

export const CLOSED: DayHours = { mode: "closed" };
export const OPEN: DayHours = { mode: "open" };

/** A specific day: "09:00-12:00" morning and/or "13:00-18:00" afternoon (null: none). */
export function specific(morning: string | null, afternoon: string | null = null): DayHours {
  const range = (s: string | null) => (s ? { start: s.slice(0, 5), end: s.slice(6) } : null);
  return { mode: "specific", morning: range(morning), afternoon: range(afternoon) };
}

/** A week closed except the days given (index = weekday, 0 = Sunday). */
export function week(days: Partial<Record<number, DayHours>>): DayHours[] {
  return [0, 1, 2, 3, 4, 5, 6].map((d) => days[d] ?? CLOSED);
}

/** Monday to Friday 09:00–12:00 and 13:00–18:00, weekend closed. */
export const OFFICE_WEEK = week({ 1: specific("09:00-12:00", "13:00-18:00"), 2: specific("09:00-12:00", "13:00-18:00"), 3: specific("09:00-12:00", "13:00-18:00"), 4: specific("09:00-12:00", "13:00-18:00"), 5: specific("09:00-12:00", "13:00-18:00") });

let nextId = 1;

export function schedule(over: Partial<BusinessHours> = {}): BusinessHours {
  const id = over.id ?? nextId++;
  return { id, tenantId: 1, name: `schedule ${id}`, type: "global", targetIds: [], active: true, days: OFFICE_WEEK, messages: {}, ...over };
}

export function holiday(over: Partial<Holiday> & { date: string }): Holiday {
  const id = over.id ?? nextId++;
  return { id, tenantId: 1, description: `holiday ${id}`, type: "global", targetIds: [], yearly: false, message: null, ...over };
}

export function input(timeZone: string, hours: BusinessHours[], holidays: Holiday[] = []): TimeRulesInput {
  return { timeZone, hours, holidays };
}

/** An instant from an ISO wall-clock time with an explicit offset, independent of the code under test. */
export function instant(wall: string, offset: string): number {
  const t = Date.parse(`${wall}${offset}`);
  if (Number.isNaN(t)) throw new Error(`bad instant ${wall}${offset}`);
  return t;
}

export const HOUR = 3_600_000;
