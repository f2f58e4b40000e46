/**
 * One connection's WhatsApp session on a wuzapi server, kept up from the outside: wuzapi runs
 * the WhatsApp client (whatsmeow), this class sets it up and watches it.
 *
 * - start: the user exists (created with the admin token when missing), the webhook points at
 *   the connection's public address, the HMAC key is set, the client is started; then the
 *   session is looked at: connected, waiting for a scan (the QR as wuzapi's data:image/png
 *   URL), or connecting.
 * - it is watched two ways: wuzapi's session events (QR, PairSuccess, Connected, LoggedOut…)
 *   arrive by webhook and change the status at once; a poll of /session/status backs them up
 *   (every `pollMs` while waiting for a scan, every `healthMs` once connected) and, while
 *   wuzapi cannot be reached, tries again with back-off (`retryMs`), showing `timeout`.
 * - a QR code not scanned in time makes wuzapi stop the client (QRTimeout): the connection
 *   stops in `disconnected` and waits for the admin, never looping QR codes on its own.
 */
import type { ConnectionRef, ConnectionStatus, StatusResult } from "@openatende/plugin-sdk";
import { WuzapiClient, WuzapiError } from "./client";
import { bareJid, phoneOf } from "./jid";
import { type WuzapiSettings, redact, webhookUrl } from "./settings";

export interface Timing {
  /** Poll while waiting for a scan or a reconnection (ms). */
  pollMs: number;
  /** Poll while connected (ms). */
  healthMs: number;
  /** Back-off while wuzapi cannot be reached (ms, the last one repeats). */
  retryMs: number[];
}

export interface Outcome {
  status: ConnectionStatus;
  detail?: string;
  qrcode?: string;
}

export interface SessionDeps {
  /** Tells the core a new status (once per change). */
  report(ref: ConnectionRef, outcome: Outcome): Promise<void>;
  log: { info(...a: unknown[]): void; warn(...a: unknown[]): void };
  timing(): Timing;
}

/** How long a pairing code is offered before QR codes are shown again (WhatsApp's codes last about 3 minutes). */
export const PAIRING_WINDOW_MS = 180_000;

/** What a session event of wuzapi says about the connection, or null when it says nothing new. */
export function outcomeOfEvent(type: string, evt: Record<string, unknown>): Outcome | null {
  const reason = (): string => {
    const e = (evt.event ?? {}) as Record<string, unknown>;
    const r = evt.reason ?? evt.error ?? e.Message ?? e.Reason ?? e.Code;
    return r === undefined || r === null || r === "" ? "" : ` (${String(r).slice(0, 200)})`;
  };
  switch (type) {
    case "QR":
      return typeof evt.qrCodeBase64 === "string" && evt.qrCodeBase64 ? { status: "qrcode", qrcode: evt.qrCodeBase64 } : null;
    case "QRTimeout":
      return { status: "disconnected", detail: "The QR code was not scanned in time: connect again for a new one" };
    case "PairSuccess":
      return { status: "connecting", detail: "Linked: connecting to WhatsApp" };
    case "Connected":
    case "KeepAliveRestored":
      return { status: "connected" };
    case "LoggedOut":
      return { status: "disconnected", detail: `Logged out on the phone${reason()}: reset the connection for a new QR code` };
    case "Disconnected":
    case "KeepAliveTimeout":
      return { status: "connecting", detail: "The connection to WhatsApp dropped: reconnecting" };
    case "ConnectFailure":
      return { status: "disconnected", detail: `WhatsApp refused the connection${reason()}` };
    case "TemporaryBan":
      return { status: "disconnected", detail: `WhatsApp banned this number for a while${reason()}` };
    case "ClientOutdated":
      return { status: "disconnected", detail: "WhatsApp refuses this wuzapi server's WhatsApp version: update wuzapi" };
    default:
      return null;
  }
}

export class Session {
  status: ConnectionStatus = "connecting";
  detail?: string;
  qrcode?: string;
  ownJid?: string;
  closed = false;
  private pairingUntil = 0;
  private pairingDetail = "";
  private timer?: NodeJS.Timeout;
  private attempt = 0;
  private running: Promise<void> | null = null;

