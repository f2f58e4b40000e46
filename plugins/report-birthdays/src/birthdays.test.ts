/** The birthday rules on an injected clock: periods, ages, "not yet passed", 9:00 local, placeholders (Dec 31 / Jan 1, Feb 29). */
import { ageIn, birthdayRunAt, hasPassed, isoOf, localInstant, occurrenceIn, occurrenceInPeriod, parseBirthday, periodDates, renderMessage } from "./birthdays";

const SP = "America/Sao_Paulo"; // UTC−3, no DST
const b = (s: string) => parseBirthday(s)!;

describe("birthdays", () => {
  it("reads a birthday field, refusing what is not a date", () => {
    expect(parseBirthday("1990-05-17")).toEqual({ y: 1990, m: 5, d: 17 });
    expect(parseBirthday("2000-02-29")).toEqual({ y: 2000, m: 2, d: 29 });
    expect(parseBirthday("1999-02-29")).toBeNull();
    expect(parseBirthday("")).toBeNull();
    expect(parseBirthday(null)).toBeNull();
  });

  it("a Feb 29 birthday is on Feb 28 in a common year and Feb 29 in a leap one; the age is the one turned that year", () => {
    expect(isoOf(occurrenceIn(b("2000-02-29"), 2027))).toBe("2027-02-28");
    expect(isoOf(occurrenceIn(b("2000-02-29"), 2028))).toBe("2028-02-29");
    expect(ageIn(b("2000-02-29"), 2027)).toBe(27);
    // February of a common year lists the Feb 29 birthday on the 28th.
    const feb2027 = periodDates("month", Date.UTC(2027, 0, 10, 15), SP, 2);
    expect(feb2027).toHaveLength(28);
    expect(isoOf(occurrenceInPeriod(b("2000-02-29"), feb2027)!)).toBe("2027-02-28");
    expect(occurrenceInPeriod(b("2000-03-01"), feb2027)).toBeNull();
  });

  it("today and this week are the tenant's dates: at 23:30 on Dec 31 in São Paulo it is already Jan 1 in UTC", () => {
    const now = Date.UTC(2027, 0, 1, 2, 30); // 2026-12-31 23:30 in São Paulo
    expect(periodDates("today", now, SP).map(isoOf)).toEqual(["2026-12-31"]);
    expect(periodDates("today", now, "UTC").map(isoOf)).toEqual(["2027-01-01"]);
    // Sunday Dec 27 … Saturday Jan 2: a Jan 1 birthday in the week is next year's, and its age is next year's.
    const week = periodDates("week", now, SP);
    expect(week.map(isoOf)).toEqual(["2026-12-27", "2026-12-28", "2026-12-29", "2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"]);
    const jan1 = occurrenceInPeriod(b("1990-01-01"), week)!;
    expect(isoOf(jan1)).toBe("2027-01-01");
    expect(ageIn(b("1990-01-01"), jan1.y)).toBe(37);
    // The month defaults to the tenant's current one.
    expect(periodDates("month", now, SP)[0]).toEqual({ y: 2026, m: 12, d: 1 });
  });

  it("a birthday passed when its date this year is before today, in the tenant's time zone; today's has not passed", () => {
    const now = Date.UTC(2027, 0, 1, 2, 30); // 2026-12-31 23:30 in São Paulo
    expect(hasPassed(occurrenceIn(b("1980-12-31"), 2026), now, SP)).toBe(false);
    expect(hasPassed(occurrenceIn(b("1980-01-01"), 2026), now, SP)).toBe(true);
    expect(hasPassed(occurrenceIn(b("1980-12-30"), 2026), now, SP)).toBe(true);
    // In UTC that instant is Jan 1: Dec 31 has passed and Jan 1 is today.
    expect(hasPassed(occurrenceIn(b("1980-12-31"), 2026), now, "UTC")).toBe(true);
    expect(hasPassed(occurrenceIn(b("1980-01-01"), 2027), now, "UTC")).toBe(false);
  });

  it("a scheduled message goes at 9:00 local on the birthday, at once when 9:00 came today, never for a passed one", () => {
    const jan1 = Date.UTC(2026, 0, 1, 12); // 09:00 in São Paulo
    expect(localInstant({ y: 2026, m: 1, d: 1 }, 9, SP)).toBe(jan1);
    const early = Date.UTC(2025, 11, 31, 20); // Dec 31, 17:00 in São Paulo
    expect(birthdayRunAt({ y: 2026, m: 1, d: 1 }, early, SP)).toBe(jan1);
    expect(birthdayRunAt({ y: 2025, m: 12, d: 31 }, early, SP)).toBe(early); // today, after 9:00: at once
    expect(birthdayRunAt({ y: 2025, m: 12, d: 30 }, early, SP)).toBeNull();
    expect(birthdayRunAt({ y: 2025, m: 12, d: 31 }, Date.UTC(2025, 11, 31, 5), SP)).toBe(Date.UTC(2025, 11, 31, 12)); // 02:00 local: 9:00 later that day
    // A zone with DST (New York, Mar 8 2026 springs forward at 2:00): 9:00 is EDT, UTC−4.
    expect(localInstant({ y: 2026, m: 3, d: 8 }, 9, "America/New_York")).toBe(Date.UTC(2026, 2, 8, 13));
  });

  it("fills {{name}} and {{age}} (any case, spaces inside the braces), leaving other text alone", () => {
    expect(renderMessage("Parabéns, {{name}}! {{ age }} anos! {{NAME}} {{other}}", { name: "Ana", age: 30 })).toBe("Parabéns, Ana! 30 anos! Ana {{other}}");
    expect(renderMessage("{{age}}", { name: "Ana", age: null })).toBe("");
  });
});
