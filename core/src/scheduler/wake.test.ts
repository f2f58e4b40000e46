import { MIN_WAKE_GAP_MS, wakeDelay } from "./wake";

describe("the scheduler's wake-up between ticks", () => {
  const now = 1_000_000;
  it("wakes at the soonest due job when it comes before the next tick", () => {
    expect(wakeDelay(now + 300, now, 1000, now - 100)).toBe(300);
  });
  it("wakes at the next tick when no job is due sooner, or none is pending", () => {
    expect(wakeDelay(now + 5000, now, 1000, now - 100)).toBe(900);
    expect(wakeDelay(null, now, 1000, now - 100)).toBe(900);
  });
  it("never sooner than the gap: a job already due, or a tick already late, waits the gap", () => {
    expect(wakeDelay(now - 50, now, 1000, now)).toBe(MIN_WAKE_GAP_MS);
    expect(wakeDelay(now + 5, now, 1000, now)).toBe(MIN_WAKE_GAP_MS);
    expect(wakeDelay(null, now, 1000, now - 5000)).toBe(MIN_WAKE_GAP_MS);
  });
});
