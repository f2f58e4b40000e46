import { MIN_WAKE_GAP_MS, tickDue, wakeDelay } from "./wake";

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
  it("never longer than a tick, whatever the clock did: set back a day, it does not sleep until its last tick's time comes again", () => {
    expect(wakeDelay(now + 1_800_000, now, 1000, now + 86_400_000)).toBe(1000);
    expect(wakeDelay(null, now, 200, now + 5_000)).toBe(200);
  });
  it("a full tick is due once a tick's time has passed, or when the clock went back before the last one", () => {
    expect(tickDue(now, 1000, now - 1000)).toBe(true);
    expect(tickDue(now, 1000, now - 999)).toBe(false);
    expect(tickDue(now, 1000, now + 60_000)).toBe(true);
  });
});
