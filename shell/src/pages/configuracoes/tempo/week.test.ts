import type { TFunction } from "i18next";
import tempo from "../../../i18n/locales/pt-BR/tempo";
import { asTime } from "./TimeField";
import { asDate, isoOf } from "./dates";
import { copyMondayToWeekdays, dayProblem, defaultWeek, lunchOf, weekForApi, weekProblems, weekSummary } from "./week";
import type { DayHours } from "./types";

/** The pt-BR texts of the time screens, looked up the way react-i18next does (placeholders filled). */
const t = ((key: string, vars: Record<string, unknown> = {}) => {
  const v = key
    .replace(/^tempo\./, "")
    .split(".")
    .reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], tempo);
  return typeof v === "string" ? v.replace(/\{\{(\w+)\}\}/g, (_, k) => String(vars[k])) : key;
}) as unknown as TFunction;

const specific = (m: [string, string] | null, a: [string, string] | null): DayHours => ({
  mode: "specific",
  morning: m ? { start: m[0], end: m[1] } : null,
  afternoon: a ? { start: a[0], end: a[1] } : null,
});

describe("the week of a schedule", () => {
  it("sums a week up Monday first, grouping days alike", () => {
    expect(weekSummary(defaultWeek(), t)).toBe("Seg–Sex 08:00–12:00, 13:00–18:00 · Sáb 08:00–12:00 · Dom fechado");
    const week = defaultWeek();
    week[3] = { mode: "open" };
    week[0] = { mode: "open" };
    expect(weekSummary(week, t)).toBe("Seg–Ter 08:00–12:00, 13:00–18:00 · Qua 24 h · Qui–Sex 08:00–12:00, 13:00–18:00 · Sáb 08:00–12:00 · Dom 24 h");
  });

  it("finds what keeps a day from being saved", () => {
    expect(dayProblem(specific(["08:00", "12:00"], ["13:00", "18:00"]))).toBeNull();
    expect(dayProblem(specific(["08:00", "12:00"], ["12:00", "24:00"]))).toBeNull();
    expect(dayProblem(specific(null, null))).toBe("noRange");
    expect(dayProblem(specific(["08:00", "12:"], null))).toBe("incomplete");
    expect(dayProblem(specific(["25:00", "26:00"], null))).toBe("incomplete");
    expect(dayProblem(specific(["12:00", "08:00"], null))).toBe("startAfterEnd");
    expect(dayProblem(specific(["08:00", "12:00"], ["11:00", "18:00"]))).toBe("overlap");
    expect(dayProblem({ mode: "closed", morning: { start: "x", end: "y" } })).toBeNull();
    const week = defaultWeek();
    week[2] = specific(["09:00", "08:00"], null);
    expect(weekProblems(week, t)).toEqual({ 2: "O início deve ser antes do fim." });
  });

  it("shows lunch as the gap between morning and afternoon", () => {
    expect(lunchOf(specific(["08:00", "12:00"], ["13:30", "18:00"]))).toEqual({ start: "12:00", end: "13:30" });
    expect(lunchOf(specific(["08:00", "12:00"], ["12:00", "18:00"]))).toBeNull();
    expect(lunchOf(specific(["08:00", "12:00"], null))).toBeNull();
  });

  it("copies Monday to Tuesday … Friday only, and sends no ranges for open or closed days", () => {
    const week = defaultWeek();
    week[1] = specific(["07:00", "11:00"], null);
    const copied = copyMondayToWeekdays(week);
    for (const d of [2, 3, 4, 5]) expect(copied[d]).toEqual(week[1]);
    expect(copied[6]).toEqual(week[6]);
    expect(copied[0]).toEqual(week[0]);
    copied[2].morning!.start = "06:00";
    expect(week[1].morning!.start).toBe("07:00");
    expect(weekForApi([{ mode: "open", morning: { start: "08:00", end: "12:00" } }])).toEqual([{ mode: "open" }]);
  });
});

describe("typed times and dates", () => {
  it("reads times as HH:MM and dates as dd/mm/aaaa", () => {
    expect(asTime("0830")).toBe("08:30");
    expect(asTime("8h")).toBe("8");
    expect(asTime("13:305")).toBe("13:30");
    expect(asDate("25122026")).toBe("25/12/2026");
    expect(asDate("25/1")).toBe("25/1");
    expect(isoOf("25/12/2026")).toBe("2026-12-25");
    expect(isoOf("29/02/2028")).toBe("2028-02-29");
    expect(isoOf("29/02/2027")).toBeNull();
    expect(isoOf("31/04/2026")).toBeNull();
    expect(isoOf("1/1/2026")).toBeNull();
  });
});
