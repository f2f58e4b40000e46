/**
 * Long polling (getUpdates) for one connection, with the offset kept right.
 *
 * Telegram keeps the bookkeeping itself: a getUpdates with `offset` N confirms every update
 * below N, and confirmed updates are never answered again. So the poller advances its offset
 * only past updates the core has taken, and on stop it makes one last call to confirm them:
 * a restart — of the connection or of the whole process — goes on after the last update
 * handed over, without reading anything twice. Were the process killed between handing over
 * and confirming, Telegram answers those updates again; their provider ids make the core
 * store them once.
 */
import type { Telegram } from "telegraf";
import type { Update } from "telegraf/types";
import type { ConnectionStatus } from "@openatende/plugin-sdk";
import { ALLOWED_UPDATES, classify } from "./bot-api";

export interface PollerOptions {
  telegram: Telegram;
  /** Where to go on from (the next update_id); absent: wherever Telegram's confirmations left it. */
  offset?: number;
  /** Long-poll wait, seconds (Telegram allows up to 50). */
  timeoutSec?: number;
  /** Hands one update over; throws to have it answered again later. */
  handle(update: Update): Promise<void>;
  /** The offset moved past handled updates. */
  onOffset?(offset: number): void;
  /** The connection's state as polling sees it (only changes are reported). */
  onStatus(status: ConnectionStatus, detail?: string): void;
  log?: { warn(...args: unknown[]): void; info(...args: unknown[]): void };
}

const BACKOFF_MS = [1000, 2000, 5000, 10_000, 30_000];

export class Poller {
  private offset: number | undefined;
  private running = false;
  private abort = new AbortController();
  private loop: Promise<void> | null = null;
  private wakeSleep: (() => void) | null = null;
  private status: ConnectionStatus | null = null;

  constructor(private readonly opts: PollerOptions) {
    this.offset = opts.offset;
  }

  get nextOffset(): number | undefined {
    return this.offset;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops polling and confirms the handled updates to Telegram. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.abort.abort();
    this.wakeSleep?.();
    await this.loop;
    if (this.offset !== undefined) {
      // Confirms everything below the offset; what it answers stays unconfirmed for next time.
      await this.opts.telegram
        .callApi("getUpdates", { offset: this.offset, limit: 1, timeout: 0, allowed_updates: [...ALLOWED_UPDATES] }, { signal: AbortSignal.timeout(5000) as never })
        .catch((err: unknown) => this.opts.log?.warn(`getUpdates confirmation at stop failed: ${classify(err).detail}`));
    }
  }

  private report(status: ConnectionStatus, detail?: string) {
    if (this.status === status) return;
    this.status = status;
    this.opts.onStatus(status, detail);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let updates: Update[];
      // After a failure, a short call first: a recovery is seen (and reported) at once.
      const wait = failures > 0 ? 0 : (this.opts.timeoutSec ?? 25);
      try {
        updates = (await this.opts.telegram.callApi(
          "getUpdates",
          { offset: this.offset, limit: 100, timeout: wait, allowed_updates: [...ALLOWED_UPDATES] },
          { signal: this.abort.signal as never },
        )) as Update[];
      } catch (err) {
        if (!this.running) break;
        const f = classify(err);
        if (f.kind === "unauthorized") {
          this.report("disconnected", `The bot token was refused: ${f.detail}`);
          this.running = false;
          break;
        }
        if (f.kind === "conflict") this.report("conflict", `Another client is reading this bot's updates (a webhook or another getUpdates): ${f.detail}`);
        else if (f.kind !== "rate") this.report("timeout", f.detail);
        await this.pause(f.kind === "rate" ? f.retryAfterMs : BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)]);
        continue;
      }
      failures = 0;
      this.report("connected");
      for (const u of updates) {
        if (!this.running) break;
        try {
          await this.opts.handle(u);
        } catch (err) {
          // Not handed over (the core is away): not confirmed either, so it comes again.
          this.opts.log?.warn(`update ${u.update_id} not handed over, trying again: ${(err as Error).message}`);
          await this.pause(BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)]);
          break;
        }
        this.offset = u.update_id + 1;
        this.opts.onOffset?.(this.offset);
      }
    }
  }

  private pause(ms: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeSleep = done;
    });
  }
}
