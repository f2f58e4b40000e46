import { SLA_DEFAULTS, slaAgeParts, slaLevel, slaThresholds, ticketSla } from "./sla";

describe("the attendance list's SLA", () => {
  const t = { green: 10, yellow: 20, red: 45 };

  it("levels an age by the thresholds: on time, attention, late, overdue", () => {
    expect([0, 10, 11, 20, 21, 44, 45, 600].map((m) => slaLevel(m, t))).toEqual(["onTime", "onTime", "attention", "attention", "late", "late", "overdue", "overdue"]);
  });

  it("counts a waiting or open ticket from its creation; closed and group tickets have no clock", () => {
    const now = Date.parse("2026-11-24T12:00:00Z");
    expect(ticketSla({ status: "pending", createdAt: "2026-11-24T11:45:30Z" }, now, t)).toEqual({ minutes: 14, level: "attention" });
    expect(ticketSla({ status: "open", createdAt: new Date(now - 50 * 60_000) }, now, t)).toEqual({ minutes: 50, level: "overdue" });
    expect(ticketSla({ status: "closed", createdAt: "2026-11-24T11:00:00Z" }, now, t)).toBeNull();
    expect(ticketSla({ status: "group", isGroup: true, createdAt: "2026-11-24T11:00:00Z" }, now, t)).toBeNull();
    expect(ticketSla({ status: "open", isGroup: true, createdAt: "2026-11-24T11:00:00Z" }, now, t)).toBeNull();
    expect(ticketSla({ status: "open" }, now, t)).toBeNull();
  });

  it("reads the stored setting, the defaults when it is missing or malformed", () => {
    expect(slaThresholds(t)).toEqual(t);
    expect(slaThresholds(undefined)).toEqual(SLA_DEFAULTS);
    expect(slaThresholds({ green: "5", yellow: 1, red: 2 })).toEqual(SLA_DEFAULTS);
  });

  it("prints minutes, hours and minutes, days and hours", () => {
    expect(slaAgeParts(7)).toEqual({ key: "minutes", values: { m: 7 } });
    expect(slaAgeParts(125)).toEqual({ key: "hours", values: { h: 2, m: 5 } });
    expect(slaAgeParts(3 * 1440 + 200)).toEqual({ key: "days", values: { d: 3, h: 3 } });
  });
});
