/**
 * The WABA channel's work behind the contract's actions: each connected connection is its
 * settings and a Graph client (profile.ts picks the host and credentials); sends go out once
 * per core message id (store.ts), refused sends throw the catalogue's code (failures.ts), and
 * a refused access token (190) turns the connection to "needs new credentials" while the
 * message waits in the core's outbox for it. Webhook deliveries are deliveries.ts.
 *
 * How channel-360 reuses it: construct WabaChannel with its own `profileFor` (another host,
 * its API-key header) and its own settings reader; payloads, retries and webhooks stay.
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
import { CREDENTIALS_DETAIL, needsCredentials, notConnected, sendError } from "./failures";
import { GraphClient, GraphError } from "./graph";
import type { InteractiveSpec } from "./interactive";
import { markRead, sendInteractive, sendOutbound, type OutboundTarget } from "./outbound";
import { cloudApiProfile, type ProviderProfile } from "./profile";
import { readSettings, redact, type WabaSettings } from "./settings";
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
  /** The provider behind the connection (default: Meta's Cloud API). */
  profileFor?(settings: WabaSettings): ProviderProfile;
}

export interface Live {
  ref: ConnectionRef;
  settings: WabaSettings;
  /** The connection's public token (its webhook path), when the core gave it. */
  token?: string;
  graph: GraphClient;
  status: ConnectionStatus;
  detail?: string;
}

/** A WhatsApp wa_id: the digits of the number (a "+" or spaces typed by someone are dropped). */
export function waIdOf(externalId: string): string | null {
  const digits = externalId.replace(/@.*$/, "").replace(/[\s+().-]/g, "");
  return /^[0-9]{6,20}$/.test(digits) ? digits : null;
}

export class WabaChannel {
  private readonly live = new Map<number, Live>();
  /** The connections' message templates at Meta (templates.ts). */
  readonly templates = new Templates(this);

  constructor(readonly opts: ChannelOptions) {}

  graphFor(settings: WabaSettings): GraphClient {
    const profile = this.opts.profileFor ? this.opts.profileFor(settings) : cloudApiProfile(settings);
    return new GraphClient(profile, { policy: this.policy(), retryMs: this.opts.retryMs() });
  }

  liveOf(ref: ConnectionRef): Live | undefined {
    const l = this.live.get(ref.connectionId);
    return l && l.ref.tenantId === ref.tenantId ? l : undefined;
  }

  async connect(p: ConnectParams, caller: Caller): Promise<StatusResult> {
    const ref = { tenantId: p.tenantId, connectionId: p.connectionId };
    const before = this.liveOf(ref);
    this.live.delete(p.connectionId);
    const read = readSettings(p.settings);
    let res: StatusResult;
    if (!read.ok) res = { status: "disconnected", detail: read.detail };
    else {
      const l: Live = { ref, settings: read.settings, token: p.token, graph: this.graphFor(read.settings), status: "connecting" };
      if (before && before.settings.phoneNumberId !== l.settings.phoneNumberId && before.token) await this.opts.store.releaseNumber(before.settings.phoneNumberId, before.token);
      if (p.token) await this.opts.store.claimNumber(l.settings.phoneNumberId, p.token);
      res = await this.probe(l);
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
    const read = readSettings(settings);
    if (!read.ok) return { ok: false, detail: read.detail };
    const graph = this.graphFor(read.settings);
    try {
      const who = await graph.call<{ display_phone_number?: string; verified_name?: string }>("GET", graph.profile.probePath);
      return { ok: true, detail: `Meta accepted the credentials: ${[who.verified_name, who.display_phone_number].filter(Boolean).join(" ") || read.settings.phoneNumberId}` };
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      if (needsCredentials(err)) return { ok: false, detail: CREDENTIALS_DETAIL };
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
      target: { graph: l.graph, to, readMedia: (m: MediaRef) => readMedia(this.opts.core, ref, m, files), templateDefinition: (name: string, language: string) => this.templates.definition(l, name, language) },
    };
  }

  /** Checks the credentials at connect: refused → needs new credentials; unreachable → timeout (sends still try). */
  private async probe(l: Live): Promise<StatusResult> {
    try {
      await l.graph.call("GET", l.graph.profile.probePath);
      return { status: "connected" };
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      if (needsCredentials(err)) return { status: "disconnected", detail: CREDENTIALS_DETAIL };
      if (err.unreachable || err.httpStatus >= 500) return { status: "timeout", detail: redact(err.message, l.settings).slice(0, 255) };
      // Anything else (a missing permission, an id of another app) shows on the connection; sends will say more.
      return { status: "connected", detail: redact(err.message, l.settings).slice(0, 255) };
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
    if (l.status === "disconnected" && l.detail === CREDENTIALS_DETAIL) return;
    l.status = "disconnected";
    l.detail = CREDENTIALS_DETAIL;
    this.opts.logger.warn(`connection ${l.ref.connectionId}: Meta refused the access token (${err.code} ${err.title}): new credentials are needed`);
    await reportStatus(this.opts.core, { ...l.ref, status: "disconnected", detail: CREDENTIALS_DETAIL }).catch(() => undefined);
  }

  private async failure(l: Live, err: unknown, what: string): Promise<Error> {
    if (needsCredentials(err)) {
      await this.credentialsRefused(l, err as GraphError);
      // Not sent: the core keeps the message until the connection is connected again.
      return notConnected(l.ref.connectionId, CREDENTIALS_DETAIL);
    }
    const out = sendError(err);
    this.opts.logger.warn(`connection ${l.ref.connectionId}: ${what} not sent: ${redact((err as Error).message, l.settings)}`);
    return out;
  }
}
