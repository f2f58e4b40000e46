import { escapeText, fold, icsTime, toIcs } from "./ics";

const unfold = (s: string) => s.replace(/\r\n /g, "");

describe("the .ics generator (RFC 5545)", () => {
  it("writes a calendar of events with CRLF line ends, UTC times and a stable UID", () => {
    const text = toIcs([{ uid: "42@openatende", start: Date.UTC(2026, 11, 1, 12, 30), end: Date.UTC(2026, 11, 1, 13, 0), summary: "Corte — Marina", description: "Traga o cartão", sequence: 3 }], { now: Date.UTC(2026, 10, 25, 6, 0, 5), name: "Agendamentos" });
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "").includes("\n")).toBe(false);
    expect(text.split("\r\n").slice(0, -1)).toEqual([
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//OpenAtende//Agendamentos//PT",
      "CALSCALE:GREGORIAN",
      "METHOD:PUBLISH",
      "X-WR-CALNAME:Agendamentos",
      "BEGIN:VEVENT",
      "UID:42@openatende",
      "DTSTAMP:20261125T060005Z",
      "DTSTART:20261201T123000Z",
      "DTEND:20261201T130000Z",
      "SUMMARY:Corte — Marina",
      "DESCRIPTION:Traga o cartão",
      "SEQUENCE:3",
      "END:VEVENT",
      "END:VCALENDAR",
    ]);
  });

  it("escapes backslashes, semicolons, commas and newlines in text", () => {
    expect(escapeText("a\\b;c,d\ne\r\nf")).toBe("a\\\\b\\;c\\,d\\ne\\nf");
    const text = toIcs([{ uid: "1@x", start: 0, end: 60_000, summary: "Sala 1; andar 2, fundos", description: "linha 1\nlinha 2" }], { now: 0 });
    expect(text).toContain("SUMMARY:Sala 1\\; andar 2\\, fundos\r\n");
    expect(text).toContain("DESCRIPTION:linha 1\\nlinha 2\r\n");
  });

  it("folds lines over 75 octets, never splitting a multi-byte character, and unfolds to the original", () => {
    const long = `DESCRIPTION:${"Agendamento às 15h com manutenção — ".repeat(6)}Отлично`;
    const folded = fold(long);
    const lines = folded.split("\r\n");
    expect(lines.length).toBeGreaterThan(3);
    for (const [i, l] of lines.entries()) {
      expect(Buffer.byteLength(l, "utf8")).toBeLessThanOrEqual(75);
      if (i > 0) expect(l.startsWith(" ")).toBe(true);
      expect(l).not.toContain("\uFFFD");
    }
    expect(unfold(folded)).toBe(long);
    expect(fold("SUMMARY:curto")).toBe("SUMMARY:curto");
    // Exactly 75 octets stays on one line; 76 is folded.
    expect(fold("X".repeat(75))).toBe("X".repeat(75));
    expect(fold("X".repeat(76))).toBe(`${"X".repeat(75)}\r\n X`);
  });

  it("writes times as UTC basic format", () => {
    expect(icsTime(Date.UTC(2027, 0, 2, 3, 4, 5, 678))).toBe("20270102T030405Z");
  });
});
