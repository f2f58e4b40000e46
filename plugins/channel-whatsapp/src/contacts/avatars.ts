/**
 * Profile pictures, kept for a while: a ticket list shows many and WhatsApp is asked once per
 * contact per TTL. A picture hidden by privacy, or none at all, is null, never an error (the
 * spec's contact simply has no picture). A failure that says nothing about the picture (a
 * timeout, a socket that closed) is also null, but remembered only briefly.
 */
import type { SessionPort } from "../ports";
import { jidOfExternalId } from "../messages/jids";

export interface ProfilePicturesOptions {
  /** How long an answer is kept (default 6 hours; WhatsApp's picture URLs last longer). */
  ttlMs?: number;
  /** How long a failed look-up is kept before asking again (default 1 minute). */
  failureTtlMs?: number;
  /** At most this many contacts are kept (default 5,000). */
  max?: number;
  /** Passed to Baileys' profilePictureUrl. */
  timeoutMs?: number;
  now?: () => number;
}

/** WhatsApp's answers that mean "no picture for you": not-authorized (privacy), forbidden, item-not-found. */
const DEFINITE = new Set([401, 403, 404]);

function isDefiniteNoPicture(err: unknown): boolean {
  const e = err as { data?: unknown; output?: { statusCode?: number } } | null;
  const code = typeof e?.data === "number" ? e.data : Number((e?.data as { code?: unknown } | undefined)?.code);
  return DEFINITE.has(code) || DEFINITE.has(e?.output?.statusCode ?? 0);
}

export class ProfilePictures {
  private readonly cache = new Map<string, { url: string | null; until: number }>();
  private readonly inflight = new Map<string, Promise<string | null>>();
  private readonly ttlMs: number;
  private readonly failureTtlMs: number;
  private readonly max: number;
  private readonly now: () => number;

  constructor(private readonly opts: ProfilePicturesOptions = {}) {
    this.ttlMs = opts.ttlMs ?? 6 * 3600_000;
    this.failureTtlMs = opts.failureTtlMs ?? 60_000;
    this.max = opts.max ?? 5000;
    this.now = opts.now ?? Date.now;
  }

  /** The picture's URL of a contact identity (or JID); null when there is none to show. */
  async get(session: SessionPort, identity: string): Promise<string | null> {
    const jid = jidOfExternalId(identity);
    if (!jid) return null;
    const hit = this.cache.get(jid);
    if (hit && hit.until > this.now()) return hit.url;
    const running = this.inflight.get(jid);
    if (running) return running;
    const p = this.lookUp(session, jid).finally(() => this.inflight.delete(jid));
    this.inflight.set(jid, p);
    return p;
  }

  /** contacts.update said the picture changed: ask again next time. */
  forget(identity: string): void {
    const jid = jidOfExternalId(identity);
    if (jid) this.cache.delete(jid);
  }

  private async lookUp(session: SessionPort, jid: string): Promise<string | null> {
    let url: string | null;
    let ttl = this.ttlMs;
    try {
      url = (await session.profilePictureUrl(jid, "image", this.opts.timeoutMs)) || null;
    } catch (err) {
      url = null;
      if (!isDefiniteNoPicture(err)) ttl = this.failureTtlMs;
    }
    this.cache.delete(jid);
    this.cache.set(jid, { url, until: this.now() + ttl });
    while (this.cache.size > this.max) this.cache.delete(this.cache.keys().next().value as string);
    return url;
  }
}
