import { formatDateTime, maskDateTime, parseDateTime } from "./datetime";

describe("the form's dates", () => {
  it("reads day/month/year hour:minute, refusing dates that do not exist", () => {
    expect(parseDateTime("05/12/2026 09:30")).toBe(new Date(2026, 11, 5, 9, 30).getTime());
    expect(parseDateTime("31/02/2030 10:00")).toBeNull();
    expect(parseDateTime("10/10/2030 24:00")).toBeNull();
    expect(parseDateTime("10/10/2030")).toBeNull();
    expect(formatDateTime(new Date(2026, 0, 2, 3, 4))).toBe("02/01/2026 03:04");
  });
  it("masks what is typed to that shape", () => {
    expect(maskDateTime("051220260930")).toBe("05/12/2026 09:30");
    expect(maskDateTime("0512")).toBe("05/12");
    expect(maskDateTime("05/12/2026 0")).toBe("05/12/2026 0");
  });
});
