import { figuresOf, figuresOfCounts, fillText, groupOf, parseReply, type NpsGroup } from "./scale";

describe("NPS scale rules", () => {
  it("groups the 0–10 scale as the classic NPS: 0–6 detractors, 7–8 passives, 9–10 promoters", () => {
    const groups = Array.from({ length: 11 }, (_, s) => groupOf(s, 10));
    expect(groups).toEqual([...Array(7).fill("detractor"), "passive", "passive", "promoter", "promoter"]);
  });

  it("keeps the same fractions on other maximums (the README's table)", () => {
    const letter = { detractor: "D", passive: "N", promoter: "P" } as const;
    const on = (max: number) => Array.from({ length: max + 1 }, (_, s) => letter[groupOf(s, max)]).join("");
    expect(on(5)).toBe("DDDDNP");
    expect(on(4)).toBe("DDDNP");
    expect(on(3)).toBe("DDDP");
  });

  it("reads a reply: a whole number from 0 to max, alone", () => {
    expect(parseReply("10", 10)).toBe(10);
    expect(parseReply(" 0 ", 10)).toBe(0);
    expect(parseReply("7.", 10)).toBe(7);
    expect(parseReply("09", 10)).toBe(9);
    for (const bad of ["11", "-1", "9.5", "nota 9", "9/10", "", "dez", null, undefined, "1000"]) expect(parseReply(bad, 10)).toBeNull();
    expect(parseReply("6", 5)).toBeNull();
    expect(parseReply("5", 5)).toBe(5);
  });

  it("scores % promoters − % detractors, rounded; none answered: null", () => {
    const g = (p: number, n: number, d: number): NpsGroup[] => [...Array(p).fill("promoter"), ...Array(n).fill("passive"), ...Array(d).fill("detractor")];
    expect(figuresOf(g(2, 1, 1))).toEqual({ answered: 4, promoters: 2, passives: 1, detractors: 1, score: 25 });
    expect(figuresOf(g(0, 0, 3)).score).toBe(-100);
    expect(figuresOf(g(1, 1, 1)).score).toBe(0);
    expect(figuresOf(g(2, 0, 1)).score).toBe(33);
    // The same figures from counts already made by the database.
    expect(figuresOfCounts({ promoters: 2, passives: 1, detractors: 1 })).toEqual(figuresOf(g(2, 1, 1)));
    expect(figuresOfCounts({ promoters: 0, passives: 0, detractors: 0 })).toEqual({ answered: 0, promoters: 0, passives: 0, detractors: 0, score: null });
    expect(figuresOf([])).toEqual({ answered: 0, promoters: 0, passives: 0, detractors: 0, score: null });
  });

  it("fills {{name}} with the first name and {{max}} with the maximum, any case and spacing", () => {
    expect(fillText("Olá {{name}}! De 0 a {{ MAX }}, {{Name}} {{other}}", { name: "Ana  Souza", max: 10 })).toBe("Olá Ana! De 0 a 10, Ana {{other}}");
  });
});
