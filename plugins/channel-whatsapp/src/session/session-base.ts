/**
 * What a WhatsApp session (session.ts) is made of beside its socket's life: its state, what it
 * reports (statuses, health), and how it lets a socket go, stops, wipes its link or steps aside
 * for the node that owns it now. Session extends it with the socket's life and the state
 * machine's transitions.
 */
import type { AuthenticationCreds, BaileysEventMap } from "@whiskeysockets/baileys";
import type { ConnectionRef, ConnectionStatus } from "@openatende/plugin-sdk";
import { FencedOffError } from "../stores/auth-state";
import { pairingUnavailable } from "./errors";
import { HealthCounters, healthSnapshot, type SessionHealth } from "./health";
import type { WhatsAppSettings } from "./settings";
import type { WASocketLike } from "./socket-factory";
import type { SessionDeps } from "./session-types";
import { detail, type DetailKey } from "./status-detail";
import { CodeWaiters } from "./pairing-codes";
import { Timers } from "./watchdog";

export type Phase = "idle" | "connecting" | "qr" | "pairing" | "open" | "waiting" | "stopped";

export abstract class SessionBase {
  protected phase: Phase = "idle";
  protected status: ConnectionStatus = "disconnected";
  protected detailText?: string;
  protected qrcode?: string;
  protected sock?: WASocketLike;
  protected events: string[] = [];
  protected unsubscribe?: () => void;
  protected gen = 0;
  protected creds?: AuthenticationCreds;
  protected credsSaving: Promise<void> = Promise.resolve();
  protected attempt = 0;
  protected qrRounds = 0;
  protected pairingRounds = 0;
  protected pairingPhone?: string;
  protected pairingAskedGen = -1;
  protected pairingCode?: string;
  protected readonly codes: CodeWaiters;
  protected replacedRetried = false;
  protected openedAt?: number;
  protected readonly timers: Timers;
  readonly health = new HealthCounters();

  constructor(protected readonly deps: SessionDeps) {
    this.pairingPhone = deps.settings.pairingPhone;
    this.timers = new Timers(deps.clock);
    this.codes = new CodeWaiters(deps.clock, () => pairingUnavailable(this.ref, "WhatsApp sent no code in time"));
  }

  get ref(): ConnectionRef {
    return this.deps.ref;
  }

  /** The live socket while the session is open; undefined otherwise. */
  get socket(): WASocketLike | undefined {
    return this.phase === "open" ? this.sock : undefined;
  }

  get isOpen(): boolean {
    return this.phase === "open";
  }

  get running(): boolean {
    return this.phase !== "idle" && this.phase !== "stopped";
  }

  get settings(): WhatsAppSettings {
    return this.deps.settings;
  }

  current(): { status: ConnectionStatus; detail?: string; qrcode?: string } {
    return { status: this.status, ...(this.detailText ? { detail: this.detailText } : {}), ...(this.status === "qrcode" && this.qrcode ? { qrcode: this.qrcode } : {}) };
  }

  touch(): void {
    this.health.lastEventAt = this.deps.clock.now();
  }

  snapshot(): SessionHealth {
    return healthSnapshot(this.health, {
      ...this.deps.ref,
      status: this.status,
      detail: this.detailText,
      node: this.deps.nodeId,
      now: this.deps.clock.now(),
      qrRounds: this.qrRounds,
      me: this.sock?.user?.id,
    });
  }


  // --- the socket's end, stopping, wiping -------------------------------------------------------

  /** Removes the socket's listeners and ends it; its late events then reach nobody. */
  protected detach(): void {
    const sock = this.unlisten();
    if (sock) this.end(sock);
  }

  /** Takes the socket off the session with its listeners removed, still running. */
  protected unlisten(): WASocketLike | undefined {
    const sock = this.sock;
    this.sock = undefined;
    this.timers.clear("stuck");
    this.timers.clear("deaf");
    if (!sock) return undefined;
    for (const e of new Set(this.events)) sock.ev.removeAllListeners(e as keyof BaileysEventMap);
    this.events = [];
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    return sock;
  }

  protected end(sock: WASocketLike): void {
    try {
      void Promise.resolve(sock.end(undefined)).catch(() => undefined);
    } catch {
      /* already ended */
    }
  }

  protected expire(): void {
    this.halt({ status: "disconnected", key: "qr-expired", text: `no scan after ${this.deps.options.maxQrRounds} codes: connect again or reset for new ones` });
  }

  protected halt(report: { status: ConnectionStatus; key: DetailKey; text: string } | null): void {
    this.timers.clear("reconnect");
    this.detach();
    this.gen++;
    this.phase = "stopped";
    this.codes.fail(pairingUnavailable(this.ref, "the session stopped"));
    if (report) this.setStatus(report.status, report.key, report.text);
  }

  protected async wipe(): Promise<void> {
    this.creds = undefined;
    try {
      await this.deps.auth.wipe();
    } catch (err) {
      this.deps.log.warn(`connection ${this.ref.connectionId}: session not wiped: ${(err as Error).message}`);
      if (err instanceof FencedOffError) this.fencedOff();
    }
    await this.deps.keyCache.flushAll();
  }

  protected fencedOff(): void {
    this.halt(null);
    this.deps.onFencedOff?.();
  }

  // --- statuses -------------------------------------------------------------------------------------

  protected setStatus(status: ConnectionStatus, key: DetailKey, text?: string, qrcode?: string): void {
    const d = detail(key, text);
    if (status === this.status && d === this.detailText && (status !== "qrcode" || qrcode === this.qrcode)) return;
    this.status = status;
    this.detailText = d;
    if (status !== "qrcode") this.qrcode = undefined;
    this.deps.report({ ...this.ref, status, detail: d, ...(status === "qrcode" && qrcode ? { qrcode } : {}) });
  }
}
