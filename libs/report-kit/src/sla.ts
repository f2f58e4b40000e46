/**
 * The SLA of the general settings (core settings key `sla`: green, yellow, red, in minutes,
 * green < yellow < red). The attendance list colours a ticket by its age since it was created:
 * green up to `green`, yellow up to `yellow`, red past it, and from `red` on it reads overdue.
 * The reports count with the same thresholds, in three classes:
 *
 * - onTime: at most `green` minutes;
 * - attention: past `green`, below `red` (the yellow band and red not yet overdue);
 * - overdue: `red` minutes or more.
 *
 * A closed ticket is measured from creation to closing (fixed once closed); one still in
 * progress from creation to now, so it moves from onTime to attention to overdue as the clock
 * passes the thresholds.
 */

export interface SlaThresholds {
  green: number;
  yellow: number;
  red: number;
}

export type SlaClass = "onTime" | "attention" | "overdue";
export const SLA_CLASSES: readonly SlaClass[] = ["onTime", "attention", "overdue"];

const MIN = 60_000;

/** The class of a span of `ms` milliseconds. */
export function slaClass(ms: number, t: SlaThresholds): SlaClass {
  if (ms <= t.green * MIN) return "onTime";
  if (ms < t.red * MIN) return "attention";
  return "overdue";
}

/** The class of a ticket at `now`: closed ones by their resolution time, the others by their age. */
export function ticketSla(ticket: { createdAt: number; closedAt: number | null }, t: SlaThresholds, now: number): SlaClass {
  const end = ticket.closedAt ?? now;
  return slaClass(Math.max(0, end - ticket.createdAt), t);
}

/** When a ticket still in progress moves to its next class (null: it is overdue already, or closed). */
export function nextSlaChange(ticket: { createdAt: number; closedAt: number | null }, t: SlaThresholds, now: number): number | null {
  if (ticket.closedAt !== null) return null;
  const cls = ticketSla(ticket, t, now);
  if (cls === "onTime") return ticket.createdAt + t.green * MIN + 1;
  if (cls === "attention") return ticket.createdAt + t.red * MIN;
  return null;
}

/** The thresholds in the tenant's settings (platform.settings.get), or null when they are not there or not ordered. */
export function readSla(settings: Record<string, unknown>): SlaThresholds | null {
  const v = settings.sla as Partial<SlaThresholds> | undefined;
  if (!v || typeof v !== "object") return null;
  const { green, yellow, red } = v;
  if (![green, yellow, red].every((x) => typeof x === "number" && Number.isFinite(x) && x >= 0)) return null;
  if (!(green! < yellow! && yellow! < red!)) return null;
  return { green: green!, yellow: yellow!, red: red! };
}

/** How many of each class. */
export function emptySlaCounts(): Record<SlaClass, number> {
  return { onTime: 0, attention: 0, overdue: 0 };
}
