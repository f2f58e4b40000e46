/**
 * The WhatsApp Cloud channel's work behind the contract's actions: each connected connection is
 * its settings and a Graph client (the provider's profile picks the host and credentials); sends go out once
 * per core message id (store.ts), refused sends throw the catalogue's code (failures.ts), and
 * a refused access token (190) turns the connection to "needs new credentials" while the
 * message waits in the core's outbox for it. Webhook deliveries are deliveries.ts.
 *
 * Everything a provider does differently comes from its CloudProvider (provider.ts): channel-waba
 * and channel-360 construct this same class with theirs.
 */
import {
  readMedia,
  reportStatus,
  type Caller,
  type ConnectParams,
  type ConnectionRef,
  type ConnectionStatus,
  type MediaRef,
  type OutboundMessage,
  type OutboundPolicy,
  type PluginContext,
  type SendResult,
  type StatusResult,
  type TestResult,
} from "@openatende/plugin-sdk";
import { Errors } from "moleculer";
import { credentialsDetail, needsCredentials, notConnected, sendError } from "./failures";
import { GraphClient, GraphError } from "./graph";
import type { InteractiveSpec } from "./interactive";
import { markRead, sendInteractive, sendOutbound, type OutboundTarget } from "./outbound";
import { redact, webhookUrl, type CloudProvider, type CloudSettings } from "./provider";
import type { PluginStore } from "./store";
import { Templates } from "./templates";

export interface ChannelOptions {
  /** Calls to the core made outside any request (status reports), as this service. */
  core: Caller;
  logger: { info(...a: unknown[]): void; warn(...a: unknown[]): void };
  context: PluginContext | null;
  store: PluginStore;
  /** Waits before each retry of a throttled call (service settings, so tests shorten them). */
  retryMs(): number[];
  /** The provider behind the connections (provider.ts). */
  provider: CloudProvider<any>;
}

export interface Live {
  ref: ConnectionRef;
  settings: CloudSettings;
  /** The connection's public token (its webhook path), when the core gave it. */
  token?: string;
  graph: GraphClient;
  status: ConnectionStatus;
  detail?: string;
  /** The number's name as Meta verified it (the connect probe's `verified_name`), for the list's chat:create event. */
  verifiedName?: string;
}

/** A WhatsApp wa_id: the digits of the number (a "+" or spaces typed by someone are dropped). */
export function waIdOf(externalId: string): string | null {
  const digits = externalId.replace(/@.*$/, "").replace(/[\s+().-]/g, "");
  return /^[0-9]{6,20}$/.test(digits) ? digits : null;
}

export class CloudChannel {
  private readonly live = new Map<number, Live>();
  /** The connections' message templates at Meta (templates.ts). */
  readonly templates = new Templates(this);

  constructor(readonly opts: ChannelOptions) {}

  get provider(): CloudProvider<CloudSettings> {
    return this.opts.provider;
  }

  /** What `status` and the outbox read while the connection needs new credentials. */
  get credentialsDetail(): string {
    return credentialsDetail(this.provider.codes);
  }

  graphFor(settings: CloudSettings): GraphClient {
    return new GraphClient(this.provider.profile(settings), { policy: this.policy(), retryMs: this.opts.retryMs() });
  }

  liveOf(ref: ConnectionRef): Live | undefined {
    const l = this.live.get(ref.connectionId);
    return l && l.ref.tenantId === ref.tenantId ? l : undefined;
  }

  async connect(p: ConnectParams, caller: Caller): Promise<StatusResult> {
    const ref = { tenantId: p.tenantId, connectionId: p.connectionId };
    const before = this.liveOf(ref);
    this.live.delete(p.connectionId);
    const read = this.provider.readSettings(p.settings);
    let res: StatusResult;
    if (!read.ok) res = { status: "disconnected", detail: read.detail };
    else {
      const l: Live = { ref, settings: read.settings, token: p.token, graph: this.graphFor(read.settings), status: "connecting" };
      if (before && before.settings.phoneNumberId !== l.settings.phoneNumberId && before.token) await this.opts.store.releaseNumber(before.settings.phoneNumberId, before.token);
      if (p.token) await this.opts.store.claimNumber(l.settings.phoneNumberId, p.token);
      res = await this.probe(l);
      if (res.status === "connected") res = await this.afterConnect(l, res);
      l.status = res.status;
      l.detail = res.detail;
      this.live.set(p.connectionId, l);
    }
    await reportStatus(caller, { ...ref, ...res });
    return res;
  }

