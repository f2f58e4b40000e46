/**
 * The wuzapi channel's work behind the service's actions: its sessions (one per connection,
 * session.ts), the sends (outbound.ts, once per core message id), the webhook deliveries
 * (webhook.ts → normalise.ts → the core) and the admin's pairing code and reset.
 *
 * What lives only in memory here (the sessions, recent message ids) comes back with the next
 * `connect`; what must survive a restart is in wuzapi (the WhatsApp session), in Redis (the
 * sent log, who wrote which message: store.ts) and in the core (one row per message id).
 */
import { Errors } from "moleculer";
import {
  ack,
  changeMessage,
  inbound,
  INLINE_MEDIA_MAX_CHARS,
  readMedia,
  reportStatus,
  type Caller,
  type ConnectParams,
  type ConnectionRef,
  type MediaRef,
  type OutboundMessage,
  type OutboundPolicy,
  type PluginContext,
  type ResolvedToken,
  type SendResult,
  type StatusResult,
  type TestResult,
} from "@openatende/plugin-sdk";
import { WuzapiClient, WuzapiError } from "./client";
import { messageIdFor, randomMessageId } from "./ids";
import { recipientJid } from "./jid";
import { acksOf, normaliseMessage } from "./normalise";
import { OutboundError, sendOutbound } from "./outbound";
import { Session, outcomeOfEvent, type Outcome, type Timing } from "./session";
import { readSettings, redact, type WuzapiSettings } from "./settings";
import type { PluginStore } from "./store";
import { DeliveryError, parseDelivery, signatureValid, SIGNATURE_HEADER, type WuzapiEvent } from "./webhook";

export interface ChannelOptions {
  /** Calls to the core made outside any request (polls, reports), as this service. */
  core: Caller;
  logger: { info(...a: unknown[]): void; warn(...a: unknown[]): void };
  context: PluginContext | null;
  store: PluginStore;
  timing(): Timing;
}

export type DeliveryResult = "stored" | "duplicate" | "changed" | "acked" | "status" | "ignored" | "refused";

const notConnected = (connectionId: number, why: string) =>
  new Errors.MoleculerClientError(`The WhatsApp (wuzapi) connection is not connected: ${why}`, 409, "ERR_SESSION_NOT_INITIALIZED", { connectionId });

/** An error of the core that handing the same delivery over again cannot fix. */
function refusedByCore(err: unknown): boolean {
  const code = Number((err as { code?: unknown })?.code);
  return code >= 400 && code < 500 && code !== 408 && code !== 429;
}

/** Provider ids of large files handed over lately, per connection (a bounded set). */
class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly max = 5000) {}
  has(id: string) {
    return this.ids.has(id);
  }
  add(id: string) {
    this.ids.add(id);
    if (this.ids.size > this.max) this.ids.delete(this.ids.values().next().value as string);
  }
}

export class WuzapiChannel {
  private readonly sessions = new Map<number, Session>();
  private readonly recent = new Map<number, RecentIds>();
  private readonly inFlight = new Map<string, Promise<DeliveryResult>>();
  private readonly formatWarned = new Set<number>();

  constructor(private readonly opts: ChannelOptions) {}

  // --- the contract's actions -------------------------------------------------------------------

  async connect(p: ConnectParams, caller: Caller): Promise<StatusResult> {
    const ref = { tenantId: p.tenantId, connectionId: p.connectionId };
    this.sessions.get(p.connectionId)?.stop();
    this.sessions.delete(p.connectionId);
    const read = readSettings(p.settings);
    let res: StatusResult;
    if (!read.ok) res = { status: "disconnected", detail: read.detail };
    else {
      const session = this.newSession(ref, read.settings, { token: p.token, publicUrl: p.publicUrl ?? this.opts.context?.publicUrl });
      this.sessions.set(p.connectionId, session);
      res = await session.start();
    }
    await reportStatus(caller, { ...ref, ...res });
    return res;
  }

