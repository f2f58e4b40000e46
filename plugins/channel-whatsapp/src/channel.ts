/**
 * The WhatsApp channel's work behind the service's actions: the contract's five actions and
 * the connection form's (pairing code, reset, health). Sessions run on the node that holds
 * their lock (session/manager.ts); a call that reaches another node of the plugin is
 * forwarded to that node, so a send, a status or a reset always meets the one live socket.
 *
 * Sends: through the message side's buildSend, paced per session, once per core message id
 * (stores/sent-log.ts); the echo WhatsApp gives of our own send is recognised by its id (set
 * before sending) and never comes back as a phone-sent message. A send while the session is
 * not open throws ERR_SESSION_NOT_INITIALIZED (409).
 */
import { Errors } from "moleculer";
import type { Context } from "moleculer";
import {
  call,
  readMedia,
  reportStatus,
  resolveToken,
  type Caller,
  type CheckNumberResult,
  type ConnectParams,
  type ConnectionRef,
  type MarkReadResult,
  type MediaRef,
  type OutboundMessage,
  type PluginContext,
  type ResolvedToken,
  type SendResult,
  type StatusResult,
  type TestResult,
} from "@openatende/plugin-sdk";
import { readReceipt } from "./messages";
import { checkNumber } from "./contacts";
import { baileys } from "./session/baileys";
import { alreadyLinked, connectionNotFound, notConnected } from "./session/errors";
import type { SessionHealth } from "./session/health";
import type { ConnectOutcome, Entry, SessionManager } from "./session/manager";
import { PacerClosedError } from "./session/send-pacer";
import { parseSettings } from "./session/settings";
import { probeProxy } from "./session/probe";

/** A call that comes from an admin through the API (the tenant is the caller's). */
export type AdminCtx<P> = Context<P, { user?: { tenantId?: number }; waForwarded?: boolean }>;
type AnyCtx = Context<unknown, { waForwarded?: boolean }>;

export interface ChannelOptions {
  manager: SessionManager;
  /** Calls to the core outside any request. */
  core: Caller;
  /** "v1.channel-whatsapp": forwarded calls go to this service on the owner's node. */
  serviceName: string;
  pluginId: string;
  nodeId: string;
  context: PluginContext | null;
  log: { info(...a: unknown[]): void; warn(...a: unknown[]): void };
  now(): number;
}

/** Baileys' Boom for a socket that closed under a call. */
const closedUnder = (err: unknown) => {
  const e = err as { output?: { statusCode?: number }; isBoom?: boolean };
  return !!e?.isBoom && [408, 428, 440, 500, 503, 515].includes(Number(e.output?.statusCode));
};

export class WhatsAppChannel {
  constructor(private readonly o: ChannelOptions) {}

  // --- the contract's actions -------------------------------------------------------------------

  async connect(p: ConnectParams, ctx: AnyCtx): Promise<StatusResult> {
    const ref = { tenantId: p.tenantId, connectionId: p.connectionId };
    const out = await this.o.manager.connect(p);
    const res = await this.answerOf(ref, out, ctx);
    // Said again for a session that already ran (the core's row may say otherwise after a restart of the core).
    if (out.kind !== "remote") await reportStatus(this.o.core, { ...ref, ...res }).catch((err: Error) => this.o.log.warn(`connection ${ref.connectionId}: status not reported: ${err.message}`));
    return res;
  }

  async disconnect(ref: ConnectionRef, ctx: AnyCtx): Promise<StatusResult> {
    const r = await this.o.manager.disconnect(ref);
    if (!r.local && r.holder && this.canForward(r.holder.nodeId, ctx)) {
      await this.forward(ctx, r.holder.nodeId, "disconnect", ref).catch((err: Error) => this.o.log.warn(`connection ${ref.connectionId}: disconnect not forwarded: ${err.message}`));
    }
    await reportStatus(this.o.core, { ...ref, status: "disconnected", detail: "[stopped] stopped" }).catch(() => undefined);
    return { status: "disconnected", detail: "[stopped] stopped" };
  }

