/** The rules across time zones, DST changes in both directions, and local midnight. */
import { closesAt, isOpenAt, nextOpenAt, openStretches, timeState } from "./rules";
import { HOUR, OPEN, input, schedule, specific, week } from "./test-fixtures";

const z = (iso: string) => Date.parse(iso);
const target = { queueId: 1 };

describe("São Paulo, DST starts 2018-11-04 (Sunday): 00:00 jumps to 01:00", () => {
  const tz = "America/Sao_Paulo";

  it("a range starting inside the skipped hour opens at the jump", () => {
    const rules = input(tz, [schedule({ days: week({ 0: specific("00:30-02:00") }) })]);
    expect(isOpenAt(rules, target, z("2018-11-04T02:59:00Z"))).toBe(false); // Saturday 23:59 (-03)
    expect(nextOpenAt(rules, target, z("2018-11-04T02:59:00Z"))).toBe(z("2018-11-04T03:00:00Z")); // 01:00 (-02)
    expect(isOpenAt(rules, target, z("2018-11-04T03:59:00Z"))).toBe(true); // 01:59 (-02)
    expect(isOpenAt(rules, target, z("2018-11-04T04:00:00Z"))).toBe(false); // 02:00 (-02)
    expect(openStretches(rules, target, z("2018-11-03T00:00:00Z"), z("2018-11-06T00:00:00Z"))).toEqual([{ start: z("2018-11-04T03:00:00Z"), end: z("2018-11-04T04:00:00Z") }]);
  });

  it("a range wholly inside the skipped hour never opens; the day's later range does, at -02", () => {
    const rules = input(tz, [schedule({ days: week({ 0: specific("00:00-00:45", "09:00-10:00") }) })]);
    expect(nextOpenAt(rules, target, z("2018-11-04T01:00:00Z"))).toBe(z("2018-11-04T11:00:00Z"));
  });

  it("open all Sunday is 23 hours, and Saturday's open day runs straight into it", () => {
    const rules = input(tz, [schedule({ days: week({ 6: OPEN, 0: OPEN }) })]);
    expect(closesAt(rules, target, z("2018-11-03T12:00:00Z"))).toBe(z("2018-11-05T02:00:00Z")); // Monday 00:00 (-02)
    expect(openStretches(rules, target, z("2018-11-04T03:00:00Z"), z("2018-11-06T00:00:00Z"))).toEqual([{ start: z("2018-11-04T03:00:00Z"), end: z("2018-11-05T02:00:00Z") }]);
  });
});

describe("São Paulo, DST ends 2019-02-17: 00:00 falls back to 23:00 of Saturday the 16th", () => {
  const tz = "America/Sao_Paulo";

  it("an evening to 24:00 covers the repeated hour: three hours", () => {
    const rules = input(tz, [schedule({ days: week({ 6: specific(null, "22:00-24:00") }) })]);
    expect(nextOpenAt(rules, target, z("2019-02-16T20:00:00Z"))).toBe(z("2019-02-17T00:00:00Z")); // 22:00 (-02)
    expect(isOpenAt(rules, target, z("2019-02-17T01:30:00Z"))).toBe(true); // first 23:30
    expect(isOpenAt(rules, target, z("2019-02-17T02:30:00Z"))).toBe(true); // second 23:30 (-03)
    expect(closesAt(rules, target, z("2019-02-17T00:00:00Z"))).toBe(z("2019-02-17T03:00:00Z")); // Sunday 00:00 (-03)
  });

  it("a range ending in the repeated hour closes at its first occurrence and stays closed", () => {
    const rules = input(tz, [schedule({ days: week({ 6: specific(null, "22:00-23:30") }) })]);
    expect(closesAt(rules, target, z("2019-02-17T00:30:00Z"))).toBe(z("2019-02-17T01:30:00Z"));
    const s = timeState(rules, target, z("2019-02-17T02:10:00Z")); // 23:10 again, now -03
    expect(s.open).toBe(false);
    expect(s.nextOpenAt).toBe(z("2019-02-24T01:00:00Z")); // next Saturday 22:00 (-03)
  });
});