  async disconnect(ref: ConnectionRef, caller: Caller): Promise<StatusResult> {
    const session = this.sessionOf(ref);
    if (session) {
      this.sessions.delete(ref.connectionId);
      session.stop();
      // The WhatsApp session stays linked on wuzapi: connecting again needs no new QR code.
      await session.client.disconnect().catch((err: Error) => this.opts.logger.info(`connection ${ref.connectionId}: wuzapi disconnect: ${err.message}`));
    }
    await reportStatus(caller, { ...ref, status: "disconnected" });
    return { status: "disconnected" };
  }

  status(ref: ConnectionRef): StatusResult {
    return this.sessionOf(ref)?.result() ?? { status: "disconnected" };
  }

  async send(ref: ConnectionRef, externalId: string, message: OutboundMessage, messageId?: number): Promise<SendResult> {
    const session = this.sessionOf(ref);
    if (!session || session.closed) throw notConnected(ref.connectionId, "it was not started");
    // A session in `timeout` may be back already (the poll has not looked yet): the send finds out.
    if (session.status !== "connected" && session.status !== "timeout") throw notConnected(ref.connectionId, `it is ${session.status}`);
    const to = recipientJid(externalId);
    if (!to) throw new Errors.MoleculerClientError(`"${externalId}" is not a WhatsApp number or address`, 400, "ERR_CONTACT_NUMBER_INVALID", { field: "to.externalId" });
    const files = this.opts.context ?? { dataDir: "", localFiles: false };
    const target = {
      client: session.client,
      to,
      ownJid: session.ownJid,
      readMedia: (m: MediaRef) => readMedia(this.opts.core, ref, m, files),
      idFor: (part: string) => messageIdFor(session.key, messageId, part) ?? randomMessageId(),
      authorOf: (id: string) => this.opts.store.authorOf(session.key, id),
    };
    try {
      const res = await this.opts.store.once({ connection: session.key, messageId, what: [to, message] }, () => sendOutbound(target, message));
      if (message.kind === "text" || message.kind === "media") await this.opts.store.remember(session.key, res.providerMessageId, "me");
      return res;
    } catch (err) {
      const failure = this.sendFailure(session, err);
      this.opts.logger.warn(`connection ${ref.connectionId}: message ${messageId ?? "?"} to ${to} not sent: ${failure.message}`);
      throw failure;
    }
  }

  async test(settings: Record<string, unknown>): Promise<TestResult> {
    const read = readSettings(settings);
    if (!read.ok) return { ok: false, detail: read.detail };
    try {
      const st = await new WuzapiClient(read.settings.apiUrl, read.settings.sessionToken, { timeoutMs: 10_000, policy: this.policy() }).status();
      return { ok: true, detail: st.loggedIn ? "wuzapi accepted the session token; the session is linked" : "wuzapi accepted the session token; the session is not linked yet" };
    } catch (err) {
      if (!(err instanceof WuzapiError)) throw err;
      if (err.kind === "no-session") return { ok: true, detail: "wuzapi accepted the session token; the session is not started yet" };
      if (err.kind === "unauthorized") return { ok: false, detail: read.settings.apiToken ? "wuzapi does not know the session token yet: connecting creates it with the API token" : "wuzapi does not know the session token" };
      return { ok: false, detail: redact(err.message, read.settings) };
    }
  }

  /** Marks messages of a chat read on WhatsApp (the blue ticks the customer sees). */
  async markRead(ref: ConnectionRef, externalId: string, providerMessageIds: string[], participant?: string): Promise<{ ok: true }> {
    const session = this.sessionOf(ref);
    if (!session || session.status !== "connected") throw notConnected(ref.connectionId, session ? `it is ${session.status}` : "it was not started");
    const chat = recipientJid(externalId);
    if (!chat) throw new Errors.MoleculerClientError(`"${externalId}" is not a WhatsApp number or address`, 400, "ERR_CONTACT_NUMBER_INVALID", { field: "to.externalId" });
    try {
      await session.client.markRead(chat, providerMessageIds, participant ? (recipientJid(participant) ?? undefined) : undefined);
    } catch (err) {
      throw this.sendFailure(session, err);
    }
    return { ok: true };
  }

