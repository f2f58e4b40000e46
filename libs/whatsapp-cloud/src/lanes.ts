/**
 * Keyed lanes with a bounded number of runners: the work of one key (one customer, the
 * statuses of one message) runs strictly in the order it was pushed, one task at a time;
 * different keys run side by side, at most `limit` tasks at once. A key waiting for a free
 * runner keeps its place (keys take turns in the order they became ready), so a busy
 * customer does not starve a quiet one.
 *
 * A task may answer `{ againInMs }`: it is run again after that wait, still at the head of
 * its key (nothing of that key overtakes it), without holding a runner while it waits (a
 * status that came before its send's answer must not stall everyone else).
 */

export type Outcome = void | { againInMs: number };

interface Task {
  run: () => Promise<Outcome>;
  ok: () => void;
  fail: (err: Error) => void;
}

export class Lanes {
  /** Per key: its tasks not finished yet; the head is running, waiting to run, or waiting to run again. */
  private readonly queues = new Map<string, Task[]>();
  /** Keys whose head may run now, in the order they became ready. */
  private readonly ready: string[] = [];
  private active = 0;
  private waiting = 0;
  private readonly idlers: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`lanes need a positive whole limit, not ${limit}`);
  }

  /** Tasks pushed and not finished (running, queued, or waiting to run again). */
  get pending(): number {
    return this.waiting;
  }

  /** Tasks running right now (never more than the limit). */
  get running(): number {
    return this.active;
  }

  /** Runs `run` after everything pushed before under `key`; settles with it. */
  push(key: string, run: () => Promise<Outcome>): Promise<void> {
    return new Promise<void>((ok, fail) => {
      const q = this.queues.get(key);
      this.waiting++;
      if (q) {
        q.push({ run, ok, fail });
        return;
      }
      this.queues.set(key, [{ run, ok, fail }]);
      this.ready.push(key);
      this.pump();
    });
  }

  /** Resolves once nothing is pending. */
  idle(): Promise<void> {
    if (!this.waiting) return Promise.resolve();
    return new Promise((ok) => this.idlers.push(ok));
  }

  private pump(): void {
    while (this.active < this.limit && this.ready.length) {
      const key = this.ready.shift()!;
      const head = this.queues.get(key)![0];
      this.active++;
      let outcome: Promise<Outcome>;
      try {
        outcome = Promise.resolve(head.run());
      } catch (err) {
        outcome = Promise.reject(err);
      }
      outcome.then(
        (o) => this.settled(key, head, o ?? undefined),
        (err: unknown) => this.settled(key, head, undefined, err instanceof Error ? err : new Error(String(err))),
      );
    }
  }

  private settled(key: string, head: Task, o: Outcome | undefined, err?: Error): void {
    this.active--;
    if (!err && o && o.againInMs >= 0) {
      setTimeout(() => {
        this.ready.push(key);
        this.pump();
      }, o.againInMs);
      this.pump();
      return;
    }
    const q = this.queues.get(key)!;
    q.shift();
    if (q.length) this.ready.push(key);
    else this.queues.delete(key);
    this.waiting--;
    if (err) head.fail(err);
    else head.ok();
    if (!this.waiting) for (const done of this.idlers.splice(0)) done();
    this.pump();
  }
}