  async status(ref: ConnectionRef, ctx: AnyCtx): Promise<StatusResult> {
    // Being set up here: its first status is a moment away.
    await this.o.manager.pending(ref)?.catch(() => undefined);
    const e = this.o.manager.local(ref);
    if (e) return e.session.current();
    const holder = await this.o.manager.holder(ref);
    if (holder && this.canForward(holder.nodeId, ctx)) {
      try {
        return (await this.forward(ctx, holder.nodeId, "status", ref)) as StatusResult;
      } catch {
        /* the owner is away: its lock expires and a sweep takes the session */
      }
    }
    if (holder) return { status: "connecting", detail: `[connecting] on ${holder.nodeId}` };
    return { status: "disconnected" };
  }

  async send(ref: ConnectionRef, to: string, message: OutboundMessage, messageId: number | undefined, ctx: AnyCtx): Promise<SendResult> {
    const e = this.o.manager.local(ref);
    if (!e) {
      const holder = await this.o.manager.holder(ref);
      if (holder && this.canForward(holder.nodeId, ctx)) {
        return (await this.forward(ctx, holder.nodeId, "send", { ...ref, to: { externalId: to }, message, ...(messageId !== undefined ? { messageId } : {}) })) as SendResult;
      }
      throw notConnected(ref);
    }
    return this.sendLocal(e, to, message, messageId);
  }

  /**
   * Read receipts (the customer's blue ticks) on the live socket, forwarded to its owner. Best
   * effort: a session that is down, an owner away or a socket closing under the call sends
   * nothing and is no error; nothing is queued for later.
   */
  async markRead(ref: ConnectionRef, to: string, providerIds: string[], ctx: AnyCtx): Promise<MarkReadResult> {
    const e = this.o.manager.local(ref);
    if (!e) {
      const holder = await this.o.manager.holder(ref);
      if (!holder || !this.canForward(holder.nodeId, ctx)) return { sent: 0 };
      return (await this.forward(ctx, holder.nodeId, "markRead", { ...ref, to: { externalId: to }, providerMessageIds: providerIds }).catch((err: Error) => {
        this.o.log.warn(`connection ${ref.connectionId}: read receipts not forwarded: ${err.message}`);
        return { sent: 0 };
      })) as MarkReadResult;
    }
    if (!e.session.isOpen) return { sent: 0 };
    try {
      // The stored keys name the chat and, in a group, each message's sender.
      const { read } = await readReceipt(e.port, e.keys, providerIds);
      return { sent: read.length };
    } catch (err) {
      if (closedUnder(err)) return { sent: 0 };
      throw err;
    }
  }

  /** Whether a number has a WhatsApp account, asked on the live socket (forwarded to its owner). */
  async checkNumber(ref: ConnectionRef, number: string, ctx: AnyCtx): Promise<CheckNumberResult> {
    const e = this.o.manager.local(ref);
    if (!e) {
      const holder = await this.o.manager.holder(ref);
      if (holder && this.canForward(holder.nodeId, ctx)) return (await this.forward(ctx, holder.nodeId, "checkNumber", { ...ref, number })) as CheckNumberResult;
      throw notConnected(ref);
    }
    if (!e.session.isOpen) throw notConnected(ref);
    try {
      const found = await checkNumber(e.port, number);
      return { exists: true, externalId: found.externalId };
    } catch (err) {
      const x = err as { type?: string; data?: { reason?: string } };
      // No account is an answer; a malformed number stays the error it is.
      if (x.type === "ERR_CONTACT_NUMBER_INVALID" && x.data?.reason === "not-on-whatsapp") return { exists: false };
      if (closedUnder(err)) throw notConnected(ref);
      throw err;
    }
  }

