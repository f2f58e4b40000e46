/**
 * What the agents sent to each visitor, waiting to be picked up by the widget's long poll.
 * Bounded per visitor; idle visitors are forgotten after a day. Each item carries a
 * sequence number so a widget that reconnects asks only for what it has not seen.
 */
export interface OutItem {
  seq: number;
  id: string;
  kind: "text" | "edit" | "delete" | "reaction";
  body?: string;
  targetId?: string;
  emoji?: string;
  timestamp: number;
}

interface Box {
  seq: number;
  items: OutItem[];
  waiters: Set<() => void>;
  touched: number;
}

export const MAX_ITEMS = 200;
export const IDLE_MS = 24 * 60 * 60 * 1000;

export class Outbox {
  private boxes = new Map<string, Box>();

  private box(key: string): Box {
    let b = this.boxes.get(key);
    if (!b) {
      b = { seq: 0, items: [], waiters: new Set(), touched: Date.now() };
      this.boxes.set(key, b);
    }
    b.touched = Date.now();
    return b;
  }

  push(key: string, item: Omit<OutItem, "seq">): OutItem {
    const b = this.box(key);
    const full = { ...item, seq: ++b.seq };
    b.items.push(full);
    if (b.items.length > MAX_ITEMS) b.items.splice(0, b.items.length - MAX_ITEMS);
    for (const w of b.waiters) w();
    b.waiters.clear();
    return full;
  }

  since(key: string, after: number): OutItem[] {
    return this.box(key).items.filter((i) => i.seq > after);
  }

  /** Items after `after`, waiting up to `waitMs` for the first one. */
  async poll(key: string, after: number, waitMs: number): Promise<OutItem[]> {
    const now = this.since(key, after);
    if (now.length || waitMs <= 0) return now;
    const b = this.box(key);
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        b.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      b.waiters.add(done);
    });
    return this.since(key, after);
  }

  sweep(now = Date.now()): void {
    for (const [k, b] of this.boxes) if (now - b.touched > IDLE_MS && !b.waiters.size) this.boxes.delete(k);
  }

  wakeAll(): void {
    for (const b of this.boxes.values()) {
      for (const w of b.waiters) w();
      b.waiters.clear();
    }
  }
}
