import { formatProtocol, type ProtocolFormat } from "./protocol";

// 2026-03-07 23:30 in São Paulo is already 2026-03-08 in UTC and in Tokyo.
const AT = new Date("2026-03-08T02:30:00Z");

describe("ticket protocol", () => {
  it.each<[ProtocolFormat, string, string]>([
    [{ dateFormat: "YYYYMMDD", idPosition: "end", prefix: "", suffix: "", separator: "" }, "America/Sao_Paulo", "20260307123"],
    [{ dateFormat: "YYYYMMDD", idPosition: "end", prefix: "AT-", suffix: "-Z", separator: "/" }, "Asia/Tokyo", "AT-20260308/123-Z"],
    [{ dateFormat: "YYMMDD", idPosition: "start", prefix: "P", separator: "." }, "Asia/Tokyo", "P123.260308"],
    [{ dateFormat: "YYYYMM", idPosition: "end", separator: "-" }, "America/Sao_Paulo", "202603-123"],
    [{ dateFormat: "YYYY", idPosition: "start", suffix: "X" }, "UTC", "1232026X"],
    [{ dateFormat: "", idPosition: "end", prefix: "#", separator: "-" }, "UTC", "#123"],
  ])("%j in %s is %s", (format, tz, expected) => {
    expect(formatProtocol(123, AT, format, tz)).toBe(expected);
  });

  it("takes the calendar day of the tenant's zone on both sides of midnight", () => {
    const f: ProtocolFormat = { dateFormat: "YYYYMMDD", idPosition: "end", separator: "-" };
    expect(formatProtocol(7, new Date("2025-12-31T23:59:59Z"), f, "UTC")).toBe("20251231-7");
    expect(formatProtocol(7, new Date("2026-01-01T00:00:00Z"), f, "UTC")).toBe("20260101-7");
    expect(formatProtocol(7, new Date("2026-01-01T00:00:00Z"), f, "America/Los_Angeles")).toBe("20251231-7");
    expect(formatProtocol(7, new Date("2025-12-31T10:30:00Z"), f, "Pacific/Kiritimati")).toBe("20260101-7");
  });
});
