/**
 * One WhatsApp session (one connection) on the node that owns it: its socket, its state
 * machine, its timers. The state machine of WHATSAPP.md 1.9, in the spec's statuses:
 *
 *   start ─► connecting ─► qrcode (QR round n of max) ─► pairing (scanned / code typed) ─┐
 *              │   ▲            └─ rounds used up ─► disconnected [qr-expired]            │
 *              │   └──── timeout [reconnecting] ◄── close 408/428/500/503 (backoff)       │
 *              └─────────────────────────────────────────► connected ◄── 515 restart ◄────┘
 *   close 401/403 ─► session wiped ─► disconnected [logged-out|banned]
 *   close 440     ─► conflict (unless the lock proves we own it: one delayed retry, at most)
 *   close 411     ─► session wiped ─► a new QR;   close 405 ─► disconnected [wa-version]
 *
 * Sockets: one at a time. Before a new socket starts, the old one's listeners are removed and
 * it is ended; events of an old socket that still arrive are ignored (each socket has a
 * generation). Timers (reconnect backoff, stuck in connecting, deaf session) run on the
 * injected clock. Every status change is handed to `report` (the core's channels.status).
 */
import type { AuthenticationCreds, ConnectionState } from "@whiskeysockets/baileys";
import { FencedOffError } from "../stores/auth-state";
import { baileys, loadBaileys } from "./baileys";
import { backoffDelay, closeAction, closeCode } from "./close-policy";
import { alreadyLinked, pairingUnavailable } from "./errors";
import { qrDataUrl } from "./qr";
import type { WASocketLike } from "./socket-factory";
import type { OnEvent } from "./session-types";
import type { DetailKey } from "./status-detail";
import { SessionBase } from "./session-base";

export { DEFAULT_SESSION_OPTIONS, type OnEvent, type SessionDeps, type SessionOptions } from "./session-types";

const formatCode = (code: string) => (code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code);

export class Session extends SessionBase {
  // --- commands -------------------------------------------------------------------------------

  /** Starts the session (a no-op while it runs). */
  async start(): Promise<void> {
    if (this.running) return;
    this.qrRounds = 0;
    this.pairingRounds = 0;
    this.attempt = 0;
    this.replacedRetried = false;
    await this.open();
  }

  /** Ends the socket without logging out (the link stays valid for the next start or node). */
  stop(report = true): void {
    this.halt(report ? { status: "disconnected", key: "stopped", text: "stopped" } : null);
  }

  /**
   * Frees the connection for a new link: logs the open session out (best effort, so the phone
   * drops the device), wipes creds and keys, and starts again with a new QR code.
   */
  async reset(): Promise<void> {
    // An open socket is kept (listeners off) to log out with; any other is simply ended.
    const open = this.phase === "open" ? this.unlisten() : undefined;
    this.halt(null);
    if (open) {
      await Promise.race([open.logout("reset").catch(() => undefined), new Promise((r) => this.deps.clock.setTimeout(() => r(undefined), 5000))]);
      this.end(open);
    }
    await this.wipe();
    // A new QR, as the user asked: not a pairing code for a number asked earlier (the
    // connection's own pairing number, when it has one, still applies).
    this.pairingPhone = this.deps.settings.pairingPhone;
    await this.start();
  }

  /**
   * A pairing code for `phone` (digits with country code): asked on the current socket when it
   * shows a QR code, else on a socket started for it. Answers the 8-character code.
   */
  async requestPairingCode(phone: string): Promise<string> {
    if (this.phase === "open" || this.creds?.registered) throw alreadyLinked(this.ref);
    this.pairingPhone = phone;
    const waiting = this.pairingCode && this.phase === "pairing" ? Promise.resolve(this.pairingCode) : this.codes.wait(this.deps.options.pairingCodeTimeoutMs);
    if (this.sock && this.phase === "qr") {
      void this.askCode(this.gen, this.sock);
    } else if (!this.running || this.phase === "waiting") {
      this.qrRounds = 0;
      this.pairingRounds = 0;
      this.phase = "idle";
      this.timers.clear("reconnect");
      void this.start();
    }
    return waiting;
  }

  // --- the socket ---------------------------------------------------------------------------------

