/**
 * The SLA of a ticket in the attendance list (spec §3 General settings, §9 SLA thresholds):
 * its age since it was created — how long the customer has been waiting for it to be
 * resolved — against the tenant's thresholds in minutes. Up to `green` it is on time, up to
 * `yellow` it needs attention, past `yellow` it is late, and from `red` on it is overdue.
 * Waiting (pending) and open tickets only: a closed one has no clock, a group none at all.
 */
export interface SlaThresholds {
  green: number;
  yellow: number;
  red: number;
}

export type SlaLevel = "onTime" | "attention" | "late" | "overdue";

/** The core's defaults (core/src/settings/schemas.ts TENANT_DEFAULTS), while none is stored. */
export const SLA_DEFAULTS: SlaThresholds = { green: 30, yellow: 60, red: 120 };

/** The stored setting, or the defaults when it is missing or malformed. */
export function slaThresholds(stored: unknown): SlaThresholds {
  const s = stored as Partial<SlaThresholds> | null | undefined;
  const ok = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;
  return s && ok(s.green) && ok(s.yellow) && ok(s.red) ? { green: s.green, yellow: s.yellow, red: s.red } : SLA_DEFAULTS;
}

export function slaLevel(ageMinutes: number, t: SlaThresholds): SlaLevel {
  if (ageMinutes >= t.red) return "overdue";
  if (ageMinutes > t.yellow) return "late";
  if (ageMinutes > t.green) return "attention";
  return "onTime";
}

/** The ticket's age in whole minutes and its level, or null when it has no SLA clock. */
export function ticketSla(x: { status: string; isGroup?: boolean; createdAt?: string | Date | null }, now: number, t: SlaThresholds): { minutes: number; level: SlaLevel } | null {
  if ((x.status !== "pending" && x.status !== "open") || x.isGroup || !x.createdAt) return null;
  const created = new Date(x.createdAt).getTime();
  if (!Number.isFinite(created)) return null;
  const minutes = Math.max(0, Math.floor((now - created) / 60_000));
  return { minutes, level: slaLevel(minutes, t) };
}

/** The age as the chip prints it: minutes, hours and minutes, or days and hours. */
export function slaAgeParts(minutes: number): { key: "minutes" | "hours" | "days"; values: Record<string, number> } {
  if (minutes < 60) return { key: "minutes", values: { m: minutes } };
  if (minutes < 24 * 60) return { key: "hours", values: { h: Math.floor(minutes / 60), m: minutes % 60 } };
  return { key: "days", values: { d: Math.floor(minutes / 1440), h: Math.floor((minutes % 1440) / 60) } };
}
