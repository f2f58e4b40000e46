/**
 * Per-session send pacing: WhatsApp bans numbers that send in bursts, so one session's sends
 * leave one at a time, at least `intervalMs` apart (default 350 ms), in the order they were
 * handed over. A send that fails does not hold the next one back longer than the interval.
 */
import type { Clock } from "./clock";

export class PacerClosedError extends Error {
  constructor() {
    super("the session stopped before the message could be sent");
    this.name = "PacerClosedError";
  }
}

export class SendPacer {
  private tail: Promise<unknown> = Promise.resolve();
  private nextAt = 0;
  private closed = false;
  private waiting = 0;

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs = 350,
  ) {}

  get size(): number {
    return this.waiting;
  }

  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new PacerClosedError());
    this.waiting++;
    const go = async (): Promise<T> => {
      const wait = this.nextAt - this.clock.now();
      if (wait > 0) await new Promise<void>((r) => this.clock.setTimeout(r, wait));
      if (this.closed) throw new PacerClosedError();
      try {
        return await fn();
      } finally {
        this.nextAt = this.clock.now() + this.intervalMs;
      }
    };
    const p = this.tail.then(go, go);
    this.tail = p.then(
      () => this.waiting--,
      () => this.waiting--,
    );
    return p;
  }

  /** Fails what still waits (the session is gone); a send already at WhatsApp finishes. */
  close(): void {
    this.closed = true;
  }
}