  async test(settings: Record<string, unknown>): Promise<TestResult> {
    const parsed = parseSettings(settings);
    if (!parsed.ok) return { ok: false, detail: parsed.detail };
    if (!parsed.settings.proxyUrl) return { ok: true, detail: "settings valid; link the phone with the QR code or a pairing code" };
    // The platform's outbound policy: a tenant's proxy reaches only what its allow-list permits.
    return probeProxy(parsed.settings.proxyUrl, { allow: this.o.context?.outboundAllow ?? [] });
  }

  // --- the connection form's actions ------------------------------------------------------------

  /** A pairing code for the connection named by its token (the caller's tenant only). */
  async pairingCode(ctx: AdminCtx<{ token: string; phone: string }>): Promise<{ code: string; status: StatusResult }> {
    const r = await this.ownConnection(ctx, ctx.params.token);
    const ref = { tenantId: r.tenantId, connectionId: r.connectionId };
    const phone = ctx.params.phone.replace(/[\s()+.-]/g, "");
    let e = this.o.manager.local(ref);
    if (!e) {
      const holder = await this.o.manager.holder(ref);
      if (holder && this.canForward(holder.nodeId, ctx)) return (await this.forward(ctx, holder.nodeId, "pairingCode", ctx.params)) as { code: string; status: StatusResult };
      const out = await this.o.manager.connect({ ...ref, settings: { ...r.settings, pairingPhone: phone }, token: ctx.params.token });
      if (out.kind === "invalid") throw new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", [{ type: "settings", field: "settings", message: out.detail }]);
      if (out.kind !== "local") throw notConnected(ref, "the session is starting on another node; ask again in a moment");
      e = out.entry;
    }
    if (e.session.isOpen) throw alreadyLinked(ref);
    const code = await e.session.requestPairingCode(phone);
    return { code, status: e.session.current() };
  }

  /** Frees the connection for a new link: logout when linked, creds and keys wiped, a new QR. */
  async reset(ctx: AdminCtx<{ token: string }>): Promise<StatusResult> {
    const r = await this.ownConnection(ctx, ctx.params.token);
    const ref = { tenantId: r.tenantId, connectionId: r.connectionId };
    const e = this.o.manager.local(ref);
    if (e) {
      await e.session.reset();
      return e.session.current();
    }
    const holder = await this.o.manager.holder(ref);
    if (holder && this.canForward(holder.nodeId, ctx)) return (await this.forward(ctx, holder.nodeId, "reset", ctx.params)) as StatusResult;
    await this.o.manager.wipeStored(ref);
    return this.connect({ ...ref, settings: r.settings, token: ctx.params.token }, ctx);
  }

  async health(ctx: AdminCtx<{ token: string }>): Promise<SessionHealth | { tenantId: number; connectionId: number; status: string; node: null }> {
    const r = await this.ownConnection(ctx, ctx.params.token);
    const ref = { tenantId: r.tenantId, connectionId: r.connectionId };
    if (this.o.manager.local(ref)) return this.o.manager.health(ref)!;
    const holder = await this.o.manager.holder(ref);
    if (holder && this.canForward(holder.nodeId, ctx)) return (await this.forward(ctx, holder.nodeId, "health", ctx.params)) as SessionHealth;
    return this.o.manager.health(ref) ?? { ...ref, status: r.status, node: null };
  }

  // --- sending ------------------------------------------------------------------------------------

