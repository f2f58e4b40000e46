/**
 * Time as the session side sees it: every timer of a session (backoff, stuck connecting, deaf
 * session, lock renewal, the standby sweep) goes through a Clock, so tests move time forward
 * instead of sleeping.
 */
export interface TimerHandle {
  /** Opaque; only given back to clearTimeout. */
  readonly id: unknown;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle | undefined): void;
}

/** The process's own clock; its timers never keep the process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref?.();
    return { id: t };
  },
  clearTimeout(handle) {
    if (handle) clearTimeout(handle.id as NodeJS.Timeout);
  },
};
