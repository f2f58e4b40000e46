/** The recurrence math: steps, month-end clamping, custom weekdays, the end date, daylight saving. */
import { instantOf, nextOccurrence, occurrence, wallOf, type RecurrenceRule } from "./recurrence";

const SP = "America/Sao_Paulo";
const NY = "America/New_York";
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const rule = (r: Partial<RecurrenceRule> & Pick<RecurrenceRule, "recurrence" | "scheduleDate">): RecurrenceRule => ({ timeZone: SP, ...r });
/** The series from the first send: each next occurrence after the previous one. */
function series(r: RecurrenceRule, count: number): Array<string | null> {
  const out: Array<string | null> = [];
  let at = r.scheduleDate;
  for (let i = 0; i < count; i++) {
    const n = nextOccurrence(r, at);
    out.push(iso(n));
    if (n === null) break;
    at = n;
  }
  return out;
}

describe("wall clock", () => {
  it("reads and builds instants in a time zone, daylight-saving gaps moving an hour later", () => {
    expect(instantOf(2026, 11, 30, 9, 0, SP)).toBe(Date.parse("2026-11-30T12:00:00Z"));
    expect(wallOf(Date.parse("2026-11-30T12:00:00Z"), SP)).toEqual({ y: 2026, m: 11, d: 30, h: 9, min: 0, weekday: 1 });
    expect(iso(instantOf(2026, 3, 8, 2, 30, NY))).toBe("2026-03-08T07:30:00.000Z"); // 02:30 does not exist: 03:30 EDT
    expect(iso(instantOf(2026, 11, 1, 1, 30, NY))).toBe("2026-11-01T05:30:00.000Z"); // twice that night: the first (EDT)
    expect(iso(instantOf(2026, 1, 5, 9, 0, "UTC"))).toBe("2026-01-05T09:00:00.000Z");
  });
});

describe("nextOccurrence", () => {
  it("steps daily, weekly and biweekly at the first send's wall-clock time", () => {
    const start = Date.parse("2026-11-30T12:00:00Z"); // Monday 09:00 in São Paulo
    expect(series(rule({ recurrence: "daily", scheduleDate: start }), 3)).toEqual(["2026-12-01T12:00:00.000Z", "2026-12-02T12:00:00.000Z", "2026-12-03T12:00:00.000Z"]);
    expect(series(rule({ recurrence: "weekly", scheduleDate: start }), 2)).toEqual(["2026-12-07T12:00:00.000Z", "2026-12-14T12:00:00.000Z"]);
    expect(series(rule({ recurrence: "biweekly", scheduleDate: start }), 2)).toEqual(["2026-12-14T12:00:00.000Z", "2026-12-28T12:00:00.000Z"]);
  });

  it("clamps a monthly day to the month's length and comes back to it (Jan 31 → Feb 28 → Mar 31 → Apr 30; Feb 29 in a leap year)", () => {
    const jan31 = instantOf(2027, 1, 31, 10, 15, SP);
    expect(series(rule({ recurrence: "monthly", scheduleDate: jan31 }), 4).map((t) => t && wallOf(Date.parse(t), SP))).toEqual([
      { y: 2027, m: 2, d: 28, h: 10, min: 15, weekday: 0 },
      { y: 2027, m: 3, d: 31, h: 10, min: 15, weekday: 3 },
      { y: 2027, m: 4, d: 30, h: 10, min: 15, weekday: 5 },
      { y: 2027, m: 5, d: 31, h: 10, min: 15, weekday: 1 },
    ]);
    const leap = nextOccurrence(rule({ recurrence: "monthly", scheduleDate: instantOf(2028, 1, 31, 8, 0, SP) }), instantOf(2028, 1, 31, 8, 0, SP));
    expect(wallOf(leap!, SP)).toMatchObject({ y: 2028, m: 2, d: 29, h: 8 });
    // December → January crosses the year.
    expect(wallOf(occurrence(rule({ recurrence: "monthly", scheduleDate: instantOf(2026, 12, 15, 9, 0, SP) }), 1), SP)).toMatchObject({ y: 2027, m: 1, d: 15 });
  });

  it("goes on the chosen weekdays for custom days, after the first send", () => {
    const wed = instantOf(2026, 12, 2, 18, 30, SP); // a Wednesday
    const r = rule({ recurrence: "custom", customDays: [1, 5], scheduleDate: wed }); // Mondays and Fridays
    expect(series(r, 4).map((t) => t && wallOf(Date.parse(t), SP)).map((w) => w && [w.d, w.weekday, w.h, w.min])).toEqual([
      [4, 5, 18, 30],
      [7, 1, 18, 30],
      [11, 5, 18, 30],
      [14, 1, 18, 30],
    ]);
    expect(nextOccurrence(rule({ recurrence: "custom", customDays: [], scheduleDate: wed }), wed)).toBeNull();
  });

  it("ends at the last occurrence not later than the end date", () => {
    const start = instantOf(2026, 12, 1, 9, 0, SP);
    const r = rule({ recurrence: "daily", scheduleDate: start, recurrentUntil: instantOf(2026, 12, 3, 23, 59, SP) });
    expect(series(r, 5)).toEqual(["2026-12-02T12:00:00.000Z", "2026-12-03T12:00:00.000Z", null]);
  });

  it("keeps 09:00 on the wall clock across a daylight-saving change", () => {
    const r = { recurrence: "daily" as const, scheduleDate: instantOf(2026, 3, 7, 9, 0, NY), timeZone: NY };
    expect(series(r, 2)).toEqual(["2026-03-08T13:00:00.000Z", "2026-03-09T13:00:00.000Z"]);
    expect(iso(r.scheduleDate)).toBe("2026-03-07T14:00:00.000Z");
    const weekly = { recurrence: "weekly" as const, scheduleDate: instantOf(2026, 10, 30, 9, 0, NY), timeZone: NY };
    expect(series(weekly, 1)).toEqual(["2026-11-06T14:00:00.000Z"]);
  });

  it("keeps the first send's seconds", () => {
    const start = Date.parse("2026-12-01T12:00:21.074Z");
    expect(series(rule({ recurrence: "daily", scheduleDate: start }), 1)).toEqual(["2026-12-02T12:00:21.074Z"]);
    expect(series(rule({ recurrence: "custom", customDays: [3], scheduleDate: start }), 1)).toEqual(["2026-12-02T12:00:21.074Z"]);
  });

  it("skips occurrences missed while down: the next one after the time given", () => {
    const start = instantOf(2026, 12, 1, 9, 0, SP);
    const r = rule({ recurrence: "daily", scheduleDate: start });
    expect(iso(nextOccurrence(r, instantOf(2026, 12, 20, 15, 0, SP)))).toBe("2026-12-21T12:00:00.000Z");
    expect(iso(nextOccurrence(r, start - 1))).toBe(iso(start));
    const monthly = rule({ recurrence: "monthly", scheduleDate: instantOf(2026, 1, 31, 9, 0, SP) });
    expect(wallOf(nextOccurrence(monthly, instantOf(2027, 6, 1, 0, 0, SP))!, SP)).toMatchObject({ y: 2027, m: 6, d: 30 });
  });
});
