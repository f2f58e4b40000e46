/**
 * Callers waiting for a pairing code (the connection form's request): answered together when
 * WhatsApp gives the code, failed together when it refuses or the session stops, each failed
 * alone when its wait runs out.
 */
import type { Clock } from "./clock";

interface Waiter {
  resolve(code: string): void;
  reject(err: Error): void;
}

export class CodeWaiters {
  private waiters: Waiter[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly timeoutError: () => Error,
  ) {}

  wait(timeoutMs: number): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(this.timeoutError());
      }, timeoutMs);
      const waiter: Waiter = {
        resolve: (c) => {
          this.clock.clearTimeout(timer);
          resolve(c);
        },
        reject: (e) => {
          this.clock.clearTimeout(timer);
          reject(e);
        },
      };
      this.waiters.push(waiter);
    });
  }

  resolve(code: string): void {
    for (const w of this.take()) w.resolve(code);
  }

  fail(err: Error): void {
    for (const w of this.take()) w.reject(err);
  }

  private take(): Waiter[] {
    const all = this.waiters;
    this.waiters = [];
    return all;
  }
}
