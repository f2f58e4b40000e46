/** Contacts from a CSV (pure). */
import { parseCampaignCsv, phoneDigits } from "./csv";

describe("campaign CSV", () => {
  it("reads name,number lines with a header, quotes, semicolons, and drops repeats", () => {
    expect(parseCampaignCsv('nome,numero\n"Souza, Ana",+55 (11) 98765-0001\nBruno,5511987650002\n\nAna again,5511987650001\n')).toEqual({
      ok: true,
      rows: [
        { line: 2, name: "Souza, Ana", number: "5511987650001" },
        { line: 3, name: "Bruno", number: "5511987650002" },
      ],
    });
    expect(parseCampaignCsv("Carla;5511987650003\r\nDiego;5511987650004")).toEqual({
      ok: true,
      rows: [
        { line: 1, name: "Carla", number: "5511987650003" },
        { line: 2, name: "Diego", number: "5511987650004" },
      ],
    });
    expect(parseCampaignCsv("5511987650005")).toEqual({ ok: true, rows: [{ line: 1, name: "", number: "5511987650005" }] });
  });

  it("names the first line without a valid number", () => {
    expect(parseCampaignCsv("name,number\nAna,5511987650001\nBruno,12ab\n")).toEqual({ ok: false, line: 3 });
  });

  it("accepts 8 to 15 digits", () => {
    expect(phoneDigits("1234567")).toBeNull();
    expect(phoneDigits("12345678")).toBe("12345678");
    expect(phoneDigits("1234567890123456")).toBeNull();
    expect(phoneDigits("abc")).toBeNull();
  });
});
