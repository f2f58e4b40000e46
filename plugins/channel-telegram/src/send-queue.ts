/**
 * Telegram's sending limits, kept by queueing rather than by failing: per chat, one message a
 * second (a group, 20 a minute); per bot, about 30 a second; and when Telegram still answers
 * 429, the call waits `retry_after` and is tried again, the chat's later messages behind it.
 * One queue per connection (one bot). Chats do not wait for each other, except for the bot's
 * overall rate.
 */
import { classify } from "./bot-api";

export interface SendQueueOptions {
  /** Least time between two calls to one chat (default: 1 s, 3 s for groups). */
  chatIntervalMs?(chatId: string): number;
  /** Calls per second for the whole bot (default 30). */
  perSecond?: number;
  /** Longest retry_after honoured; a longer one fails the call (default 60 s). */
  maxRetryAfterMs?: number;
  /** Tries of one call answered 429 (default 4). */
  maxAttempts?: number;
}

interface Lane {
  tail: Promise<unknown>;
  /** When the chat may get its next call. */
  nextAt: number;
  waiting: number;
  /** Telegram's 429 that blocked the chat for longer than a call may wait. */
  blockedBy?: unknown;
}

export class QueueClosedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "QueueClosedError";
  }
}

/** Groups and channels have negative ids; Telegram lets a bot post 20 messages a minute there. */
export function defaultChatInterval(chatId: string): number {
  return chatId.startsWith("-") ? 3000 : 1000;
}

export class SendQueue {
  private readonly lanes = new Map<string, Lane>();
  private nextBotSlot = 0;
  private closed: QueueClosedError | null = null;
  private readonly sleepers = new Set<() => void>();
  private readonly chatInterval: (chatId: string) => number;
  private readonly slotMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly maxAttempts: number;

  constructor(opts: SendQueueOptions = {}) {
    this.chatInterval = opts.chatIntervalMs ?? defaultChatInterval;
    this.slotMs = 1000 / (opts.perSecond ?? 30);
    this.maxRetryAfterMs = opts.maxRetryAfterMs ?? 60_000;
    this.maxAttempts = opts.maxAttempts ?? 4;
  }

  /** Runs `call` when the chat and the bot may take it; answers what it answers. */
  enqueue<T>(chatId: string, call: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(this.closed);
    if (this.lanes.size > 1000) this.sweep();
    let lane = this.lanes.get(chatId);
    if (!lane) {
      lane = { tail: Promise.resolve(), nextAt: 0, waiting: 0 };
      this.lanes.set(chatId, lane);
    }
    const l = lane;
    l.waiting++;
    const run = l.tail.then(() => this.run(chatId, l, call));
    l.tail = run.then(
      () => l.waiting--,
      () => l.waiting--,
    );
    return run;
  }

  /** Fails every call still waiting (the connection went away); calls already at Telegram finish. */
  close(reason = "the connection was disconnected"): void {
    this.closed = new QueueClosedError(reason);
    for (const wake of this.sleepers) wake();
    this.sleepers.clear();
  }

  get size(): number {
    let n = 0;
    for (const l of this.lanes.values()) n += l.waiting;
    return n;
  }

  private async run<T>(chatId: string, lane: Lane, call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      // Blocked for longer than anyone should wait: fail now, with Telegram's answer.
      if (lane.blockedBy && lane.nextAt - Date.now() > this.maxRetryAfterMs) throw lane.blockedBy;
      await this.sleep(lane.nextAt - Date.now());
      await this.botSlot();
      if (this.closed) throw this.closed;
      try {
        const res = await call();
        lane.nextAt = Date.now() + this.chatInterval(chatId);
        lane.blockedBy = undefined;
        return res;
      } catch (err) {
        const f = classify(err);
        if (f.kind !== "rate") {
          lane.nextAt = Date.now() + this.chatInterval(chatId);
          throw err;
        }
        // Flood control: this chat waits what Telegram asked, then the same call again.
        lane.nextAt = Date.now() + Math.max(f.retryAfterMs, this.chatInterval(chatId));
        lane.blockedBy = f.retryAfterMs > this.maxRetryAfterMs ? err : undefined;
        if (attempt >= this.maxAttempts || lane.blockedBy) throw err;
      }
    }
  }

  /** The bot's overall rate: calls spread evenly, one slot every 1000/perSecond ms. */
  private async botSlot(): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, this.nextBotSlot);
    this.nextBotSlot = slot + this.slotMs;
    await this.sleep(slot - now);
  }

  private sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.reject(this.closed);
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        if (this.closed) reject(this.closed);
        else resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  /** Forgets chats with nothing queued whose interval is over. */
  private sweep(): void {
    const now = Date.now();
    for (const [id, l] of this.lanes) if (l.waiting === 0 && l.nextAt <= now) this.lanes.delete(id);
  }
}
