import { followingOccurrence, nextOccurrence, recurrenceProblem } from "./recurrence";

const at = (iso: string) => Date.parse(iso);

describe("recurrence", () => {
  it("an interval counts from the due time and skips the periods already past", () => {
    expect(nextOccurrence(60_000, 1_000_000)).toBe(1_060_000);
    expect(followingOccurrence(60_000, 1_000_000, 1_000_000)).toBe(1_060_000);
    expect(followingOccurrence(60_000, 1_000_000, 1_059_999)).toBe(1_060_000);
    expect(followingOccurrence(60_000, 1_000_000, 1_060_000)).toBe(1_120_000);
    expect(followingOccurrence(60_000, 1_000_000, 1_000_000 + 5 * 60_000 + 1)).toBe(1_000_000 + 6 * 60_000);
  });

  it("a daily time in a time zone", () => {
    // São Paulo is UTC-3 (no DST since 2019).
    const rule = { at: "09:00", tz: "America/Sao_Paulo" };
    expect(nextOccurrence(rule, at("2026-03-10T11:00:00Z"))).toBe(at("2026-03-10T12:00:00Z"));
    expect(nextOccurrence(rule, at("2026-03-10T12:00:00Z"))).toBe(at("2026-03-11T12:00:00Z"));
    expect(nextOccurrence({ at: "23:30" }, at("2026-03-10T23:31:00Z"))).toBe(at("2026-03-11T23:30:00Z"));
  });

  it("weekdays, and a daylight-saving change", () => {
    // 2026-03-10 is a Tuesday; Mondays and Fridays only.
    expect(nextOccurrence({ at: "08:00", days: [1, 5] }, at("2026-03-10T00:00:00Z"))).toBe(at("2026-03-13T08:00:00Z"));
    expect(nextOccurrence({ at: "08:00", days: [2] }, at("2026-03-10T08:00:00Z"))).toBe(at("2026-03-17T08:00:00Z"));
    // Berlin moves to summer time on 2026-03-29: 09:00 local is 08:00Z before and 07:00Z after.
    const berlin = { at: "09:00", tz: "Europe/Berlin" };
    expect(nextOccurrence(berlin, at("2026-03-28T09:00:00Z"))).toBe(at("2026-03-29T07:00:00Z"));
    expect(followingOccurrence(berlin, at("2026-03-27T08:00:00Z"), at("2026-03-27T08:00:01Z"))).toBe(at("2026-03-28T08:00:00Z"));
  });

  it("says which part of a rule is wrong", () => {
    expect(recurrenceProblem(60_000)).toBeNull();
    expect(recurrenceProblem({ at: "07:05", days: [0, 6], tz: "America/Sao_Paulo" })).toBeNull();
    expect(recurrenceProblem(10)).toBe("every");
    expect(recurrenceProblem(1.5e3 + 0.5)).toBe("every");
    expect(recurrenceProblem("daily")).toBe("every");
    expect(recurrenceProblem({ at: "24:00" })).toBe("every.at");
    expect(recurrenceProblem({ at: "07:00", days: [] })).toBe("every.days");
    expect(recurrenceProblem({ at: "07:00", days: [7] })).toBe("every.days");
    expect(recurrenceProblem({ at: "07:00", tz: "Mars/Olympus" })).toBe("every.tz");
    expect(recurrenceProblem({ at: "07:00", cron: "* * *" })).toBe("every.cron");
  });
});
