import { TIERS, isTier, tierAtLeast, tierRank, type Tier } from "./tiers";

describe("licence tiers", () => {
  it("lists the tiers lowest first", () => {
    expect(TIERS).toEqual(["FREE", "BASIC", "PLUS", "PREMIUM"]);
  });

  it("ranks FREE 0 < BASIC 1 < PLUS 2 < PREMIUM 3", () => {
    expect(tierRank("FREE")).toBe(0);
    expect(tierRank("BASIC")).toBe(1);
    expect(tierRank("PLUS")).toBe(2);
    expect(tierRank("PREMIUM")).toBe(3);
  });

  it("throws on an unknown tier rank", () => {
    expect(() => tierRank("GOLD" as Tier)).toThrow(/Unknown licence tier/);
  });

  it("compares tiers with tierAtLeast", () => {
    for (const have of TIERS) {
      for (const need of TIERS) {
        expect(tierAtLeast(have, need)).toBe(TIERS.indexOf(have) >= TIERS.indexOf(need));
      }
    }
    expect(tierAtLeast("BASIC", "PLUS")).toBe(false);
    expect(tierAtLeast("PREMIUM", "PLUS")).toBe(true);
    expect(tierAtLeast("PLUS", "PLUS")).toBe(true);
  });

  it("treats an unknown held tier as FREE", () => {
    expect(tierAtLeast("GOLD" as Tier, "FREE")).toBe(true);
    expect(tierAtLeast("GOLD" as Tier, "BASIC")).toBe(false);
  });

  it("recognises tier names exactly", () => {
    for (const t of TIERS) expect(isTier(t)).toBe(true);
    for (const x of ["plus", "Premium", "GOLD", "", " FREE", 0, 3, null, undefined, {}, ["PLUS"]]) {
      expect(isTier(x)).toBe(false);
    }
  });
});