  async disconnect(ref: ConnectionRef, caller: Caller): Promise<StatusResult> {
    const l = this.liveOf(ref);
    if (l) {
      this.live.delete(ref.connectionId);
      if (l.token) await this.opts.store.releaseNumber(l.settings.phoneNumberId, l.token);
    }
    await reportStatus(caller, { ...ref, status: "disconnected" });
    return { status: "disconnected" };
  }

  status(ref: ConnectionRef): StatusResult {
    const l = this.liveOf(ref);
    return l ? { status: l.status, ...(l.detail ? { detail: l.detail } : {}) } : { status: "disconnected" };
  }

  async send(ref: ConnectionRef, externalId: string, message: OutboundMessage, messageId?: number): Promise<SendResult> {
    const { l, target } = this.targetOf(ref, externalId);
    try {
      const res = await this.opts.store.once({ connection: this.keyOf(l), messageId, what: [target.to, message] }, () => sendOutbound(target, message));
      await this.reachable(l);
      return res;
    } catch (err) {
      throw await this.failure(l, err, `message ${messageId ?? "?"} to ${target.to}`);
    }
  }

  /** Reply buttons or a list; `key` makes a repeat of the same send answer the first one. */
  async sendInteractive(ref: ConnectionRef, externalId: string, spec: InteractiveSpec, key?: string, replyTo?: string): Promise<SendResult> {
    const { l, target } = this.targetOf(ref, externalId);
    try {
      // A caller's key ("i:" so it never meets a core message id) makes a repeat answer the first send.
      const scope = { connection: this.keyOf(l), messageId: key === undefined ? undefined : `i:${key}`, what: [target.to, "interactive", spec, replyTo] };
      const res = await this.opts.store.once(scope, () => sendInteractive(target, spec, replyTo));
      await this.reachable(l);
      return res;
    } catch (err) {
      throw await this.failure(l, err, `interactive message to ${target.to}`);
    }
  }

  /** Blue ticks for the customer: best effort, one call per message (Meta marks the earlier ones read too). */
  async markRead(ref: ConnectionRef, providerMessageIds: string[]): Promise<number> {
    const l = this.liveOf(ref);
    if (!l || l.status === "disconnected") return 0;
    let sent = 0;
    for (const id of providerMessageIds) {
      try {
        await markRead({ graph: l.graph }, id);
        sent++;
      } catch (err) {
        if (needsCredentials(err)) await this.credentialsRefused(l, err as GraphError);
        this.opts.logger.info(`connection ${ref.connectionId}: read receipt of ${id} not sent: ${redact((err as Error).message, l.settings)}`);
      }
    }
    return sent;
  }

  async test(settings: Record<string, unknown>): Promise<TestResult> {
    const read = this.provider.readSettings(settings);
    if (!read.ok) return { ok: false, detail: read.detail };
    const graph = this.graphFor(read.settings);
    try {
      const who = await graph.call<{ display_phone_number?: string; verified_name?: string }>("GET", graph.profile.probePath);
      return { ok: true, detail: this.provider.accepted(read.settings, who) };
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      if (needsCredentials(err)) return { ok: false, detail: this.credentialsDetail };
      return { ok: false, detail: redact(err.message, read.settings) };
    }
  }

  async stop(): Promise<void> {
    this.live.clear();
    await this.opts.store.close();
  }

  // --- inside -----------------------------------------------------------------------------------

  private policy(): OutboundPolicy {
    return { allow: this.opts.context?.outboundAllow ?? [] };
  }

  /** The sent log's connection key: the phone number's id and the connection (a new database's ids are another number's keys). */
  private keyOf(l: Live): string {
    return `${l.settings.phoneNumberId}:${l.ref.tenantId}:${l.ref.connectionId}`;
  }

