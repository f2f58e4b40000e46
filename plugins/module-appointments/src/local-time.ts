/**
 * Wall-clock reading of an instant in an IANA time zone (the tenant's): availability slots and
 * "today" are the tenant's local times, while appointments are stored as instants.
 */
import { isTimeZone, wallOf, type Wall } from "@openatende/plugin-sdk/src/wall-clock";

export { wallOf, type Wall };

/** A zone this runtime knows, else UTC (a tenant setting is never trusted blindly). */
export function safeZone(tz: unknown): string {
  return typeof tz === "string" && tz && isTimeZone(tz) ? tz : "UTC";
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
