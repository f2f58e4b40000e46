import { formatCount, formatDateTime, formatDecimal, formatMinutes, formatPercent, ratio } from "./format";

describe("pt-BR figures", () => {
  it("writes decimals with a comma, thousands with a dot, 2 to 3 decimals", () => {
    expect(formatDecimal(1234.5)).toBe("1.234,50");
    expect(formatDecimal(0.125)).toBe("0,125");
    expect(formatDecimal(0.1255)).toBe("0,126");
    expect(formatDecimal(0.1255, 2)).toBe("0,13");
    expect(formatDecimal(-0)).toBe("0,00");
    expect(formatDecimal(null)).toBe("");
    expect(formatDecimal(Number.NaN)).toBe("");
  });

  it("counts, shares and minutes", () => {
    expect(formatCount(12345)).toBe("12.345");
    expect(formatPercent(0.875)).toBe("87,50%");
    expect(formatPercent(null)).toBe("");
    expect(formatMinutes(90_500)).toBe("1,508");
    expect(formatMinutes(3 * 60_000)).toBe("3,00");
    expect(ratio(7, 8)).toBe(0.875);
    expect(ratio(1, 3)).toBe(0.3333);
    expect(ratio(1, 0)).toBeNull();
  });

  it("dates in the reader's zone", () => {
    expect(formatDateTime(Date.UTC(2026, 10, 24, 2, 5), "America/Sao_Paulo")).toBe("23/11/2026 23:05");
    expect(formatDateTime(Date.UTC(2026, 10, 24, 2, 5), "UTC")).toBe("24/11/2026 02:05");
  });
});
