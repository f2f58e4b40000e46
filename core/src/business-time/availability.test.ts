import { defaultAvailability, validateAvailability, withinAvailability } from "./rules";
import type { Availability } from "./types";

const z = (iso: string) => Date.parse(iso);
const SP = "America/Sao_Paulo";
const MIN = 60_000;

/** Monday: morning and afternoon; Wednesday: full day; Saturday: evening to midnight. */
function sample(): Availability {
  const av = defaultAvailability();
  av[1] = [
    { kind: "morning", start: "08:00", end: "12:00" },
    { kind: "afternoon", start: "13:00", end: "18:00" },
  ];
  av[3] = [{ kind: "fullDay", start: "08:00", end: "18:00" }];
  av[6] = [{ kind: "evening", start: "18:00", end: "24:00" }];
  return av;
}

describe("withinAvailability", () => {
  it("ok inside one slot of the local weekday, ends inclusive of the slot's end", () => {
    expect(withinAvailability(sample(), SP, z("2026-11-23T11:00:00Z"), z("2026-11-23T11:00:00Z") + 30 * MIN)).toBe("ok"); // Mon 08:00–08:30
    expect(withinAvailability(sample(), SP, z("2026-11-23T14:30:00Z"), z("2026-11-23T15:00:00Z"))).toBe("ok"); // Mon 11:30–12:00
  });

  it("outside when it starts too early, crosses lunch, or runs past the slot", () => {
    expect(withinAvailability(sample(), SP, z("2026-11-23T10:30:00Z"), z("2026-11-23T11:30:00Z"))).toBe("outside"); // 07:30
    expect(withinAvailability(sample(), SP, z("2026-11-23T14:30:00Z"), z("2026-11-23T16:30:00Z"))).toBe("outside"); // 11:30–13:30, two slots
    expect(withinAvailability(sample(), SP, z("2026-11-23T20:30:00Z"), z("2026-11-23T21:30:00Z"))).toBe("outside"); // 17:30–18:30
    expect(withinAvailability(sample(), SP, z("2026-11-23T12:00:00Z"), z("2026-11-23T12:00:00Z"))).toBe("outside"); // empty interval
  });

  it("noDay when the user has no slot on that local weekday", () => {
    expect(withinAvailability(sample(), SP, z("2026-11-24T13:00:00Z"), z("2026-11-24T14:00:00Z"))).toBe("noDay"); // Tuesday
    expect(withinAvailability(defaultAvailability(), SP, z("2026-11-23T13:00:00Z"), z("2026-11-23T14:00:00Z"))).toBe("noDay");
  });

  it("the weekday is the local one: Saturday 23:00 in São Paulo is Sunday in UTC", () => {
    expect(withinAvailability(sample(), SP, z("2026-11-29T02:00:00Z"), z("2026-11-29T03:00:00Z"))).toBe("ok"); // Sat 23:00–24:00
    expect(withinAvailability(sample(), SP, z("2026-11-29T02:30:00Z"), z("2026-11-29T03:30:00Z"))).toBe("outside"); // into Sunday
    expect(withinAvailability(sample(), "UTC", z("2026-11-29T02:00:00Z"), z("2026-11-29T03:00:00Z"))).toBe("noDay"); // Sunday in UTC
  });

  it("slot hours are wall-clock hours across a DST change (New York, Monday 2026-03-09 is EDT)", () => {
    const av = defaultAvailability();
    av[1] = [{ kind: "morning", start: "08:00", end: "12:00" }];
    expect(withinAvailability(av, "America/New_York", z("2026-03-09T12:00:00Z"), z("2026-03-09T13:00:00Z"))).toBe("ok"); // 08:00 EDT
    expect(withinAvailability(av, "America/New_York", z("2026-03-02T12:00:00Z"), z("2026-03-02T13:00:00Z"))).toBe("outside"); // 07:00 EST
  });
});

describe("validateAvailability", () => {
  it("accepts seven lists of known slots", () => {
    expect(validateAvailability(sample())).toBeNull();
    expect(validateAvailability(defaultAvailability())).toBeNull();
  });

  it("names the first problem", () => {
    expect(validateAvailability(sample().slice(1))).toEqual({ day: -1, problem: "count" });
    const kind = sample() as unknown as Array<Array<Record<string, string>>>;
    kind[2] = [{ kind: "night", start: "20:00", end: "23:00" }];
    expect(validateAvailability(kind)).toEqual({ day: 2, problem: "kind" });
    const format = sample();
    format[4] = [{ kind: "morning", start: "8h", end: "12:00" }];
    expect(validateAvailability(format)).toEqual({ day: 4, problem: "format" });
    const order = sample();
    order[5] = [{ kind: "evening", start: "22:00", end: "18:00" }];
    expect(validateAvailability(order)).toEqual({ day: 5, problem: "order" });
  });
});
