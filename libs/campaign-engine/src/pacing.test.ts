/** Pacing math (pure: injected clock and random source, no sleeps). */
import { afterAccepted, afterClosed, afterRateLimited, afterSend, CADENCE_SLACK_MS, chooseVariant, CLOSED_RECHECK_MS, isRateLimited, lanesFor, pickLane, randomIntervalMs, RATE_LIMIT_MAX_BACKOFF_MS, slotOf } from "./pacing";

const T0 = 1_800_000_000_000;
const seq = (...xs: number[]) => {
  let i = 0;
  return () => xs[i++ % xs.length];
};

describe("random interval", () => {
  it("stays between min and max seconds", () => {
    expect(randomIntervalMs(5, 20, () => 0)).toBe(5000);
    expect(randomIntervalMs(5, 20, () => 0.999999)).toBe(20_000);
    expect(randomIntervalMs(5, 20, () => 0.5)).toBe(12_500);
    expect(randomIntervalMs(0, 0, () => 0.7)).toBe(0);
  });
});

describe("variant choice", () => {
  it("picks one of up to three, each reachable, never past the last", () => {
    expect(chooseVariant(1, () => 0.9)).toBe(0);
    expect([0, 0.34, 0.67, 0.999999, 1].map((r) => chooseVariant(3, () => r))).toEqual([0, 1, 2, 2, 2]);
    const counts = [0, 0, 0];
    const rnd = seq(0.1, 0.5, 0.9);
    for (let i = 0; i < 300; i++) counts[chooseVariant(3, rnd)]++;
    expect(counts).toEqual([100, 100, 100]);
  });
});

describe("lanes: round robin with per-connection pacing", () => {
  it("takes the connections in turn, each waiting its own interval", () => {
    let s = lanesFor([11, 22, 33], null, T0);
    const used: number[] = [];
    let now = T0;
    for (let k = 0; k < 7; k++) {
      const p = pickLane(s, now);
      if (p.index === null) {
        now = p.wakeAt;
        k--;
        continue;
      }
      used.push(s.lanes[p.index].connectionId);
      s = afterSend(s, p.index, now, 10_000);
    }
    expect(used).toEqual([11, 22, 33, 11, 22, 33, 11]);
    // Three lanes at 10 s each: the 7th send 20 s after the first (3 sends per 10 s).
    expect(now).toBe(T0 + 20_000);
  });

  it("says when the earliest lane is ready when none is", () => {
    const s = { lanes: [{ connectionId: 1, nextAt: T0 + 9000, backoffMs: 0 }, { connectionId: 2, nextAt: T0 + 4000, backoffMs: 0 }], cursor: 0 };
    expect(pickLane(s, T0)).toEqual({ index: null, wakeAt: T0 + 4000 });
    expect(pickLane(s, T0 + 4000)).toEqual({ index: 1 });
  });

  it("keeps lane state for connections that stay when the list changes", () => {
    const s = { lanes: [{ connectionId: 1, nextAt: T0 + 9000, backoffMs: 500 }], cursor: 0 };
    expect(lanesFor([2, 1], s, T0).lanes).toEqual([{ connectionId: 2, nextAt: T0, backoffMs: 0 }, { connectionId: 1, nextAt: T0 + 9000, backoffMs: 500 }]);
  });

  it("a rate-limited lane backs off, doubling, and slows its next sends while the others go on", () => {
    let s = lanesFor([1, 2], null, T0);
    s = afterRateLimited(s, 0, T0);
    expect(s.lanes[0]).toEqual({ connectionId: 1, nextAt: T0 + 5000, backoffMs: 5000 });
    expect(pickLane(s, T0)).toEqual({ index: 1 });
    s = afterRateLimited(s, 0, T0 + 5000);
    expect(s.lanes[0]).toEqual({ connectionId: 1, nextAt: T0 + 15_000, backoffMs: 10_000 });
    // Accepted again: interval + back-off, which halves.
    s = afterSend(s, 0, T0 + 15_000, 1000);
    expect(s.lanes[0]).toEqual({ connectionId: 1, nextAt: T0 + 26_000, backoffMs: 10_000 });
    s = afterAccepted(s, 1);
    expect(s.lanes[0].backoffMs).toBe(5000);
    let b = { lanes: [{ connectionId: 1, nextAt: T0, backoffMs: RATE_LIMIT_MAX_BACKOFF_MS }], cursor: 0 };
    b = afterRateLimited(b, 0, T0);
    expect(b.lanes[0].backoffMs).toBe(RATE_LIMIT_MAX_BACKOFF_MS);
    // The back-off fades out to none.
    let f = { lanes: [{ connectionId: 1, nextAt: T0, backoffMs: 3000 }], cursor: 0 };
    f = afterAccepted(f, 1);
    expect(f.lanes[0].backoffMs).toBe(1500);
    f = afterAccepted(f, 1);
    expect(f.lanes[0].backoffMs).toBe(0);
  });

  it("a lane outside business hours waits for the opening (or checks again in an hour)", () => {
    const s = lanesFor([1], null, T0);
    expect(afterClosed(s, 0, T0, T0 + 7_200_000).lanes[0].nextAt).toBe(T0 + 7_200_000);
    expect(afterClosed(s, 0, T0, null).lanes[0].nextAt).toBe(T0 + CLOSED_RECHECK_MS);
  });

  it("tells a rate limit from other failures by the core's fail reason", () => {
    expect(isRateLimited("ERR_RATE_LIMITED")).toBe(true);
    expect(isRateLimited("ERR_RATE_LIMITED: 130429 Rate limit hit")).toBe(true);
    expect(isRateLimited("ERR_WABA_SEND_REFUSED: 131026")).toBe(false);
    expect(isRateLimited(null)).toBe(false);
  });
});

describe("cadence in ms", () => {
  const lane = (nextAt: number) => ({ connectionId: 11, nextAt, backoffMs: 0 });

  it("a lane a little late keeps its planned slot, so its rate does not drop with each run's delay", () => {
    // Runs that come 300 ms after each slot (a scheduler tick, a slow send): the lane still sends once a second.
    let s = lanesFor([11], null, T0);
    const slots: number[] = [];
    for (let k = 0; k < 5; k++) {
      const now = s.lanes[0].nextAt + 300;
      const slot = slotOf(s.lanes[0], now, 1000);
      slots.push(slot - T0);
      s = afterSend(s, 0, slot, 1000);
    }
    expect(slots).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(s.lanes[0].nextAt).toBe(T0 + 5000);
  });

  it("a lane that stood still starts again from now (no burst), and no interval means now", () => {
    expect(slotOf(lane(T0), T0 + CADENCE_SLACK_MS, 5000)).toBe(T0);
    expect(slotOf(lane(T0), T0 + CADENCE_SLACK_MS + 1, 5000)).toBe(T0 + CADENCE_SLACK_MS + 1);
    expect(slotOf(lane(T0), T0 + 400, 300)).toBe(T0 + 400); // later than its own interval
    expect(slotOf(lane(T0 - 50), T0, 0)).toBe(T0);
  });
});