  async stop(): Promise<void> {
    for (const s of this.sessions.values()) s.stop();
    this.sessions.clear();
    await this.opts.store.close();
  }

  // --- the admin's actions (the connection form) ------------------------------------------------

  /** Asks wuzapi for a pairing code for `phone` (digits with country code); the session shows `pairing`. */
  async pairPhone(r: ResolvedToken, phone: string, caller: Caller): Promise<{ code: string; phone: string }> {
    const { session, client } = this.clientFor(r);
    let code: string | undefined;
    for (let tries = 0; !code; tries++) {
      try {
        code = await client.pairPhone(phone);
      } catch (err) {
        if (!(err instanceof WuzapiError)) throw err;
        if (err.kind === "no-session" && tries < 5) {
          // No WhatsApp client yet (never connected, or its QR code expired): start one, then ask again.
          if (tries === 0) await client.connect().catch((e: Error) => this.opts.logger.warn(`connection ${r.connectionId}: connect before pairing: ${e.message}`));
          await new Promise((ok) => setTimeout(ok, 400));
          continue;
        }
        throw this.adminFailure(err, r.connectionId);
      }
    }
    if (session) session.pairing(code, phone);
    else await reportStatus(caller, { tenantId: r.tenantId, connectionId: r.connectionId, status: "pairing", detail: `Pairing code ${code} for +${phone}` });
    return { code, phone };
  }

  /** Unlinks the WhatsApp session (wuzapi's logout) and starts again for a new QR code. */
  async reset(r: ResolvedToken, caller: Caller): Promise<StatusResult> {
    const { session, client } = this.clientFor(r);
    try {
      await client.logout();
    } catch (err) {
      // Nothing linked, or no client running: there is nothing to log out of.
      if (!(err instanceof WuzapiError) || (err.kind !== "no-session" && !/not logged ?in|not connected/i.test(err.message))) throw this.adminFailure(err, r.connectionId);
    }
    if (session) return session.restart();
    const res: StatusResult = { status: "disconnected", detail: "Logged out: connect again for a new QR code" };
    await reportStatus(caller, { tenantId: r.tenantId, connectionId: r.connectionId, ...res });
    return res;
  }

  // --- webhooks ---------------------------------------------------------------------------------

  /** The HMAC key deliveries of this connection must be signed with, or null when it has none. */
  keyFor(r: ResolvedToken): string | null {
    const live = this.sessionOf(r);
    if (live) return live.settings.hmacKey;
    const read = readSettings(r.settings);
    return read.ok ? read.settings.hmacKey : null;
  }

  /** One verified-or-refused delivery of wuzapi for connection `r` (found by the route's token). */
  async handleDelivery(r: ResolvedToken, routeToken: string, body: Buffer, headers: Record<string, string | undefined>, caller: Caller): Promise<DeliveryResult> {
    const key = this.keyFor(r);
    if (!key) throw new Errors.MoleculerClientError("This connection takes no webhook", 404, "ERR_CONNECTION_NOT_FOUND");
    // Only wuzapi knows the key: anything unsigned or signed otherwise is refused unread.
    if (!signatureValid(body, key, headers[SIGNATURE_HEADER])) {
      throw new Errors.MoleculerClientError("Wrong or missing webhook signature", 401, "ERR_TOKEN_INVALID", { reason: "webhook-signature" });
    }
    let evt: WuzapiEvent;
    let format: "json" | "form";
    try {
      ({ event: evt, format } = parseDelivery(body, headers["content-type"]));
    } catch (err) {
      if (err instanceof DeliveryError) throw new Errors.MoleculerClientError(err.message, err.status, err.code);
      throw err;
    }
    this.noteFormat(r, format);
    const ref = { tenantId: r.tenantId, connectionId: r.connectionId };
    const bookKey = this.sessionOf(r)?.key ?? routeToken;
    if (evt.type === "Message") return this.handleMessage(ref, bookKey, evt, caller);
    if (evt.type === "ReadReceipt") {
      const acks = acksOf(evt);
      for (const a of acks) await ack(caller, { ...ref, ...a });
      return acks.length ? "acked" : "ignored";
    }
    return this.handleLifecycle(r, evt, caller);
  }