  private async open(): Promise<void> {
    this.timers.clear("reconnect");
    this.detach();
    const gen = ++this.gen;
    this.phase = "connecting";
    this.setStatus("connecting", "connecting");
    try {
      // The library is loaded by the first session that opens (a core with no WhatsApp session never pays for it).
      await loadBaileys();
      // Creds written by the last socket are stored before the next one uses them.
      await this.credsSaving;
      this.creds ??= (await this.deps.auth.loadCreds()) ?? baileys().initAuthCreds();
    } catch (err) {
      if (gen === this.gen) this.storageFailed(err);
      return;
    }
    if (gen !== this.gen || this.phase !== "connecting") return;
    let sock: WASocketLike;
    try {
      sock = this.deps.factory.create({
        ref: this.ref,
        auth: { creds: this.creds, keys: this.deps.auth.keys },
        keyCache: this.deps.keyCache,
        settings: this.deps.settings,
        getMessage: (key) => this.deps.getMessage(key),
        ...(this.deps.cachedGroupMetadata ? { cachedGroupMetadata: (jid: string) => this.deps.cachedGroupMetadata!(jid) } : {}),
        msgRetryCounterCache: this.deps.retryCache,
      });
    } catch (err) {
      this.deps.log.warn(`connection ${this.ref.connectionId}: socket not created: ${(err as Error).message}`);
      this.retry(undefined, (err as Error).message);
      return;
    }
    this.sock = sock;
    this.events = [];
    const on: OnEvent = (event, fn) => {
      this.events.push(event);
      sock.ev.on(event, (data) => {
        if (gen !== this.gen) return;
        this.touch();
        try {
          const r = fn(data);
          if (r && typeof (r as Promise<void>).catch === "function") (r as Promise<void>).catch((err: Error) => this.deps.log.warn(`connection ${this.ref.connectionId}: ${event} handler failed: ${err.message}`));
        } catch (err) {
          this.deps.log.warn(`connection ${this.ref.connectionId}: ${event} handler failed: ${(err as Error).message}`);
        }
      });
    };
    // Any event at all says the socket is alive (the deaf-session detector's clock).
    this.unsubscribe = sock.ev.process?.(() => {
      if (gen === this.gen) this.touch();
    });
    on("connection.update", (u) => this.onUpdate(gen, sock, u));
    on("creds.update", (u) => this.saveCreds(u));
    this.deps.route(sock, on);
    this.armStuck(gen);
  }

  private saveCreds(update: Partial<AuthenticationCreds>): void {
    const creds = this.creds;
    if (!creds) return;
    // The real socket merged the update already; a fake one relies on this.
    Object.assign(creds, update);
    this.credsSaving = this.credsSaving
      .then(() => this.deps.auth.saveCreds(creds))
      .catch((err: Error) => {
        this.deps.log.warn(`connection ${this.ref.connectionId}: creds not saved: ${err.message}`);
        if (err instanceof FencedOffError) this.fencedOff();
      });
  }

  private async onUpdate(gen: number, sock: WASocketLike, u: Partial<ConnectionState>): Promise<void> {
    if (u.qr) await this.onQr(gen, sock, u.qr);
    if (gen !== this.gen) return;
    if (u.isNewLogin) {
      this.phase = "pairing";
      this.setStatus("pairing", "linking", "linked on the phone; finishing");
      this.armStuck(gen);
    }
    if (u.connection === "open") this.onOpen(gen, sock);
    else if (u.connection === "close") await this.onClose(gen, u.lastDisconnect?.error);
  }

  private async onQr(gen: number, sock: WASocketLike, qr: string): Promise<void> {
    this.timers.clear("stuck");
    if (this.pairingPhone && !this.creds?.registered) {
      // One code per socket; the QR codes the server keeps sending meanwhile are not shown.
      if (this.pairingAskedGen !== gen) await this.askCode(gen, sock);
      return;
    }
    this.qrRounds++;
    if (this.qrRounds > this.deps.options.maxQrRounds) return this.expire();
    const url = await qrDataUrl(qr);
    if (gen !== this.gen) return;
    this.phase = "qr";
    this.qrcode = url;
    this.setStatus("qrcode", "qr", `round ${this.qrRounds} of ${this.deps.options.maxQrRounds}`, url);
  }

  private async askCode(gen: number, sock: WASocketLike): Promise<void> {
    const phone = this.pairingPhone!;
    this.pairingAskedGen = gen;
    this.pairingRounds++;
    if (this.pairingRounds > this.deps.options.maxQrRounds) return this.expire();
    let code: string;
    try {
      code = await sock.requestPairingCode(phone);
    } catch (err) {
      this.deps.log.warn(`connection ${this.ref.connectionId}: pairing code refused: ${(err as Error).message}`);
      this.codes.fail(pairingUnavailable(this.ref, (err as Error).message));
      return;
    }
    if (gen !== this.gen) return;
    this.phase = "pairing";
    this.pairingCode = code;
    this.setStatus("pairing", "pairing-code", `${formatCode(code)} — on the phone: WhatsApp › Linked devices › Link with phone number`);
    this.codes.resolve(code);
  }

  private onOpen(gen: number, sock: WASocketLike): void {
    const now = this.deps.clock.now();
    this.timers.clear("stuck");
    this.phase = "open";
    this.attempt = 0;
    this.qrRounds = 0;
    this.pairingRounds = 0;
    this.pairingCode = undefined;
    this.openedAt = now;
    this.health.connectedAt = now;
    this.health.lastEventAt = now;
    const phone = sock.user?.id ? baileys().jidDecode(sock.user.id)?.user : undefined;
    this.setStatus("connected", "connected", phone);
    this.armDeaf(gen);
  }