  private async sendLocal(e: Entry, to: string, message: OutboundMessage, messageId: number | undefined): Promise<SendResult> {
    const ref = e.ref;
    if (!e.session.isOpen) throw notConnected(ref);
    try {
      return await e.sent.once(messageId, [to, message], async () => {
        const files = this.o.context ?? null;
        const built = await this.o.manager.buildSend(e, to, message, async (m: MediaRef) => {
          const buf = await readMedia(this.o.core, ref, m, files);
          if (!buf) throw new Errors.MoleculerClientError("The file to send is not available", 404, "ERR_MEDIA_DOWNLOAD_FAILED", { path: m.path });
          return buf;
        });
        const first = await this.sendOne(e, built.jid, built.content, built.options);
        for (const more of built.followUps ?? []) await this.sendOne(e, built.jid, more);
        return { providerMessageId: first.id, timestamp: first.timestamp };
      });
    } catch (err) {
      if (err instanceof PacerClosedError || closedUnder(err)) throw notConnected(ref, `the session closed before the message left (${(err as Error).message})`);
      const e2 = err as { type?: string };
      if (e2?.type) throw err;
      this.o.log.warn(`connection ${ref.connectionId}: message ${messageId ?? "?"} not sent: ${(err as Error).message}`);
      throw new Errors.MoleculerError(`WhatsApp: ${(err as Error).message}`, 502, "ERR_MESSAGE_NOT_SENT", { connectionId: ref.connectionId });
    }
  }

  /** One message out through the pacer, its id chosen first so its echo is known as ours. */
  private async sendOne(e: Entry, jid: string, content: Parameters<Entry["port"]["sendMessage"]>[1], options?: Parameters<Entry["port"]["sendMessage"]>[2]): Promise<{ id: string; timestamp: number }> {
    const b = baileys();
    const id = options?.messageId ?? b.generateMessageIDV2(e.port.me()?.id);
    e.router.expectOwn(id);
    const sent = await e.pacer.run(() => e.port.sendMessage(jid, content, { ...(options ?? {}), messageId: id }));
    if (!sent?.key?.id) throw new Error("WhatsApp answered no message");
    await e.keys.remember(sent).catch((err: Error) => this.o.log.warn(`connection ${e.ref.connectionId}: sent message ${id} not remembered: ${err.message}`));
    const t = Number(b.toNumber(sent.messageTimestamp as number));
    return { id: sent.key.id, timestamp: Number.isFinite(t) && t > 0 ? t * 1000 : this.o.now() };
  }

  // --- helpers ------------------------------------------------------------------------------------

  private async answerOf(ref: ConnectionRef, out: ConnectOutcome, ctx: AnyCtx): Promise<StatusResult> {
    if (out.kind === "local") return out.entry.session.current();
    if (out.kind === "invalid") return { status: "disconnected", detail: out.detail };
    if (out.holder && this.canForward(out.holder.nodeId, ctx)) {
      try {
        return (await this.forward(ctx, out.holder.nodeId, "status", ref)) as StatusResult;
      } catch {
        /* the owner is away: it comes back or its lock expires and a sweep takes the session */
      }
    }
    return { status: "connecting", detail: `[connecting] ${out.holder ? `on ${out.holder.nodeId}` : "waiting for the session's lock"}` };
  }

  /** The connection of a token, when it is the caller's tenant's (404 otherwise, as for an unknown token). */
  private async ownConnection(ctx: AdminCtx<unknown>, token: string): Promise<ResolvedToken> {
    const tenantId = ctx.meta.user?.tenantId;
    if (!tenantId) throw new Errors.MoleculerClientError("Sign in as an administrator", 401, "ERR_SESSION_REQUIRED");
    if (!ctx.meta.waForwarded) await call(ctx, "plugins.isEnabled", { tenantId, id: this.o.pluginId, assert: true });
    const r = await resolveToken(ctx, token);
    if (!r || r.tenantId !== tenantId) throw connectionNotFound({ token: "unknown in this tenant" });
    return r;
  }

  /** A node other than this one, and a call not forwarded already (never a loop). */
  private canForward(nodeId: string, ctx: AnyCtx): boolean {
    return nodeId !== this.o.nodeId && !ctx.meta?.waForwarded;
  }

  private forward(ctx: AnyCtx, nodeId: string, action: string, params: unknown): Promise<unknown> {
    return ctx.call(`${this.o.serviceName}.${action}`, params, { nodeID: nodeId, meta: { waForwarded: true } });
  }
}
