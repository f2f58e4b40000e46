/**
 * When the scheduler's timer wakes next. The tick (every `tickMs`, 1 s in production) runs the
 * watchdog and moves what is due; between two ticks the timer also wakes at the soonest pending
 * job's due time, so a job is handed over when it is due rather than up to a tick later (a
 * scheduled message due at 10:00:00.1 went out at 10:00:01 at best). Wake-ups are at least
 * MIN_WAKE_GAP_MS apart, so jobs due close together go in one pass.
 */
export const MIN_WAKE_GAP_MS = 20;

/**
 * Milliseconds to sleep, by the scheduler's clock: until the soonest due job (`nextDueAt`, null
 * when none is pending) or the next tick (`lastTickAt` + `tickMs`), whichever is sooner, never
 * less than the gap and never more than a tick: the clock may jump meanwhile (a test clock moved,
 * the system clock set back), and a sleep planned by the clock before the jump would outlast it
 * (a clock set back a day slept until its last tick's time came again).
 */
export function wakeDelay(nextDueAt: number | null, now: number, tickMs: number, lastTickAt: number): number {
  const toTick = lastTickAt + tickMs - now;
  const toDue = nextDueAt === null ? Infinity : nextDueAt - now;
  return Math.max(MIN_WAKE_GAP_MS, Math.min(tickMs, toTick, toDue));
}

/** Is a full tick (with the watchdog) due: a tick's time has passed since the last, or the clock went back before it. */
export function tickDue(now: number, tickMs: number, lastTickAt: number): boolean {
  return now - lastTickAt >= tickMs || now < lastTickAt;
}
