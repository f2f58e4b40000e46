/** The report's pure parts: what a filter selects, and the cards counted by hand. */
import { reportPeriod } from "@openatende/report-kit";
import { summarize, whereOf } from "./query";

const MIN = 60_000;
const sla = { green: 30, yellow: 60, red: 120 };
const T = Date.UTC(2026, 2, 10, 12);

describe("the tickets report's filters", () => {
  it("selects by the period's hours and the given filters, never deleted rows", () => {
    const period = reportPeriod({ from: "2026-03-10", to: "2026-03-10", tz: "UTC" }, T, "ERR_X");
    const w = whereOf({ period, status: ["closed"], queueIds: [2], userIds: [7], ids: [1, 2] });
    expect(w).toMatchObject({ deleted: false, status: ["closed"], queueId: [2], userId: [7], id: [1, 2] });
    expect((w.createdHour as number[]).length).toBe(24);
    expect(Object.keys(whereOf({ period }))).toEqual(["deleted", "createdHour"]);
  });
});

describe("the summary cards", () => {
  const rows = [
    { status: "closed" as const, createdAt: T, closedAt: T + 20 * MIN },
    { status: "closed" as const, createdAt: T, closedAt: T + 45 * MIN },
    { status: "closed" as const, createdAt: T, closedAt: T + 150 * MIN },
    { status: "closed" as const, createdAt: T, closedAt: T + 30 * MIN },
    { status: "open" as const, createdAt: T, closedAt: null },
    { status: "pending" as const, createdAt: T + 100 * MIN, closedAt: null },
    { status: "chatbot" as const, createdAt: T + 130 * MIN, closedAt: null },
  ];

  it("counts by hand: 4 closed (2 on time, 1 attention, 1 overdue), 3 in progress, rate 4/7", () => {
    const s = summarize(rows, sla, T + 140 * MIN);
    expect(s).toMatchObject({ total: 7, closed: 4, open: 1, pending: 1, inProgress: 3, resolutionRate: 0.5714 });
    expect(s.closedSla).toEqual({ onTime: 2, attention: 1, overdue: 1 });
    // At +140: open is 140 min old (overdue), pending 40 (attention), chatbot 10 (on time).
    expect(s.inProgressSla).toEqual({ onTime: 1, attention: 1, overdue: 1 });
    expect(s.avgResolutionMs).toBe(((20 + 45 + 150 + 30) * MIN) / 4);
    expect(s.nextChangeAt).toBe(T + 130 * MIN + 30 * MIN + 1);
  });

  it("moves the in-progress classes as the clock passes the thresholds", () => {
    expect(summarize(rows, sla, T + 160 * MIN + 1).inProgressSla).toEqual({ onTime: 0, attention: 2, overdue: 1 });
    expect(summarize(rows, sla, T + 220 * MIN).inProgressSla).toEqual({ onTime: 0, attention: 1, overdue: 2 });
    expect(summarize(rows, sla, T + 250 * MIN).inProgressSla).toEqual({ onTime: 0, attention: 0, overdue: 3 });
  });

  it("answers without SLA classes when the thresholds are unknown, and no rate without tickets", () => {
    const s = summarize(rows, null, T);
    expect(s.sla).toBeNull();
    expect(s.closedSla).toEqual({ onTime: 0, attention: 0, overdue: 0 });
    expect(summarize([], sla, T)).toMatchObject({ total: 0, resolutionRate: null, avgResolutionMs: null, nextChangeAt: null });
  });
});
