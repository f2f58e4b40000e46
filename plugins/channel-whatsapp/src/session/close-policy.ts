/**
 * What a closed socket means, by Baileys' close code (WHATSAPP.md 1.2):
 *
 *   515 restart required (after pairing)      → a new socket at once, same creds
 *   408 lost / timed out, 428 closed,
 *   500 bad session, 503 unavailable, other   → a new socket after a backoff (jittered, capped,
 *                                               reset when a socket opens)
 *   408 while unlinked with the QR rounds used → stop, wait for the user
 *   401 logged out                            → wipe the session, stop
 *   403 forbidden (banned)                    → wipe the session, stop
 *   440 replaced                              → never ping-pong: the session decides with its lock
 *   411 multi-device mismatch                 → wipe the session, link again (new QR)
 *   405 outdated client version               → stop (a reconnect loop would not fix it)
 *
 * Pure functions: the session applies them (session.ts).
 */
export type CloseAction =
  | { kind: "restart" }
  | { kind: "backoff" }
  | { kind: "qr-expired" }
  | { kind: "logged-out" }
  | { kind: "banned" }
  | { kind: "replaced" }
  | { kind: "repair" }
  | { kind: "version" };

export interface CloseFacts {
  /** The account is linked (creds.registered). */
  registered: boolean;
  /** QR codes shown on this link attempt, and the most allowed. */
  qrRounds: number;
  maxQrRounds: number;
}

/** Baileys' close code: a Boom's status code (the `failure` node's reason and stream errors are Booms too). */
export function closeCode(err: unknown): number | undefined {
  const e = err as { output?: { statusCode?: unknown }; data?: { statusCode?: unknown; reason?: unknown }; statusCode?: unknown } | undefined;
  for (const v of [e?.output?.statusCode, e?.statusCode, e?.data?.statusCode, e?.data?.reason]) {
    const n = Number(v);
    if (Number.isInteger(n) && n > 0) return n;
  }
  return undefined;
}

export function closeAction(code: number | undefined, facts: CloseFacts): CloseAction {
  switch (code) {
    case 515:
      return { kind: "restart" };
    case 401:
      return { kind: "logged-out" };
    case 403:
      return { kind: "banned" };
    case 440:
      return { kind: "replaced" };
    case 411:
      return { kind: "repair" };
    case 405:
      return { kind: "version" };
    case 408:
      // "QR refs attempts ended": nobody scanned; asking for more QR codes unattended is what gets numbers banned.
      if (!facts.registered && facts.qrRounds >= facts.maxQrRounds) return { kind: "qr-expired" };
      return { kind: "backoff" };
    default:
      return { kind: "backoff" };
  }
}

export interface BackoffOptions {
  /** First delay (default 2 s). */
  baseMs: number;
  /** Longest delay (default 60 s). */
  maxMs: number;
}

/**
 * The delay before reconnect attempt `attempt` (1, 2, …): exponential, capped, with half of it
 * random so that many sessions dropped at once (a network blip) do not all come back together.
 */
export function backoffDelay(attempt: number, opts: BackoffOptions, random: () => number = Math.random): number {
  const exp = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}
