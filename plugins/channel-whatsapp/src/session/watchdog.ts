/**
 * A session's named timers on its clock, and the two watchdogs (WHATSAPP.md 1.9):
 * - stuck: connecting for longer than twice the connect timeout (no QR, no open, no close);
 * - deaf: open, but no event at all for `deafMs` (Baileys #2491: the socket stays open and
 *   its keepalive answers, but nothing arrives any more). Checked every quarter of it (at most
 *   a minute), so a busy session costs nothing per event.
 * What to do then is the session's; this only says when.
 */
import type { Clock, TimerHandle } from "./clock";

type Name = "reconnect" | "stuck" | "deaf";

export class Timers {
  private readonly handles: Partial<Record<Name, TimerHandle>> = {};

  constructor(private readonly clock: Clock) {}

  set(name: Name, ms: number, fn: () => void): void {
    this.clear(name);
    this.handles[name] = this.clock.setTimeout(fn, ms);
  }

  clear(name: Name): void {
    this.clock.clearTimeout(this.handles[name]);
    this.handles[name] = undefined;
  }

  /** Fires `onStuck` after `ms` unless cleared (an open, a QR or a close clears it). */
  armStuck(ms: number, onStuck: () => void): void {
    this.set("stuck", ms, onStuck);
  }

  /**
   * Fires `onDeaf(silentMs)` once `lastEventAt()` is `deafMs` old while `stillOpen()`; stops
   * looking when the session is no longer open.
   */
  armDeaf(deafMs: number, stillOpen: () => boolean, lastEventAt: () => number, onDeaf: (silentMs: number) => void): void {
    const check = Math.max(1000, Math.min(60_000, Math.floor(deafMs / 4)));
    const tick = () => {
      if (!stillOpen()) return;
      const silent = this.clock.now() - lastEventAt();
      if (silent >= deafMs) return onDeaf(silent);
      this.set("deaf", Math.min(check, deafMs - silent), tick);
    };
    this.set("deaf", check, tick);
  }
}
