/** The form's day/month/year hour:minute dates. */
import { formatDate, formatDateTime, maskDateTime, parseDateEnd, parseDateTime } from "./datetime";

describe("form dates", () => {
  it("reads dd/mm/yyyy hh:mm in the browser's zone and refuses what is not a real date", () => {
    expect(parseDateTime("25/12/2026 09:30")).toBe(new Date(2026, 11, 25, 9, 30).getTime());
    expect(parseDateTime(" 1/2/2027 7:05 ")).toBe(new Date(2027, 1, 1, 7, 5).getTime());
    for (const bad of ["31/02/2026 10:00", "25/13/2026 10:00", "25/12/2026 24:00", "25/12/2026 10:60", "2026-12-25 10:00", "25/12/2026", ""]) expect(parseDateTime(bad)).toBeNull();
    expect(parseDateEnd("31/12/2026")).toBe(new Date(2026, 11, 31, 23, 59).getTime());
  });

  it("writes them back and masks typing", () => {
    const t = new Date(2026, 0, 5, 8, 7).getTime();
    expect(formatDateTime(t)).toBe("05/01/2026 08:07");
    expect(formatDate(t)).toBe("05/01/2026");
    expect(parseDateTime(formatDateTime(t))).toBe(t);
    expect(maskDateTime("251220260930")).toBe("25/12/2026 09:30");
    expect(maskDateTime("2512")).toBe("25/12");
    expect(maskDateTime("25/12/2026 0")).toBe("25/12/2026 0");
    expect(maskDateTime("3112202612", false)).toBe("31/12/2026");
  });
});
