/**
 * One connection's INBOX: an ImapFlow client that IDLEs on the mailbox (new mail is pushed),
 * a poll timer that syncs anyway (servers without IDLE, an IDLE that silently died),
 * reconnection with exponential backoff, and the UID bookkeeping that makes restarts safe.
 *
 * Sync rules (the cursor lives in Redis, see store.ts):
 * - normal: every UID above the cursor's lastUid, in order; the cursor moves after each
 *   message reached the core, so a crash re-reads at most the message in flight (and the
 *   core drops it by its Message-ID) and never skips one.
 * - first sync of an account (no cursor, or the settings now name another mailbox): unread
 *   mail of the last `initialDays` days is imported, then only what arrives.
 * - UIDVALIDITY changed (the server renumbered the mailbox): everything since the day before
 *   the last imported message is looked at again; Message-IDs handed over before are skipped
 *   here, and the core's idempotency by Message-ID catches the rest.
 */
import type { FetchMessageObject, ImapFlow, MailboxObject } from "imapflow";
import type { ConnectionRef, ConnectionStatus, OutboundPolicy, StatusResult } from "@openatende/plugin-sdk";
import { accountKey, imapOptions, ImapSettings } from "./settings";
import { serverTarget } from "./server-address";
import type { EmailStore, SyncCursor } from "./store";
import { describeImapError } from "./errors";
import { normaliseMessageId, providerIdOf } from "./parse";

export interface FetchedMail {
  uid: number;
  /** The server's arrival time (ms). */
  internalDate: number;
  size: number;
  /** Absent when the message is larger than maxMessageBytes (only its envelope is read). */
  source?: Buffer;
  envelope?: { subject?: string; from?: Array<{ name?: string; address?: string }>; messageId?: string };
}

/** "done": the message is dealt with (imported or deliberately skipped); "retry": the core could not take it now. */
export type Handled = "done" | "retry";

export interface WatcherOptions {
  ref: ConnectionRef;
  settings: ImapSettings;
  store: EmailStore;
  handle(mail: FetchedMail, mode: "new" | "resync"): Promise<Handled>;
  onStatus(status: ConnectionStatus, detail?: string): void;
  log: { info(...a: unknown[]): void; warn(...a: unknown[]): void; debug(...a: unknown[]): void };
  /** Sync every this many ms besides IDLE (default 30 s). */
  pollIntervalMs?: number;
  /** False: never IDLE, only poll (servers where IDLE misbehaves; tests of the fallback). */
  idle?: boolean;
  initialDays?: number;
  maxMessageBytes?: number;
  /** Reconnection backoff: first delay and ceiling (default 1 s … 60 s). */
  backoffMs?: { min: number; max: number };
  /** The platform's outbound policy: the IMAP server is checked at every connection. */
  policy: OutboundPolicy;
}

const DAY = 24 * 3600_000;

export class MailboxWatcher {
  status: ConnectionStatus = "disconnected";
  detail: string | undefined;
  /** True while the session IDLEs between syncs; false when the server lacks IDLE (polling only). */
  idleSupported = false;
  /** Syncs run so far (tests and the status detail). */
  syncs = 0;

  private client: ImapFlow | null = null;
  private stopped = false;
  private syncing: Promise<void> | null = null;
  private again = false;
  private pollTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempt = 0;
  private reported: string | null = null;

  constructor(private readonly o: WatcherOptions) {}

