import { PluginError } from "@openatende/plugin-sdk";
import { hourOf, hoursOf, inPeriod, reportPeriod, startOfDay, wallTime } from "./period";

const now = Date.UTC(2026, 10, 24, 15, 0); // 24 Nov 2026, 12:00 in São Paulo

function code(fn: () => unknown): { code: string; data: unknown } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PluginError);
    return { code: (err as PluginError).type as string, data: (err as PluginError).data };
  }
  throw new Error("did not throw");
}

describe("report period", () => {
  it("defaults to the current month in the reader's zone", () => {
    const p = reportPeriod({}, now, "ERR_X");
    expect(p).toMatchObject({ from: "2026-11-01", to: "2026-11-30", timeZone: "America/Sao_Paulo" });
    expect(p.start).toBe(Date.UTC(2026, 10, 1, 3));
    expect(p.end).toBe(Date.UTC(2026, 11, 1, 3));
    // At 01:00 UTC on 1 Dec it is still 30 Nov in São Paulo.
    expect(reportPeriod({}, Date.UTC(2026, 11, 1, 1), "ERR_X").from).toBe("2026-11-01");
    expect(reportPeriod({ tz: "UTC" }, Date.UTC(2026, 11, 1, 1), "ERR_X").from).toBe("2026-12-01");
  });

  it("takes inclusive dates; one given alone spans its month", () => {
    const p = reportPeriod({ from: "2026-03-10", to: "2026-03-10", tz: "UTC" }, now, "ERR_X");
    expect([p.start, p.end]).toEqual([Date.UTC(2026, 2, 10), Date.UTC(2026, 2, 11)]);
    expect(reportPeriod({ from: "2026-02-10", tz: "UTC" }, now, "ERR_X").to).toBe("2026-02-28");
    expect(reportPeriod({ to: "2026-02-10", tz: "UTC" }, now, "ERR_X").from).toBe("2026-02-01");
  });

  it("follows daylight saving (a 23-hour day)", () => {
    const s = startOfDay(2026, 3, 29, "Europe/Berlin");
    const e = startOfDay(2026, 3, 30, "Europe/Berlin");
    expect(s).toBe(Date.UTC(2026, 2, 28, 23));
    expect(e - s).toBe(23 * 3_600_000);
  });

  it("refuses what is not a period, naming the field", () => {
    expect(code(() => reportPeriod({ from: "2026-02-30" }, now, "ERR_X"))).toEqual({ code: "ERR_X_PERIOD_INVALID", data: { field: "from", reason: "date" } });
    expect(code(() => reportPeriod({ to: "ontem" }, now, "ERR_X"))).toEqual({ code: "ERR_X_PERIOD_INVALID", data: { field: "to", reason: "date" } });
    expect(code(() => reportPeriod({ from: "2026-03-02", to: "2026-03-01" }, now, "ERR_X")).data).toEqual({ field: "to", reason: "beforeFrom" });
    expect(code(() => reportPeriod({ from: "2025-01-01", to: "2026-03-01" }, now, "ERR_X")).data).toEqual({ field: "to", reason: "tooLong" });
    expect(code(() => reportPeriod({ tz: "Mars/Olympus" }, now, "ERR_X")).data).toEqual({ field: "tz", reason: "zone" });
  });

  it("reads an instant as the wall clock of a zone (for spreadsheet cells)", () => {
    expect(new Date(wallTime(Date.UTC(2026, 10, 24, 2, 5, 7), "America/Sao_Paulo")).toISOString()).toBe("2026-11-23T23:05:07.000Z");
    expect(wallTime(Date.UTC(2026, 10, 24, 2, 5), "UTC")).toBe(Date.UTC(2026, 10, 24, 2, 5));
  });

  it("lists the hour buckets that cover it", () => {
    const p = reportPeriod({ from: "2026-03-10", to: "2026-03-11", tz: "America/Sao_Paulo" }, now, "ERR_X");
    const hours = hoursOf(p);
    expect(hours).toHaveLength(48);
    expect(hours[0]).toBe(hourOf(p.start));
    expect(inPeriod(p, p.start)).toBe(true);
    expect(inPeriod(p, p.end)).toBe(false);
  });
});