  constructor(
    readonly ref: ConnectionRef,
    readonly settings: WuzapiSettings,
    readonly client: WuzapiClient,
    /** The connection's public token and the product's URL (the webhook's address), when the core gave them. */
    readonly hook: { token?: string; publicUrl?: string },
    private readonly deps: SessionDeps,
  ) {}

  /** The key under which the plugin remembers this connection's sends and messages. */
  get key(): string {
    return this.hook.token ?? `c${this.ref.tenantId}-${this.ref.connectionId}`;
  }

  /** Sets the session up and answers its status (not reported: the caller reports it). */
  async start(): Promise<StatusResult> {
    const out = await this.guard(() => this.bringUp(), "start");
    this.remember(out);
    this.plan();
    return this.result();
  }

  result(): StatusResult {
    return { status: this.status, ...(this.detail ? { detail: this.detail } : {}), ...(this.status === "qrcode" && this.qrcode ? { qrcode: this.qrcode } : {}) };
  }

  /** A session event from the webhook: applied at once, then looked at again soon. */
  onEvent(type: string, evt: Record<string, unknown>): boolean {
    if (this.closed) return false;
    if (type === "PairSuccess") {
      this.pairingUntil = 0;
      const linked = bareJid((evt.event as { ID?: unknown } | undefined)?.ID);
      if (linked) this.ownJid = linked;
    }
    let out = outcomeOfEvent(type, evt);
    if (!out) return false;
    if (out.status === "qrcode" && this.pairingActive()) out = { status: "pairing", detail: this.pairingDetail };
    if (out.status === "connected") out = { status: "connected", detail: this.connectedDetail() };
    this.set(out);
    this.plan();
    return true;
  }

  /** A pairing code was handed out: the session shows `pairing` instead of QR codes for a while. */
  pairing(code: string, phone: string): void {
    this.pairingUntil = Date.now() + PAIRING_WINDOW_MS;
    this.pairingDetail = `Pairing code ${code} for +${phone}: enter it on the phone (WhatsApp › Linked devices › Link with phone number)`;
    this.set({ status: "pairing", detail: this.pairingDetail });
    this.plan();
  }

  /** A send met a session that is not there: look again now rather than at the next poll. */
  kick(): void {
    if (!this.closed) this.plan(0);
  }

  /** Logged out on purpose (reset): set up again from scratch, for a new QR code. */
  async restart(): Promise<StatusResult> {
    this.pairingUntil = 0;
    this.attempt = 0;
    await this.running;
    const out = await this.guard(() => this.bringUp(), "restart");
    this.set(out);
    this.plan();
    return this.result();
  }

