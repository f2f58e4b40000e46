/**
 * Checks of a schedule's week (spec §5 Business hours) for the business-time service, which
 * turns a problem into a catalogue error. The rules (./rules.ts) tolerate bad data; these say
 * what is wrong with it.
 */
import type { DayHours } from "./types";
import { parseTimeOfDay } from "./local-time";

/**
 * What is wrong with a week, in a small vocabulary:
 *  - `count`: not exactly 7 days (day -1);
 *  - `mode`: the mode is not open, closed or specific;
 *  - `format`: a time is not "HH:MM" (an end may be "24:00", a start may not);
 *  - `order`: a range does not start before it ends;
 *  - `empty`: a specific day has neither a morning nor an afternoon;
 *  - `overlap`: the morning ends after the afternoon starts.
 * `range` names the range at fault, when one is.
 */
export interface DayProblem {
  day: number;
  problem: "count" | "mode" | "format" | "order" | "empty" | "overlap";
  range?: "morning" | "afternoon";
}

const MODES = ["open", "closed", "specific"];

/** The first problem of a week of DayHours (index = weekday), or null when it is valid. */
export function validateDays(days: DayHours[]): DayProblem | null {
  if (!Array.isArray(days) || days.length !== 7) return { day: -1, problem: "count" };
  for (let day = 0; day < 7; day++) {
    const d = days[day];
    if (!d || typeof d !== "object" || !MODES.includes(d.mode)) return { day, problem: "mode" };
    if (d.mode !== "specific") continue;
    const parsed: Partial<Record<"morning" | "afternoon", [number, number]>> = {};
    for (const range of ["morning", "afternoon"] as const) {
      const r = d[range];
      if (r === undefined || r === null) continue;
      if (typeof r !== "object") return { day, problem: "format", range };
      const start = parseTimeOfDay(r.start);
      const end = parseTimeOfDay(r.end, true);
      if (start === null || end === null) return { day, problem: "format", range };
      if (start >= end) return { day, problem: "order", range };
      parsed[range] = [start, end];
    }
    if (!parsed.morning && !parsed.afternoon) return { day, problem: "empty" };
    if (parsed.morning && parsed.afternoon && parsed.morning[1] > parsed.afternoon[0]) return { day, problem: "overlap", range: "afternoon" };
  }
  return null;
}