  private async handleLifecycle(r: ResolvedToken, evt: WuzapiEvent, caller: Caller): Promise<DeliveryResult> {
    const session = this.sessionOf(r);
    if (session) return session.onEvent(evt.type, evt) ? "status" : "ignored";
    // A connection not run here (a restart, another node, just disconnected): only an event
    // that ends the session is told; passing states are for the node that runs it.
    const out: Outcome | null = outcomeOfEvent(evt.type, evt);
    if (!out || out.status !== "disconnected") return "ignored";
    await reportStatus(caller, { tenantId: r.tenantId, connectionId: r.connectionId, status: out.status, ...(out.detail ? { detail: out.detail } : {}), ...(out.qrcode ? { qrcode: out.qrcode } : {}) });
    return "status";
  }

  private async handleMessage(ref: ConnectionRef, bookKey: string, evt: WuzapiEvent, caller: Caller): Promise<DeliveryResult> {
    const action = normaliseMessage(evt);
    if (action.kind === "skip") {
      this.opts.logger.info(`connection ${ref.connectionId}: ${action.reason}: skipped`);
      return "ignored";
    }
    if (action.kind === "change") {
      const res = await changeMessage(caller, { ...ref, providerMessageId: action.targetId, change: action.change, timestamp: action.timestamp });
      return res?.applied === false ? "ignored" : "changed";
    }
    const { draft, sender } = action;
    // Replays go to the core, whose unique key stores each message once; only a large file
    // seen lately is answered here, so that its replay is not uploaded into the core again.
    const recent = this.recentFor(ref.connectionId);
    const large = (draft.media?.data?.length ?? 0) > INLINE_MEDIA_MAX_CHARS;
    if (large && recent.has(draft.providerMessageId)) return "duplicate";
    const flightKey = `${ref.connectionId}:${draft.providerMessageId}`;
    const running = this.inFlight.get(flightKey);
    // The same message delivered twice at once: the second waits for the first and stores nothing.
    if (running) return running.then((r) => (r === "stored" ? "duplicate" : r));
    const p = (async (): Promise<DeliveryResult> => {
      try {
        const res = await inbound(caller, { ...ref, ...draft });
        if (large) recent.add(draft.providerMessageId);
        // Who wrote it matters to a reply or reaction only when it is not the chat itself.
        if (draft.fromMe || draft.isGroup) await this.opts.store.remember(bookKey, draft.providerMessageId, draft.fromMe ? "me" : sender || draft.from.externalId);
        return res.duplicate ? "duplicate" : "stored";
      } catch (err) {
        if (!refusedByCore(err)) throw err;
        this.opts.logger.warn(`connection ${ref.connectionId}: the core refused message ${draft.providerMessageId}: ${(err as Error).message}`);
        return "refused";
      }
    })();
    this.inFlight.set(flightKey, p);
    try {
      return await p;
    } finally {
      this.inFlight.delete(flightKey);
    }
  }

  // --- inside -----------------------------------------------------------------------------------

  /**
   * Both formats are read whatever the setting says (a delivery refused for its format would
   * be a message lost: wuzapi does not retry by default); a server that sends the other one is
   * told once in the log, so the setting can be put right.
   */
  private noteFormat(r: ResolvedToken, format: "json" | "form"): void {
    const expected = this.sessionOf(r)?.settings.webhookFormat ?? (r.settings.webhookFormat === "form" ? "form" : "json");
    if (format === expected || this.formatWarned.has(r.connectionId)) return;
    this.formatWarned.add(r.connectionId);
    this.opts.logger.warn(`connection ${r.connectionId}: wuzapi delivers webhooks as ${format} while the connection says ${expected} (WEBHOOK_FORMAT); they are read all the same`);
  }