  stop(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  // --- inside -----------------------------------------------------------------------------------

  private pairingActive(): boolean {
    return this.pairingUntil > Date.now();
  }

  private connectedDetail(): string {
    return this.ownJid ? `WhatsApp +${phoneOf(this.ownJid) ?? this.ownJid.split("@")[0]}` : "WhatsApp linked";
  }

  private sessionName(): string {
    return this.settings.session ?? `openatende-${this.ref.tenantId}-${this.ref.connectionId}`;
  }

  private remember(out: Outcome): void {
    this.status = out.status;
    this.detail = out.detail ? redact(out.detail, this.settings).slice(0, 1000) : undefined;
    this.qrcode = out.status === "qrcode" ? out.qrcode : undefined;
  }

  private set(out: Outcome): void {
    if (this.closed) return;
    const detail = out.detail ? redact(out.detail, this.settings).slice(0, 1000) : undefined;
    const qrcode = out.status === "qrcode" ? out.qrcode : undefined;
    if (this.status === out.status && this.detail === detail && this.qrcode === qrcode) return;
    this.remember(out);
    this.deps.log.info(`connection ${this.ref.connectionId}: ${out.status}${detail ? ` (${detail})` : ""}`);
    this.deps.report(this.ref, { status: out.status, ...(detail ? { detail } : {}), ...(qrcode ? { qrcode } : {}) }).catch((err: Error) =>
      this.deps.log.warn(`connection ${this.ref.connectionId}: status not reported: ${err.message}`),
    );
  }

  /** Schedules the next look by the status (or in `ms`). */
  private plan(ms?: number): void {
    clearTimeout(this.timer);
    if (this.closed) return;
    const t = this.deps.timing();
    let wait = ms;
    if (wait === undefined) {
      if (this.status === "connected") wait = t.healthMs;
      else if (this.status === "timeout") wait = t.retryMs[Math.min(Math.max(this.attempt - 1, 0), t.retryMs.length - 1)];
      else if (this.status === "disconnected" || this.status === "inactive") return;
      else wait = t.pollMs;
    }
    this.timer = setTimeout(() => void this.tick(), wait);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    if (this.closed || this.running) return;
    this.running = (async () => {
      const before = this.status;
      const out = await this.guard(async () => {
        if (before === "timeout") return this.bringUp();
        try {
          return await this.look();
        } catch (err) {
          if (!(err instanceof WuzapiError) || err.kind !== "no-session") throw err;
          // wuzapi holds no client: a connected session lost it (wuzapi restarted), a waiting one timed out.
          if (before === "connected" || before === "connecting") return this.bringUp();
          return { status: "disconnected" as const, detail: "The QR code was not scanned in time: connect again for a new one" };
        }
      }, "status");
      this.set(out);
      this.plan();
    })();
    try {
      await this.running;
    } finally {
      this.running = null;
    }
  }

  /** Runs a step; wuzapi's failures become the status they mean. */
  private async guard(step: () => Promise<Outcome>, what: string): Promise<Outcome> {
    try {
      const out = await step();
      this.attempt = 0;
      return out;
    } catch (err) {
      if (!(err instanceof WuzapiError)) {
        this.deps.log.warn(`connection ${this.ref.connectionId}: ${what} failed: ${(err as Error).message}`);
        this.attempt++;
        return { status: "timeout", detail: `${what}: ${(err as Error).message}` };
      }
      if (err.kind === "unreachable") {
        this.attempt++;
        return { status: "timeout", detail: err.message };
      }
      if (err.kind === "unauthorized") return { status: "disconnected", detail: "wuzapi does not accept the session token" };
      return { status: "disconnected", detail: err.message };
    }
  }

  private async bringUp(): Promise<Outcome> {
    const c = this.client;
    let running = false;
    try {
      const st = await c.status();
      running = st.connected || st.loggedIn;
    } catch (err) {
      if (!(err instanceof WuzapiError) || (err.kind !== "unauthorized" && err.kind !== "no-session")) throw err;
      if (err.kind === "unauthorized") {
        if (!this.settings.apiToken) {
          return { status: "disconnected", detail: "wuzapi does not know the session token: create the user on the server, or fill in the API (admin) token so it is created" };
        }
        await c.createUser(this.settings.apiToken, this.sessionName()).catch((e: unknown) => {
          if (e instanceof WuzapiError && e.kind === "unauthorized") throw new WuzapiError("refused", "wuzapi refused the API (admin) token while creating the session's user");
          throw e;
        });
      }
    }
    if (this.hook.token && this.hook.publicUrl) await c.setWebhook(webhookUrl(this.hook.publicUrl, this.hook.token));
    else this.deps.log.warn(`connection ${this.ref.connectionId}: no public address known, the webhook is not set (messages will not arrive)`);
    await c.setHmacKey(this.settings.hmacKey).catch((e: unknown) => {
      if (e instanceof WuzapiError && e.kind === "refused" && e.status === 404) throw new WuzapiError("refused", "This wuzapi server cannot sign webhooks (no /session/hmac/config): update it");
      throw e;
    });
    if (!running) {
      const r = await c.connect();
      if (r.jid) this.ownJid = bareJid(r.jid);
    }
    try {
      return await this.look();
    } catch (err) {
      if (err instanceof WuzapiError && err.kind === "no-session") return { status: "disconnected", detail: "wuzapi could not start the WhatsApp client" };
      throw err;
    }
  }

  /** The session as wuzapi sees it now. */
  private async look(): Promise<Outcome> {
    const st = await this.client.status();
    if (st.jid) this.ownJid = bareJid(st.jid);
    if (st.loggedIn && st.connected) {
      this.pairingUntil = 0;
      return { status: "connected", detail: this.connectedDetail() };
    }
    if (st.loggedIn) return { status: "connecting", detail: "Reconnecting to WhatsApp" };
    if (this.pairingActive()) return { status: "pairing", detail: this.pairingDetail };
    const qr = st.connected ? await this.client.qr() : null;
    if (qr) return { status: "qrcode", qrcode: qr };
    return { status: "connecting", detail: "Waiting for wuzapi's QR code" };
  }
}
