import type { TFunction } from "i18next";
import { HHMM } from "./TimeField";
import { WEEK_ORDER, type DayHours, type TimeRange, type Weekday } from "./types";

/** A new schedule's week: weekdays 08:00–12:00 and 13:00–18:00, Saturday morning, Sunday closed. */
export function defaultWeek(): DayHours[] {
  const weekday = (): DayHours => ({ mode: "specific", morning: { start: "08:00", end: "12:00" }, afternoon: { start: "13:00", end: "18:00" } });
  return [{ mode: "closed" }, weekday(), weekday(), weekday(), weekday(), weekday(), { mode: "specific", morning: { start: "08:00", end: "12:00" }, afternoon: null }];
}

/** Seven days whatever the API answered (a missing day is closed). */
export function normalizeWeek(days: DayHours[] | null | undefined): DayHours[] {
  return Array.from({ length: 7 }, (_, i) => {
    const d = days?.[i];
    if (!d) return { mode: "closed" } as DayHours;
    return { mode: d.mode, morning: d.morning ?? null, afternoon: d.afternoon ?? null };
  });
}

/** What is sent: a specific day keeps its ranges, the other modes none. */
export function weekForApi(days: DayHours[]): DayHours[] {
  return days.map((d) => (d.mode === "specific" ? { mode: "specific", morning: d.morning ?? null, afternoon: d.afternoon ?? null } : { mode: d.mode }));
}

const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 60 + m;
};

/** Why a day cannot be saved (a text key of tempo.week.errors), or null. */
export function dayProblem(d: DayHours): string | null {
  if (d.mode !== "specific") return null;
  const ranges = [d.morning, d.afternoon].filter((r): r is TimeRange => !!r);
  if (!ranges.length) return "noRange";
  if (ranges.some((r) => !HHMM.test(r.start) || !HHMM.test(r.end))) return "incomplete";
  if (ranges.some((r) => minutes(r.start) >= minutes(r.end))) return "startAfterEnd";
  if (d.morning && d.afternoon && minutes(d.morning.end) > minutes(d.afternoon.start)) return "overlap";
  return null;
}

/** Each day's problem, by weekday (empty: the week can be saved). */
export function weekProblems(days: DayHours[], t: TFunction): Partial<Record<Weekday, string>> {
  const out: Partial<Record<Weekday, string>> = {};
  days.forEach((d, i) => {
    const p = dayProblem(d);
    if (p) out[i as Weekday] = t(`tempo.week.errors.${p}`);
  });
  return out;
}

/** The lunch gap of a specific day with both ranges, or null. */
export function lunchOf(d: DayHours): TimeRange | null {
  if (d.mode !== "specific" || !d.morning?.end || !d.afternoon?.start) return null;
  return minutes(d.morning.end) < minutes(d.afternoon.start) ? { start: d.morning.end, end: d.afternoon.start } : null;
}

/** Monday's hours copied to Tuesday … Friday. */
export function copyMondayToWeekdays(days: DayHours[]): DayHours[] {
  const mon = days[1];
  return days.map((d, i) => (i >= 2 && i <= 5 ? { mode: mon.mode, morning: mon.morning ? { ...mon.morning } : null, afternoon: mon.afternoon ? { ...mon.afternoon } : null } : d));
}

/** One day in a few words: "08:00–12:00, 13:00–18:00", "24 h", "Fechado". */
export function dayText(d: DayHours, t: TFunction): string {
  if (d.mode === "open") return t("tempo.week.summaryOpen");
  if (d.mode === "closed") return t("tempo.week.summaryClosed");
  return [d.morning, d.afternoon]
    .filter((r): r is TimeRange => !!r)
    .map((r) => `${r.start}–${r.end}`)
    .join(", ");
}

/**
 * The week in one line, consecutive days (Monday first) with the same hours grouped:
 * "Seg–Sex 08:00–12:00, 13:00–18:00 · Sáb 08:00–12:00 · Dom Fechado".
 */
export function weekSummary(days: DayHours[], t: TFunction): string {
  const parts: Array<{ from: Weekday; to: Weekday; text: string }> = [];
  for (const wd of WEEK_ORDER) {
    const text = dayText(days[wd] ?? { mode: "closed" }, t);
    const last = parts[parts.length - 1];
    if (last && last.text === text) last.to = wd;
    else parts.push({ from: wd, to: wd, text });
  }
  const short = (w: Weekday) => t(`tempo.weekdaysShort.${w}`);
  return parts.map((p) => `${p.from === p.to ? short(p.from) : `${short(p.from)}–${short(p.to)}`} ${p.text}`).join(" · ");
}