  private newSession(ref: ConnectionRef, settings: WuzapiSettings, hook: { token?: string; publicUrl?: string }): Session {
    return new Session(ref, settings, new WuzapiClient(settings.apiUrl, settings.sessionToken, { policy: this.policy() }), hook, {
      report: (r, out) => reportStatus(this.opts.core, { ...r, status: out.status, ...(out.detail ? { detail: out.detail } : {}), ...(out.qrcode ? { qrcode: out.qrcode } : {}) }),
      log: this.opts.logger,
      timing: this.opts.timing,
    });
  }

  /** The platform's outbound URL policy: the tenant's wuzapi URL reaches only what it allows. */
  private policy(): OutboundPolicy {
    return { allow: this.opts.context?.outboundAllow ?? [] };
  }

  private sessionOf(ref: ConnectionRef): Session | undefined {
    const s = this.sessions.get(ref.connectionId);
    return s && s.ref.tenantId === ref.tenantId ? s : undefined;
  }

  private recentFor(connectionId: number): RecentIds {
    let r = this.recent.get(connectionId);
    if (!r) this.recent.set(connectionId, (r = new RecentIds()));
    return r;
  }

  /** The live session of a resolved connection, or a client made from its stored settings. */
  private clientFor(r: ResolvedToken): { session?: Session; client: WuzapiClient } {
    const session = this.sessionOf(r);
    if (session) return { session, client: session.client };
    const read = readSettings(r.settings);
    if (!read.ok) throw new Errors.MoleculerClientError(read.detail, 400, "ERR_VALIDATION", { field: "settings" });
    return { client: new WuzapiClient(read.settings.apiUrl, read.settings.sessionToken, { policy: this.policy() }) };
  }

  /** wuzapi's answer to the admin's pairing or reset, as the API's error. */
  private adminFailure(err: unknown, connectionId: number): Error {
    if (!(err instanceof WuzapiError)) return err as Error;
    if (err.kind === "unreachable") return new Errors.MoleculerRetryableError(err.message, 503, "ERR_SERVICE_UNAVAILABLE", { connectionId });
    if (err.kind === "unauthorized" || err.kind === "no-session") return notConnected(connectionId, err.kind === "unauthorized" ? "wuzapi does not accept the session token" : "wuzapi has no session running");
    if (/already (paired|logged)/i.test(err.message)) return new Errors.MoleculerClientError("This WhatsApp session is already linked", 409, "ERR_CONFLICT", { connectionId });
    return new Errors.MoleculerClientError(err.message, 400, "ERR_VALIDATION", { field: "phone", reason: err.message });
  }

  /** The failure the core records on a message: wuzapi's own words, never a token. */
  private sendFailure(session: Session, err: unknown): Error {
    if (err instanceof OutboundError) return err.status >= 500 ? new Errors.MoleculerError(err.message, err.status, err.type) : new Errors.MoleculerClientError(err.message, err.status, err.type);
    if (!(err instanceof WuzapiError)) return err as Error;
    const said = redact(err.message, session.settings);
    if (err.kind === "unreachable" || err.kind === "no-session" || err.kind === "unauthorized") {
      // Not sent: the core keeps the message until the session is back.
      session.kick();
      return notConnected(session.ref.connectionId, said);
    }
    if (err.status === 400 && /phone|jid/i.test(err.message)) return new Errors.MoleculerClientError(said, 400, "ERR_CONTACT_NUMBER_INVALID", { field: "to.externalId" });
    return new Errors.MoleculerError(said, 502, "ERR_MESSAGE_NOT_SENT");
  }
}
