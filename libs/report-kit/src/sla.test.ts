import { nextSlaChange, readSla, slaClass, ticketSla } from "./sla";

const t = { green: 30, yellow: 60, red: 120 };
const MIN = 60_000;

describe("SLA classes", () => {
  it("on time up to green, attention below red, overdue from red on", () => {
    expect(slaClass(0, t)).toBe("onTime");
    expect(slaClass(30 * MIN, t)).toBe("onTime");
    expect(slaClass(30 * MIN + 1, t)).toBe("attention");
    expect(slaClass(90 * MIN, t)).toBe("attention");
    expect(slaClass(120 * MIN - 1, t)).toBe("attention");
    expect(slaClass(120 * MIN, t)).toBe("overdue");
  });

  it("a closed ticket by its resolution time, one in progress by its age as the clock moves", () => {
    const created = 1_000_000;
    expect(ticketSla({ createdAt: created, closedAt: created + 45 * MIN }, t, created + 999 * MIN)).toBe("attention");
    const open = { createdAt: created, closedAt: null };
    expect(ticketSla(open, t, created + 10 * MIN)).toBe("onTime");
    expect(nextSlaChange(open, t, created + 10 * MIN)).toBe(created + 30 * MIN + 1);
    expect(ticketSla(open, t, created + 30 * MIN + 1)).toBe("attention");
    expect(nextSlaChange(open, t, created + 31 * MIN)).toBe(created + 120 * MIN);
    expect(ticketSla(open, t, created + 120 * MIN)).toBe("overdue");
    expect(nextSlaChange(open, t, created + 120 * MIN)).toBeNull();
    expect(nextSlaChange({ createdAt: created, closedAt: created + MIN }, t, created)).toBeNull();
    // A clock behind the creation (another node's skew) reads on time, never negative.
    expect(ticketSla(open, t, created - MIN)).toBe("onTime");
  });

  it("reads the thresholds of the settings, or none when they are missing or out of order", () => {
    expect(readSla({ sla: { green: 10, yellow: 20, red: 30 } })).toEqual({ green: 10, yellow: 20, red: 30 });
    expect(readSla({})).toBeNull();
    expect(readSla({ sla: { green: 10, yellow: 5, red: 30 } })).toBeNull();
    expect(readSla({ sla: { green: "10", yellow: 20, red: 30 } })).toBeNull();
  });
});
