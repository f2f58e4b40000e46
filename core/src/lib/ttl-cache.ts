/**
 * A per-process cache of reads that change rarely, with the rules every cache of the core
 * follows:
 * - an entry lives `ttlMs` at most (a safety net for a node that misses a change event);
 * - concurrent misses for one key share one read;
 * - a read that started before `drop`/`dropKey` is never stored after it (generation check),
 *   so a change is seen by the next request once its event has been handled;
 * - a failed read is not kept, and neither is a value `keep` refuses (e.g. "not found");
 * - at most `max` entries, the oldest go first.
 */
export class TtlCache<K, T> {
  private entries = new Map<K, { value: Promise<T>; expires: number; settled: boolean }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly keep: (value: T) => boolean = () => true,
  ) {}

  get(key: K, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && (!hit.settled || hit.expires > now)) return hit.value;
    const generation = this.generation;
    const entry = { value: load(), expires: 0, settled: false };
    this.entries.delete(key); // re-inserted last: the oldest entries are first in the map
    this.entries.set(key, entry);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
    entry.value.then(
      (value) => {
        if (this.entries.get(key) !== entry) return;
        // Invalidated while reading: the value may predate the change, so it is not kept.
        if (this.generation !== generation || !this.keep(value)) {
          this.entries.delete(key);
          return;
        }
        entry.settled = true;
        entry.expires = Date.now() + this.ttlMs;
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.value;
  }

  drop(): void {
    this.generation++;
    this.entries.clear();
  }

  dropKey(key: K): void {
    this.generation++;
    this.entries.delete(key);
  }
}