describe("New York 2026", () => {
  const tz = "America/New_York";

  it("March 8: a range across the skipped 02:00–03:00 lasts an hour less", () => {
    const rules = input(tz, [schedule({ days: week({ 0: specific("01:00-03:30") }) })]);
    expect(openStretches(rules, target, z("2026-03-08T00:00:00Z"), z("2026-03-09T00:00:00Z"))).toEqual([{ start: z("2026-03-08T06:00:00Z"), end: z("2026-03-08T07:30:00Z") }]);
  });

  it("March 8: a range starting at 02:15, which does not exist, opens at 03:00 EDT", () => {
    const rules = input(tz, [schedule({ days: week({ 0: specific("02:15-04:00") }) })]);
    expect(nextOpenAt(rules, target, z("2026-03-08T05:00:00Z"))).toBe(z("2026-03-08T07:00:00Z"));
    expect(closesAt(rules, target, z("2026-03-08T07:00:00Z"))).toBe(z("2026-03-08T08:00:00Z"));
  });

  it("over the March weekend, Monday 09:00 is already EDT (13:00 UTC)", () => {
    const s = timeState(input(tz, [schedule()]), target, z("2026-03-06T23:00:00Z")); // Friday 18:00 EST
    expect(s.nextOpenAt).toBe(z("2026-03-09T13:00:00Z"));
  });

  it("November 1: a range ending at 01:30 closes at the first 01:30 (EDT), not the repeated one", () => {
    const rules = input(tz, [schedule({ days: week({ 0: specific("00:00-01:30") }) })]);
    expect(closesAt(rules, target, z("2026-11-01T04:30:00Z"))).toBe(z("2026-11-01T05:30:00Z"));
    expect(isOpenAt(rules, target, z("2026-11-01T06:15:00Z"))).toBe(false); // 01:15 EST
  });

  it("November 1: 01:30–03:00 opens at the first 01:30 and lasts two and a half hours", () => {
    const rules = input(tz, [schedule({ days: week({ 0: specific("01:30-03:00") }) })]);
    const [only, ...rest] = openStretches(rules, target, z("2026-11-01T00:00:00Z"), z("2026-11-02T00:00:00Z"));
    expect(rest).toEqual([]);
    expect(only).toEqual({ start: z("2026-11-01T05:30:00Z"), end: z("2026-11-01T08:00:00Z") });
    expect(only.end - only.start).toBe(2.5 * HOUR);
  });

  it("over the November weekend, Monday 09:00 is back to EST (14:00 UTC)", () => {
    const s = timeState(input(tz, [schedule()]), target, z("2026-10-30T22:00:00Z")); // Friday 18:00 EDT
    expect(s.nextOpenAt).toBe(z("2026-11-02T14:00:00Z"));
  });
});

describe("zones without DST", () => {
  it("Moscow: 09:00 is 06:00 UTC in winter and in summer", () => {
    const rules = input("Europe/Moscow", [schedule()]);
    expect(nextOpenAt(rules, target, z("2026-01-12T05:00:00Z"))).toBe(z("2026-01-12T06:00:00Z"));
    expect(nextOpenAt(rules, target, z("2026-07-13T05:00:00Z"))).toBe(z("2026-07-13T06:00:00Z"));
  });

  it("Kolkata: the half-hour offset moves every boundary by :30", () => {
    const rules = input("Asia/Kolkata", [schedule({ messages: { lunch: "lunch" } })]);
    expect(isOpenAt(rules, target, z("2026-11-23T03:29:00Z"))).toBe(false); // Monday 08:59 IST
    expect(isOpenAt(rules, target, z("2026-11-23T03:30:00Z"))).toBe(true);
    expect(timeState(rules, target, z("2026-11-23T06:30:00Z"))).toMatchObject({ reason: "lunch", nextOpenAt: z("2026-11-23T07:30:00Z") });
  });
});

describe("local midnight, not UTC midnight", () => {
  const tz = "America/Sao_Paulo";

  it("Friday 23:30 in São Paulo is Saturday in UTC, and still Friday's hours", () => {
    const rules = input(tz, [schedule({ days: week({ 5: specific(null, "18:00-24:00") }) })]);
    expect(isOpenAt(rules, target, z("2026-11-28T02:30:00Z"))).toBe(true);
    expect(isOpenAt(rules, target, z("2026-11-28T03:00:00Z"))).toBe(false); // Saturday 00:00 local
  });

  it("'the next day' is the next local day", () => {
    const rules = input(tz, [schedule()]);
    // Saturday 22:00 local = Sunday 01:00 UTC: tomorrow is Sunday, closed
    expect(timeState(rules, target, z("2026-11-29T01:00:00Z")).nextDayHasHours).toBe(false);
    // Sunday 22:00 local = Monday 01:00 UTC: tomorrow is Monday
    expect(timeState(rules, target, z("2026-11-30T01:00:00Z")).nextDayHasHours).toBe(true);
  });

  it("the same instant is open in one zone and closed in another", () => {
    const at = z("2026-11-23T13:00:00Z"); // Monday 10:00 in São Paulo, 16:00 in Moscow, 18:30 in Kolkata
    expect(isOpenAt(input("America/Sao_Paulo", [schedule()]), target, at)).toBe(true);
    expect(isOpenAt(input("Europe/Moscow", [schedule()]), target, at)).toBe(true);
    expect(isOpenAt(input("Asia/Kolkata", [schedule()]), target, at)).toBe(false);
  });
});
