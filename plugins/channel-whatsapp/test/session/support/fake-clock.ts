/**
 * A clock the test moves: timers fire in time order as `advance` passes them, and between two
 * firings the promises they started get to run. Sessions, locks and sweeps take it as their
 * Clock, so no test sleeps through a backoff or a deaf-session timeout.
 */
import type { Clock, TimerHandle } from "../../../src/session/clock";

/** Lets pending promise chains (and I/O callbacks already due) run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}

export class FakeClock implements Clock {
  private t: number;
  private seq = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start = Date.UTC(2026, 0, 5, 12, 0, 0)) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = ++this.seq;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle) this.timers.delete(handle.id as number);
  }

  /** Timers waiting, and when the next one fires (ms from now). */
  get pending(): number {
    return this.timers.size;
  }

  nextIn(): number | undefined {
    let next: number | undefined;
    for (const t of this.timers.values()) if (next === undefined || t.at < next) next = t.at;
    return next === undefined ? undefined : next - this.t;
  }

  /** Moves time forward by `ms`, firing every timer due on the way, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    for (;;) {
      let id: number | undefined;
      let at = Infinity;
      for (const [k, v] of this.timers) if (v.at <= target && v.at < at) [id, at] = [k, v.at];
      if (id === undefined) break;
      const timer = this.timers.get(id)!;
      this.timers.delete(id);
      this.t = Math.max(this.t, timer.at);
      timer.fn();
      await settle();
    }
    this.t = target;
    await settle();
  }
}

/** Waits (real time, polling) until `ok` holds: for work that goes through a real database or Redis. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
