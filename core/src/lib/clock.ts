/**
 * The time a component decides by, injectable so tests move it instead of sleeping.
 *
 *   constructor(private clock: Clock = systemClock) {}
 *   if (this.clock.now() >= dueAt) …
 *
 *   const clock = new TestClock(Date.parse("2026-01-05T09:00:00Z"));
 *   clock.advance(5 * 60_000);
 *
 * Only decisions go through it (is this due, is that stuck); timestamps another system writes
 * (Bull's processedOn, a database's NOW()) stay theirs.
 */
export interface Clock {
  /** Milliseconds since the epoch, like Date.now(). */
  now(): number;
}

/** The machine's clock. */
export const systemClock: Clock = Object.freeze({ now: () => Date.now() });

/** A clock that only moves when told. Starts at `start` (default: the real time it was made). */
export class TestClock implements Clock {
  private t: number;

  constructor(start: number = Date.now()) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  /** Moves forward by `ms` (never backwards: a negative step is a mistake in the test). */
  advance(ms: number): number {
    if (!(ms >= 0)) throw new RangeError(`TestClock.advance(${ms}): a clock only moves forward`);
    this.t += ms;
    return this.t;
  }

  /** Jumps to `t` (a number of ms or a Date). */
  set(t: number | Date): number {
    this.t = typeof t === "number" ? t : t.getTime();
    return this.t;
  }
}