  /** First connection attempt: "connected", "disconnected" (wrong settings, no retry) or "connecting" (retrying). */
  async start(): Promise<StatusResult> {
    try {
      await this.open();
    } catch (err) {
      const e = describeImapError(err);
      if (!e.retry) {
        this.setStatus("disconnected", `${e.code}: ${e.detail}`);
        return { status: this.status, detail: this.detail };
      }
      this.setStatus("connecting", `${e.code}: ${e.detail}`);
      this.scheduleReconnect();
      this.startPolling();
      return { status: this.status, detail: this.detail };
    }
    this.startPolling();
    this.trigger();
    return { status: this.status, detail: this.detail };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of [this.pollTimer, this.reconnectTimer, this.retryTimer]) if (t) clearTimeout(t);
    this.pollTimer = this.reconnectTimer = this.retryTimer = null;
    const c = this.client;
    this.client = null;
    await this.syncing?.catch(() => undefined);
    if (c) {
      await Promise.race([c.logout().catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())]);
      c.close();
    }
  }

  /** Runs a sync now (or after the running one) and waits for it. */
  async syncNow(): Promise<void> {
    this.trigger();
    while (this.syncing) await this.syncing;
  }

  private async open(): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ImapFlow } = require("imapflow") as typeof import("imapflow");
    const useIdle = this.o.idle !== false;
    const target = await serverTarget(this.o.settings.imapHost, this.o.policy);
    const client = new ImapFlow(
      imapOptions(this.o.settings, {
        ...target,
        disableAutoIdle: !useIdle,
        autoIdleDelay: 1000,
        maxIdleTime: 4 * 60_000,
      }),
    );
    client.on("error", (err: Error) => this.o.log.debug(`IMAP ${this.name()}: ${err.message}`));
    client.on("close", () => this.onClose(client));
    client.on("exists", () => this.trigger());
    try {
      await client.connect();
      await client.mailboxOpen("INBOX", { readOnly: true });
    } catch (err) {
      client.close();
      throw err;
    }
    if (this.stopped) {
      client.close();
      return;
    }
    this.client = client;
    this.attempt = 0;
    this.idleSupported = useIdle && client.capabilities.has("IDLE");
    const every = `${(this.pollMs() / 1000).toLocaleString("en", { maximumFractionDigits: 1 })} s`;
    this.setStatus("connected", this.idleSupported ? undefined : `IMAP IDLE ${useIdle ? "not offered by the server" : "off"}: polling every ${every}`);
  }

  private name() {
    return `${this.o.ref.tenantId}/${this.o.ref.connectionId}`;
  }

  private pollMs() {
    return this.o.pollIntervalMs ?? 30_000;
  }

  private setStatus(status: ConnectionStatus, detail?: string) {
    this.status = status;
    this.detail = detail;
    // Reported when the status changes, not on every failed retry.
    if (this.reported === status || this.stopped) return;
    this.reported = status;
    this.o.onStatus(status, detail);
  }

  private startPolling() {
    if (this.pollTimer || this.stopped) return;
    const tick = () => {
      this.pollTimer = setTimeout(tick, this.pollMs());
      this.pollTimer.unref?.();
      this.trigger();
    };
    this.pollTimer = setTimeout(tick, this.pollMs());
    this.pollTimer.unref?.();
  }

  private onClose(client: ImapFlow) {
    if (client !== this.client || this.stopped) return;
    this.client = null;
    this.o.log.warn(`IMAP ${this.name()}: connection closed, reconnecting`);
    this.setStatus("connecting", "connection lost, reconnecting");
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    if (this.stopped || this.reconnectTimer) return;
    const { min, max } = this.o.backoffMs ?? { min: 1000, max: 60_000 };
    const base = Math.min(max, min * 2 ** this.attempt);
    const delay = Math.round(base / 2 + Math.random() * (base / 2));
    this.attempt++;
    this.reconnectTimer = setTimeout(async () => {
      this.reconnectTimer = null;
      if (this.stopped) return;
      try {
        await this.open();
        this.trigger();
      } catch (err) {
        const e = describeImapError(err);
        this.o.log.warn(`IMAP ${this.name()}: reconnect failed (${e.code}: ${e.detail})`);
        if (!e.retry) this.setStatus("disconnected", `${e.code}: ${e.detail}`);
        else {
          this.detail = `${e.code}: ${e.detail}`;
          this.scheduleReconnect();
        }
      }
    }, delay);
    this.reconnectTimer.unref?.();
  }

  /** Starts a sync, or asks the running one to go round once more. */
  private trigger() {
    if (this.stopped) return;
    if (this.syncing) {
      this.again = true;
      return;
    }
    this.syncing = (async () => {
      try {
        do {
          this.again = false;
          try {
            await this.syncOnce();
          } catch (err) {
            // A dropped connection ends here too; its "close" event schedules the reconnect.
            this.o.log.warn(`IMAP ${this.name()}: sync failed: ${(err as Error).message}`);
          }
        } while (this.again && !this.stopped);
      } finally {
        this.syncing = null;
      }
    })();
  }

  private async syncOnce(): Promise<void> {
    const client = this.client;
    if (!client || !client.usable) return;
    const lock = await client.getMailboxLock("INBOX", { readOnly: true });
    try {
      this.syncs++;
      const mb = client.mailbox as MailboxObject;
      const account = accountKey(this.o.settings);
      const uidValidity = String(mb.uidValidity);
      // UIDs below this were on the server when the mailbox was selected: the one-off
      // imports below cover them, everything above is "new" for the normal pass.
      const top = Math.max(0, mb.uidNext - 1);
      let cursor = await this.o.store.getCursor(this.o.ref);
      if (!cursor || cursor.account !== account) {
        const since = new Date(Date.now() - (this.o.initialDays ?? 3) * DAY);
        const uids = top ? await this.searchUids(client, { seen: false, since, uid: `1:${top}` }) : [];
        if (!(await this.importOnce(client, uids, top))) return;
        cursor = { account, uidValidity, lastUid: top, lastDate: Date.now() };
        await this.o.store.setCursor(this.o.ref, cursor);
      } else if (cursor.uidValidity !== uidValidity) {
        this.o.log.warn(`IMAP ${this.name()}: UIDVALIDITY changed (${cursor.uidValidity} → ${uidValidity}), re-syncing since ${new Date(cursor.lastDate - DAY).toISOString()}`);
        const uids = top ? await this.searchUids(client, { since: new Date(cursor.lastDate - DAY), uid: `1:${top}` }) : [];
        if (!(await this.importOnce(client, uids, top))) return;
        cursor = { account, uidValidity, lastUid: top, lastDate: cursor.lastDate };
        await this.o.store.setCursor(this.o.ref, cursor);
      }
      let at: SyncCursor = cursor;
      const fresh = (await this.searchUids(client, { uid: `${at.lastUid + 1}:*` })).filter((u) => u > at.lastUid);
      for (const uid of fresh) {
        if (this.stopped || this.client !== client) return;
        const mail = await this.fetch(client, uid);
        if (!mail) continue; // expunged meanwhile
        if ((await this.o.handle(mail, "new")) === "retry") return this.retrySoon();
        at = { ...at, lastUid: uid, lastDate: mail.internalDate };
        await this.o.store.setCursor(this.o.ref, at);
      }
    } finally {
      lock.release();
    }
  }

  /**
   * The one-off imports (first sync, UIDVALIDITY change): messages whose Message-ID was not
   * handed over before. False when the core could not take one (the cursor then stays put
   * and the whole import is tried again later).
   */
  private async importOnce(client: ImapFlow, uids: number[], top: number): Promise<boolean> {
    const wanted = uids.filter((u) => u <= top);
    if (!wanted.length) return true;
    const envelopes = await client.fetchAll(wanted.join(","), { uid: true, envelope: true }, { uid: true });
    for (const m of envelopes.sort((a, b) => a.uid - b.uid)) {
      if (this.stopped || this.client !== client) return false;
      const id = normaliseMessageId(m.envelope?.messageId);
      if (id && (await this.o.store.wasSeen(this.o.ref, providerIdOf(id)))) continue;
      const mail = await this.fetch(client, m.uid);
      if (mail && (await this.o.handle(mail, "resync")) === "retry") {
        this.retrySoon();
        return false;
      }
    }
    return true;
  }

  private async searchUids(client: ImapFlow, query: Record<string, unknown>): Promise<number[]> {
    const res = await client.search(query, { uid: true });
    return (Array.isArray(res) ? res : []).slice().sort((a, b) => a - b);
  }

  private async fetch(client: ImapFlow, uid: number): Promise<FetchedMail | null> {
    const head = (await client.fetchOne(String(uid), { uid: true, size: true, internalDate: true, envelope: true }, { uid: true })) as FetchMessageObject | false | undefined;
    if (!head) return null;
    const internalDate = head.internalDate ? new Date(head.internalDate).getTime() : Date.now();
    const size = head.size ?? 0;
    const envelope = head.envelope ? { subject: head.envelope.subject, from: head.envelope.from, messageId: head.envelope.messageId } : undefined;
    if (size > (this.o.maxMessageBytes ?? 40 * 1024 * 1024)) return { uid, internalDate, size, envelope };
    const full = (await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true })) as FetchMessageObject | false | undefined;
    if (!full || !full.source) return null;
    return { uid, internalDate, size, source: full.source, envelope };
  }

  /** The core could not take a message: try again in a few seconds rather than at the next poll. */
  private retrySoon() {
    if (this.retryTimer || this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.trigger();
    }, 5000);
    this.retryTimer.unref?.();
  }
}

export type { SyncCursor };
