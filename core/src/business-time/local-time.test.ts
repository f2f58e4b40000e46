import { dayFromIso, dayStart, isValidTimeZone, isoFromDay, localMoment, localToUtc, offsetAt, parseTimeOfDay, weekdayOf } from "./local-time";

const iso = (t: number) => new Date(t).toISOString();
const day = (s: string) => dayFromIso(s) as number;
const at = (s: string) => Date.parse(s);

describe("local-time: calendar days", () => {
  it("numbers days from 1970-01-01 and knows their weekday", () => {
    expect(day("1970-01-01")).toBe(0);
    expect(weekdayOf(0)).toBe(4); // Thursday
    expect(weekdayOf(day("2026-11-22"))).toBe(0); // Sunday
    expect(weekdayOf(day("2026-11-28"))).toBe(6); // Saturday
    expect(weekdayOf(day("1969-12-31"))).toBe(3); // before the epoch too
    expect(isoFromDay(day("2024-02-29"))).toBe("2024-02-29");
  });

  it("refuses dates that do not exist and ignores a time part", () => {
    expect(dayFromIso("2026-02-30")).toBeNull();
    expect(dayFromIso("25/12/2026")).toBeNull();
    expect(dayFromIso("2026-12-25T00:00:00.000Z")).toBe(day("2026-12-25"));
  });

  it("parses HH:MM, with 24:00 only as an end", () => {
    expect(parseTimeOfDay("08:30")).toBe(510);
    expect(parseTimeOfDay("24:00")).toBeNull();
    expect(parseTimeOfDay("24:00", true)).toBe(1440);
    expect(parseTimeOfDay("24:01", true)).toBeNull();
    expect(parseTimeOfDay("8:30")).toBeNull();
    expect(parseTimeOfDay("12:60")).toBeNull();
    expect(parseTimeOfDay(830)).toBeNull();
  });

  it("knows real zones only", () => {
    expect(isValidTimeZone("America/Sao_Paulo")).toBe(true);
    expect(isValidTimeZone("Mars/Olympus")).toBe(false);
    expect(isValidTimeZone("")).toBe(false);
  });
});

describe("local-time: zones without DST", () => {
  it("Moscow is UTC+3 in winter and summer", () => {
    expect(offsetAt("Europe/Moscow", at("2026-01-15T12:00:00Z"))).toBe(3 * 3600e3);
    expect(offsetAt("Europe/Moscow", at("2026-07-15T12:00:00Z"))).toBe(3 * 3600e3);
    expect(iso(localToUtc("Europe/Moscow", day("2026-07-15"), 9 * 60))).toBe("2026-07-15T06:00:00.000Z");
  });

  it("Kolkata's half hour: local midnight is 18:30 UTC the day before", () => {
    expect(iso(dayStart("Asia/Kolkata", day("2026-03-10")))).toBe("2026-03-09T18:30:00.000Z");
    expect(localMoment("Asia/Kolkata", at("2026-03-09T18:29:00Z"))).toEqual({ day: day("2026-03-09"), minute: 1439 });
    expect(localMoment("Asia/Kolkata", at("2026-03-09T18:30:00Z"))).toEqual({ day: day("2026-03-10"), minute: 0 });
  });
});

describe("local-time: São Paulo DST (until 2019)", () => {
  const tz = "America/Sao_Paulo";

  it("2018-11-04 has no midnight: the day starts at the jump to 01:00 (-02)", () => {
    expect(iso(dayStart(tz, day("2018-11-04")))).toBe("2018-11-04T03:00:00.000Z");
    // a time inside the skipped hour is the jump too
    expect(iso(localToUtc(tz, day("2018-11-04"), 30))).toBe("2018-11-04T03:00:00.000Z");
    // after the jump the offset is -02
    expect(iso(localToUtc(tz, day("2018-11-04"), 9 * 60))).toBe("2018-11-04T11:00:00.000Z");
    // and the day before was a plain -03 day that ends at the jump
    expect(iso(localToUtc(tz, day("2018-11-03"), 23 * 60))).toBe("2018-11-04T02:00:00.000Z");
  });

  it("2019-02-16 repeats 23:00-24:00: the first 23:30 counts, and the day lasts 25 hours", () => {
    expect(iso(localToUtc(tz, day("2019-02-16"), 23 * 60 + 30))).toBe("2019-02-17T01:30:00.000Z");
    const start = dayStart(tz, day("2019-02-16"));
    const end = dayStart(tz, day("2019-02-17"));
    expect(iso(end)).toBe("2019-02-17T03:00:00.000Z");
    expect(end - start).toBe(25 * 3600e3);
    // both 23:30s read as the 16th
    expect(localMoment(tz, at("2019-02-17T01:30:00Z"))).toEqual({ day: day("2019-02-16"), minute: 1410 });
    expect(localMoment(tz, at("2019-02-17T02:30:00Z"))).toEqual({ day: day("2019-02-16"), minute: 1410 });
  });

  it("2019 onwards has no DST: November 2019 stays -03", () => {
    expect(iso(dayStart(tz, day("2019-11-03")))).toBe("2019-11-03T03:00:00.000Z");
    expect(dayStart(tz, day("2019-11-04")) - dayStart(tz, day("2019-11-03"))).toBe(24 * 3600e3);
  });
});

describe("local-time: New York DST 2026", () => {
  const tz = "America/New_York";

  it("2026-03-08 skips 02:00-03:00 and lasts 23 hours", () => {
    expect(iso(localToUtc(tz, day("2026-03-08"), 1 * 60 + 59))).toBe("2026-03-08T06:59:00.000Z");
    expect(iso(localToUtc(tz, day("2026-03-08"), 2 * 60 + 30))).toBe("2026-03-08T07:00:00.000Z");
    expect(iso(localToUtc(tz, day("2026-03-08"), 3 * 60))).toBe("2026-03-08T07:00:00.000Z");
    expect(dayStart(tz, day("2026-03-09")) - dayStart(tz, day("2026-03-08"))).toBe(23 * 3600e3);
  });

  it("2026-11-01 repeats 01:00-02:00: the first 01:30 (EDT) counts, and the day lasts 25 hours", () => {
    expect(iso(localToUtc(tz, day("2026-11-01"), 90))).toBe("2026-11-01T05:30:00.000Z");
    expect(iso(localToUtc(tz, day("2026-11-01"), 120))).toBe("2026-11-01T07:00:00.000Z");
    expect(dayStart(tz, day("2026-11-02")) - dayStart(tz, day("2026-11-01"))).toBe(25 * 3600e3);
  });

  it("never maps a later wall time to an earlier instant across the changes", () => {
    for (const d of ["2026-03-08", "2026-11-01"]) {
      let last = -Infinity;
      for (let m = 0; m <= 1440; m += 15) {
        const t = localToUtc(tz, day(d), m);
        expect(t).toBeGreaterThanOrEqual(last);
        last = t;
      }
    }
  });
});
