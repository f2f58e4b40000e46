import { TestClock, systemClock } from "./clock";

describe("clock", () => {
  it("the system clock is Date.now()", () => {
    const before = Date.now();
    const t = systemClock.now();
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now());
  });

  it("a test clock moves only when told", () => {
    const c = new TestClock(1000);
    expect(c.now()).toBe(1000);
    expect(c.advance(500)).toBe(1500);
    expect(c.now()).toBe(1500);
    expect(c.set(new Date(10_000))).toBe(10_000);
    expect(c.set(42)).toBe(42);
    expect(() => c.advance(-1)).toThrow(RangeError);
    expect(c.now()).toBe(42);
  });
});