  private targetOf(ref: ConnectionRef, externalId: string): { l: Live; target: OutboundTarget } {
    const l = this.liveOf(ref);
    if (!l) throw notConnected(ref.connectionId, "it was not started");
    if (l.status === "disconnected") throw notConnected(ref.connectionId, l.detail ?? "it is disconnected");
    const to = waIdOf(externalId);
    if (!to) throw new Errors.MoleculerClientError(`"${externalId}" is not a WhatsApp number`, 400, "ERR_CONTACT_NUMBER_INVALID", { field: "to.externalId" });
    const files = this.opts.context ?? { dataDir: "", localFiles: false };
    return {
      l,
      target: { graph: l.graph, to, codes: this.provider.codes, readMedia: (m: MediaRef) => readMedia(this.opts.core, ref, m, files), templateDefinition: (name: string, language: string) => this.templates.definition(l, name, language) },
    };
  }

  /** Checks the credentials at connect: refused → needs new credentials; unreachable → timeout (sends still try). */
  private async probe(l: Live): Promise<StatusResult> {
    try {
      const who = await l.graph.call<{ verified_name?: string } | undefined>("GET", l.graph.profile.probePath);
      if (typeof who?.verified_name === "string" && who.verified_name.trim()) l.verifiedName = who.verified_name.trim().slice(0, 200);
      return { status: "connected" };
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      if (needsCredentials(err)) return { status: "disconnected", detail: this.credentialsDetail };
      if (err.unreachable || err.httpStatus >= 500) return { status: "timeout", detail: redact(err.message, l.settings).slice(0, 255) };
      // Anything else (a missing permission, an id of another app) shows on the connection; sends will say more.
      return { status: "connected", detail: redact(err.message, l.settings).slice(0, 255) };
    }
  }

  /**
   * The provider's step after the credentials were proven (360dialog: the webhook's
   * registration). A refusal leaves the connection connected (sends work) with the reason shown.
   */
  private async afterConnect(l: Live, res: StatusResult): Promise<StatusResult> {
    const publicUrl = this.opts.context?.publicUrl;
    if (!this.provider.afterConnect || !l.token || !publicUrl) return res;
    const url = webhookUrl(publicUrl, this.provider.webhookSegment, this.provider.urlToken ? this.provider.urlToken.encode(l.token) : l.token);
    try {
      await this.provider.afterConnect((method, path, body) => l.graph.call(method as "GET" | "POST" | "DELETE", path, body), l.settings, { url, token: l.token });
      return res;
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      if (needsCredentials(err)) return { status: "disconnected", detail: this.credentialsDetail };
      this.opts.logger.warn(`connection ${l.ref.connectionId}: webhook not registered at ${this.provider.label}: ${redact(err.message, l.settings)}`);
      return { status: "connected", detail: `webhook not registered: ${redact(err.message, l.settings)}`.slice(0, 255) };
    }
  }

  /** A call went through: a connection shown as timed out is connected again. */
  private async reachable(l: Live): Promise<void> {
    if (l.status !== "timeout") return;
    l.status = "connected";
    l.detail = undefined;
    await reportStatus(this.opts.core, { ...l.ref, status: "connected" }).catch(() => undefined);
  }

  private async credentialsRefused(l: Live, err: GraphError): Promise<void> {
    if (l.status === "disconnected" && l.detail === this.credentialsDetail) return;
    l.status = "disconnected";
    l.detail = this.credentialsDetail;
    this.opts.logger.warn(`connection ${l.ref.connectionId}: ${this.provider.label} refused the credentials (${err.code} ${err.title}): new credentials are needed`);
    await reportStatus(this.opts.core, { ...l.ref, status: "disconnected", detail: this.credentialsDetail }).catch(() => undefined);
  }

  private async failure(l: Live, err: unknown, what: string): Promise<Error> {
    if (needsCredentials(err)) {
      await this.credentialsRefused(l, err as GraphError);
      // Not sent: the core keeps the message until the connection is connected again.
      return notConnected(l.ref.connectionId, this.credentialsDetail);
    }
    const out = sendError(err, this.provider.codes);
    this.opts.logger.warn(`connection ${l.ref.connectionId}: ${what} not sent: ${redact((err as Error).message, l.settings)}`);
    return out;
  }
}
