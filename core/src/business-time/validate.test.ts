import { validateDays } from "./rules";
import type { DayHours } from "./types";
import { CLOSED, OFFICE_WEEK, OPEN, specific } from "./test-fixtures";

/** An open week with day `d` replaced (as given, null included). */
const withDay = (d: number, hours: DayHours) => [0, 1, 2, 3, 4, 5, 6].map((i) => (i === d ? hours : OPEN));

describe("validateDays", () => {
  it("accepts a sound week: open, closed, a morning only, an afternoon to 24:00, ranges that touch", () => {
    expect(validateDays(OFFICE_WEEK)).toBeNull();
    expect(validateDays([OPEN, CLOSED, specific("08:00-12:00"), specific(null, "18:00-24:00"), specific("08:00-12:00", "12:00-18:00"), OPEN, CLOSED])).toBeNull();
  });

  it("needs exactly seven days", () => {
    expect(validateDays(OFFICE_WEEK.slice(0, 6))).toEqual({ day: -1, problem: "count" });
    expect(validateDays([...OFFICE_WEEK, OPEN])).toEqual({ day: -1, problem: "count" });
    expect(validateDays(null as unknown as DayHours[])).toEqual({ day: -1, problem: "count" });
  });

  it("refuses an unknown mode", () => {
    expect(validateDays(withDay(2, { mode: "sometimes" } as unknown as DayHours))).toEqual({ day: 2, problem: "mode" });
    expect(validateDays(withDay(4, null as unknown as DayHours))).toEqual({ day: 4, problem: "mode" });
  });

  it("refuses times that are not HH:MM, and 24:00 as a start", () => {
    expect(validateDays(withDay(1, specific("9:00-12:00")))).toEqual({ day: 1, problem: "format", range: "morning" });
    expect(validateDays(withDay(1, specific("09:00-12:00", "13:00-25:00")))).toEqual({ day: 1, problem: "format", range: "afternoon" });
    expect(validateDays(withDay(3, specific(null, "24:00-24:00")))).toEqual({ day: 3, problem: "format", range: "afternoon" });
  });

  it("refuses a range that does not start before it ends", () => {
    expect(validateDays(withDay(5, specific("12:00-09:00")))).toEqual({ day: 5, problem: "order", range: "morning" });
    expect(validateDays(withDay(5, specific(null, "13:00-13:00")))).toEqual({ day: 5, problem: "order", range: "afternoon" });
  });

  it("a specific day needs a range", () => {
    expect(validateDays(withDay(6, { mode: "specific", morning: null, afternoon: null }))).toEqual({ day: 6, problem: "empty" });
    expect(validateDays(withDay(0, { mode: "specific" }))).toEqual({ day: 0, problem: "empty" });
  });

  it("the morning ends no later than the afternoon starts", () => {
    expect(validateDays(withDay(2, specific("08:00-13:30", "13:00-18:00")))).toEqual({ day: 2, problem: "overlap", range: "afternoon" });
  });

  it("ranges left on an open or closed day are not judged (the mode decides)", () => {
    expect(validateDays(withDay(2, { mode: "closed", morning: { start: "x", end: "y" } }))).toBeNull();
  });
});
