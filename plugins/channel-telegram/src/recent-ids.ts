/**
 * The update_ids a connection handed over lately, to drop Telegram's redeliveries (a webhook
 * retried after a slow answer, an update answered again after a failed confirmation) before
 * they cost a download and a call to the core. Bounded: older ids fall out; past that and
 * across restarts, the stable provider ids make the core store a message once anyway.
 */
export class RecentIds {
  private readonly ids = new Set<number>();

  constructor(private readonly max = 5000) {}

  has(id: number): boolean {
    return this.ids.has(id);
  }

  add(id: number): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    if (this.ids.size > this.max) {
      // A Set iterates in insertion order: the first is the oldest.
      const oldest = this.ids.values().next().value as number;
      this.ids.delete(oldest);
    }
  }
}
