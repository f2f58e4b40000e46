/**
 * What admins see of a session's health (the `health` action): when it last heard a customer
 * and an ack, how often it reconnected, how many messages failed to decrypt (Bad MAC and
 * friends are counted here, never logged one stack each), and why it last closed.
 */
import type { ConnectionStatus } from "@openatende/plugin-sdk";

export interface SessionHealth {
  tenantId: number;
  connectionId: number;
  status: ConnectionStatus;
  detail?: string;
  /** The broker node that runs the session. */
  node: string;
  /** Ms since the epoch, or null when never. */
  connectedAt: number | null;
  lastEventAt: number | null;
  lastInboundAt: number | null;
  lastAckAt: number | null;
  /** Sockets built again after a drop (restarts after pairing not counted). */
  reconnects: number;
  /** Messages that arrived undecryptable (CIPHERTEXT stubs). */
  decryptionErrors: number;
  /** Of those, in the last hour (a storm shows here). */
  decryptionErrorsLastHour: number;
  /** Messages handed to the core by this session. */
  inbound: number;
  /** Deaf sessions rebuilt (open, but silent for too long). */
  deafRebuilds: number;
  qrRounds: number;
  lastDisconnect: { code: number | null; reason: string; at: number } | null;
  /** The account's phone number, once linked. */
  phone: string | null;
}

/** Counts kept per session; `snapshot` fills in the rest. */
export class HealthCounters {
  connectedAt: number | null = null;
  lastEventAt: number | null = null;
  lastInboundAt: number | null = null;
  lastAckAt: number | null = null;
  reconnects = 0;
  decryptionErrors = 0;
  inbound = 0;
  deafRebuilds = 0;
  lastDisconnect: SessionHealth["lastDisconnect"] = null;
  /** Minute buckets of decryption errors over the last hour. */
  private readonly minutes = new Map<number, number>();

  decryptionError(now: number): void {
    this.decryptionErrors++;
    const minute = Math.floor(now / 60_000);
    this.minutes.set(minute, (this.minutes.get(minute) ?? 0) + 1);
    for (const m of this.minutes.keys()) if (m <= minute - 60) this.minutes.delete(m);
  }

  decryptionErrorsSince(now: number): number {
    const minute = Math.floor(now / 60_000);
    let n = 0;
    for (const [m, c] of this.minutes) if (m > minute - 60) n += c;
    return n;
  }
}

/** The health of a session as the `health` action answers it. */
export function healthSnapshot(
  h: HealthCounters,
  s: { tenantId: number; connectionId: number; status: ConnectionStatus; detail?: string; node: string; now: number; qrRounds: number; me?: string },
): SessionHealth {
  const phone = s.me ? /^(\d+)[:@]/.exec(s.me)?.[1] : undefined;
  return {
    tenantId: s.tenantId,
    connectionId: s.connectionId,
    status: s.status,
    ...(s.detail ? { detail: s.detail } : {}),
    node: s.node,
    connectedAt: h.connectedAt,
    lastEventAt: h.lastEventAt,
    lastInboundAt: h.lastInboundAt,
    lastAckAt: h.lastAckAt,
    reconnects: h.reconnects,
    decryptionErrors: h.decryptionErrors,
    decryptionErrorsLastHour: h.decryptionErrorsSince(s.now),
    inbound: h.inbound,
    deafRebuilds: h.deafRebuilds,
    qrRounds: s.qrRounds,
    lastDisconnect: h.lastDisconnect,
    phone: phone ?? null,
  };
}