  private async onClose(gen: number, err: unknown): Promise<void> {
    if (gen !== this.gen) return;
    const now = this.deps.clock.now();
    const code = closeCode(err);
    const reason = (err as Error | undefined)?.message ?? "closed";
    this.health.lastDisconnect = { code: code ?? null, reason, at: now };
    const wasOpenFor = this.phase === "open" && this.openedAt !== undefined ? now - this.openedAt : 0;
    this.detach();
    const action = closeAction(code, {
      registered: !!this.creds?.registered,
      qrRounds: Math.max(this.qrRounds, this.pairingRounds),
      maxQrRounds: this.deps.options.maxQrRounds,
    });
    this.deps.log.info(`connection ${this.ref.connectionId}: closed (${code ?? "?"} ${reason}) → ${action.kind}`);
    const what = `${code ?? "?"} ${reason}`;
    switch (action.kind) {
      case "restart":
        return this.open();
      case "backoff":
        return this.retry(code, reason);
      case "qr-expired":
        return this.expire();
      case "logged-out":
        await this.wipe();
        return this.halt({ status: "disconnected", key: "logged-out", text: `unlinked on the phone (${what}): link it again with a new QR code` });
      case "banned":
        await this.wipe();
        return this.halt({ status: "disconnected", key: "banned", text: `WhatsApp refused this account (${what})` });
      case "version":
        return this.halt({ status: "disconnected", key: "wa-version", text: `WhatsApp refused this client version (${what}); the plugin's WhatsApp Web version must be updated` });
      case "repair":
        await this.wipe();
        this.qrRounds = 0;
        this.pairingRounds = 0;
        return this.open();
      case "replaced":
        return this.onReplaced(gen, wasOpenFor, what);
    }
  }

  /** 440: the same session opened elsewhere. Never a blind reconnect (two owners replace each other for ever). */
  private async onReplaced(gen: number, wasOpenFor: number, what: string): Promise<void> {
    if (wasOpenFor >= this.deps.options.stableMs) this.replacedRetried = false;
    const lock = await this.deps.lockState();
    if (gen !== this.gen) return;
    // Another node runs it now: its status stands; this one just lets go.
    if (lock === "other") return this.fencedOff();
    if (lock === "none") return this.halt({ status: "conflict", key: "conflict", text: `opened elsewhere while no node held the session (${what})` });
    if (this.replacedRetried) {
      return this.halt({ status: "conflict", key: "conflict", text: `opened elsewhere again after one retry (${what}): close the other WhatsApp Web session, then connect` });
    }
    this.replacedRetried = true;
    this.health.reconnects++;
    this.phase = "waiting";
    const ms = this.deps.options.replacedRetryMs;
    this.setStatus("conflict", "conflict", `opened elsewhere (${what}); one more attempt in ${Math.round(ms / 1000)} s`);
    this.timers.set("reconnect", ms, () => void this.open());
  }

  /** A reconnect after the backoff of the next attempt. */
  private retry(code: number | undefined, reason: string, key: DetailKey = "reconnecting"): void {
    this.attempt++;
    this.health.reconnects++;
    const ms = backoffDelay(this.attempt, this.deps.options.backoff, this.deps.random);
    this.phase = "waiting";
    this.setStatus("timeout", key, `${code ?? "?"} ${reason}; attempt ${this.attempt} in ${Math.max(1, Math.round(ms / 1000))} s`);
    this.timers.set("reconnect", ms, () => void this.open());
  }

  private storageFailed(err: unknown): void {
    if (err instanceof FencedOffError) return this.fencedOff();
    this.deps.log.warn(`connection ${this.ref.connectionId}: session state unreadable: ${(err as Error).message}`);
    this.retry(undefined, `session state unreadable: ${(err as Error).message}`, "storage");
  }

  // --- watchdog ---------------------------------------------------------------------------------

  private armStuck(gen: number): void {
    const ms = this.deps.options.stuckConnectingMs ?? 2 * this.deps.options.connectTimeoutMs;
    this.timers.armStuck(ms, () => {
      if (gen !== this.gen || (this.phase !== "connecting" && this.phase !== "pairing")) return;
      this.deps.log.warn(`connection ${this.ref.connectionId}: stuck connecting for ${ms} ms; the socket is built again`);
      this.detach();
      this.retry(undefined, `no answer for ${Math.round(ms / 1000)} s`, "stuck-connecting");
    });
  }

  private armDeaf(gen: number): void {
    const stillOpen = () => gen === this.gen && this.phase === "open";
    this.timers.armDeaf(this.deps.options.deafMs, stillOpen, () => this.health.lastEventAt ?? this.openedAt ?? 0, (silent) => {
      this.deps.log.warn(`connection ${this.ref.connectionId}: open but silent for ${Math.round(silent / 1000)} s; the socket is built again`);
      this.health.deafRebuilds++;
      this.health.reconnects++;
      this.detach();
      this.phase = "connecting";
      this.setStatus("connecting", "deaf", `no event for ${Math.round(silent / 60_000)} min`);
      void this.open();
    });
  }

}
