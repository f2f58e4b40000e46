/**
 * Connections known to have nothing waiting in the outbox, for a moment: every send asks
 * `outbox.waits` first, and at a busy connection that was one SQL statement per message to
 * learn, nearly always, that nothing waits. An empty answer is kept `ttlMs`; an enqueue drops
 * it on its own node at once and on the others by its broadcast (outbox.enqueued).
 *
 * A look that began before a `forget` of its connection does not make it known empty when it
 * ends (it may have read the table before the new row was there): each connection counts its
 * forgets, and `found` keeps the answer only when the count is still the one `asking` saw.
 */
export class KnownEmpty {
  private readonly until = new Map<number, number>();
  private readonly forgets = new Map<number, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  has(connectionId: number): boolean {
    const t = this.until.get(connectionId);
    if (t === undefined) return false;
    if (t > this.clock()) return true;
    this.until.delete(connectionId);
    return false;
  }

  /** A look at the table begins: what `found` needs to tell whether a forget came meanwhile. */
  asking(connectionId: number): { connectionId: number; forgets: number } {
    return { connectionId, forgets: this.forgets.get(connectionId) ?? 0 };
  }

  /** The look found nothing waiting. */
  found(look: { connectionId: number; forgets: number }): void {
    if ((this.forgets.get(look.connectionId) ?? 0) !== look.forgets) return;
    this.until.set(look.connectionId, this.clock() + this.ttlMs);
  }

  /** Something waits (or may): ask the table again. */
  forget(connectionId: number): void {
    if (!Number.isInteger(connectionId)) return;
    this.until.delete(connectionId);
    this.forgets.set(connectionId, (this.forgets.get(connectionId) ?? 0) + 1);
  }
}
