/**
 * The hub channel's work behind the service's actions: one entry per connected connection
 * (its settings, client and webhook subscription), sends (once per core message id, sent-log.ts),
 * webhook deliveries (webhook.ts → normalise.ts → the core) and the signed links the hub
 * fetches files from (media-link.ts).
 *
 * Nothing but the connections lives in memory; a restart gets them back with the core's
 * `connect`, the sent log is in Redis and the messages in the core.
 */
import { Errors } from "moleculer";
import {
  PluginError,
  readMedia,
  reportStatus,
  uploadMedia,
  type Caller,
  type ConnectParams,
  type ConnectionRef,
  type MediaRef,
  type OutboundMessage,
  type PluginContext,
  type ResolvedToken,
  type SendResult,
  type StatusResult,
  type TestResult,
} from "@openatende/plugin-sdk";
import { HubClient, HubError } from "./client";
import { mediaLink } from "./media-link";
import { ackDelivered, MessageDeliveries, type DeliveryResult } from "./deliveries";
import { normaliseEvent, PayloadError, type Normalised } from "./normalise";
import { contentsFor, recipientFor } from "./outbound";
import { readSettings, redact, type HubSettings } from "./settings";
import type { SentLog } from "./sent-log";
import { DeliveryError, parseBody, secretMatches } from "./webhook";

export interface ChannelOptions {
  core: Caller;
  logger: { info(...a: unknown[]): void; warn(...a: unknown[]): void };
  context: PluginContext | null;
  sentLog: SentLog;
}


interface Conn {
  ref: ConnectionRef;
  settings: HubSettings;
  client: HubClient;
  /** The connection's public token, when the core gave it (webhook and file links). */
  token?: string;
  publicUrl?: string;
  subscriptionId?: string;
  /** Sends under way: a status that overtakes its send's answer waits for them. */
  sending: Set<Promise<unknown>>;
}

export const notConnected = (connectionId: number) =>
  new Errors.MoleculerClientError("The hub connection is not connected", 409, "ERR_SESSION_NOT_INITIALIZED", { connectionId });

export const webhookPath = (token: string, secret: string) => `/api/hub/${encodeURIComponent(token)}/webhook/${secret}`;

export class HubChannel {
  private readonly conns = new Map<number, Conn>();
  private readonly messages: MessageDeliveries;

  constructor(private readonly opts: ChannelOptions) {
    this.messages = new MessageDeliveries(opts.logger);
  }

  private clientFor(s: HubSettings, timeoutMs?: number): HubClient {
    return new HubClient(s.apiUrl, s.apiToken, { timeoutMs, policy: { allow: this.opts.context?.outboundAllow ?? [] } });
  }

  private connOf(ref: ConnectionRef): Conn | undefined {
    const c = this.conns.get(ref.connectionId);
    return c && c.ref.tenantId === ref.tenantId ? c : undefined;
  }

  // --- the contract's actions -------------------------------------------------------------------

  async connect(p: ConnectParams, caller: Caller): Promise<StatusResult> {
    const ref = { tenantId: p.tenantId, connectionId: p.connectionId };
    const before = this.connOf(ref);
    this.conns.delete(p.connectionId);
    // Connecting again makes a new subscription: the old one would post every event twice.
    if (before?.subscriptionId) await before.client.unsubscribe(before.subscriptionId).catch(() => undefined);
    const read = readSettings(p.settings);
    const res = read.ok ? await this.start(ref, read.settings, p.token, p.publicUrl ?? this.opts.context?.publicUrl) : { status: "disconnected" as const, detail: read.detail };
    await reportStatus(caller, { ...ref, ...res });
    return res;
  }

  private async start(ref: ConnectionRef, settings: HubSettings, token: string | undefined, publicUrl: string | undefined): Promise<StatusResult> {
    const conn: Conn = { ref, settings, client: this.clientFor(settings), token, publicUrl: publicUrl?.replace(/\/+$/, ""), sending: new Set() };
    if (!token || !conn.publicUrl) {
      this.conns.set(ref.connectionId, conn);
      return { status: "connected", detail: "No public address to subscribe the webhook: set it in the hub's panel" };
    }
    try {
      const sub = await this.clientFor(settings, 15_000).subscribe(settings.channelToken, `${conn.publicUrl}${webhookPath(token, settings.webhookSecret)}`);
      conn.subscriptionId = sub.id;
    } catch (err) {
      if (!(err instanceof HubError)) throw err;
      const said = redact(err.message, settings);
      if (err.kind === "unauthorized") return { status: "disconnected", detail: `The hub refused the API token: ${said}` };
      if (err.kind === "rejected") return { status: "disconnected", detail: `The hub refused the webhook subscription: ${said}` };
      // The hub is away: sends may still work later, and the panel can hold the webhook.
      this.conns.set(ref.connectionId, conn);
      return { status: "connected", detail: `The webhook subscription is not confirmed (${said}): the address can be set in the hub's panel` };
    }
    this.conns.set(ref.connectionId, conn);
    return { status: "connected" };
  }

  async disconnect(ref: ConnectionRef, caller: Caller): Promise<StatusResult> {
    const conn = this.connOf(ref);
    if (conn) {
      this.conns.delete(ref.connectionId);
      if (conn.subscriptionId) await conn.client.unsubscribe(conn.subscriptionId).catch((err: Error) => this.opts.logger.info(`connection ${ref.connectionId}: unsubscribe: ${redact(err.message, conn.settings)}`));
    }
    await reportStatus(caller, { ...ref, status: "disconnected" });
    return { status: "disconnected" };
  }

  status(ref: ConnectionRef): StatusResult {
    return this.connOf(ref) ? { status: "connected" } : { status: "disconnected" };
  }

  async test(raw: Record<string, unknown>): Promise<TestResult> {
    const read = readSettings(raw);
    if (!read.ok) return { ok: false, detail: read.detail };
    try {
      const channels = await this.clientFor(read.settings, 10_000).channels();
      if (channels.length && !channels.includes(read.settings.channelToken)) return { ok: false, detail: "The hub accepted the API token, but the account has no channel with this connection token" };
      return { ok: true, detail: "The hub accepted the API token" };
    } catch (err) {
      if (!(err instanceof HubError)) throw err;
      return { ok: false, detail: err.kind === "unauthorized" ? "The hub refused the API token" : redact(err.message, read.settings) };
    }
  }

  async send(ref: ConnectionRef, externalId: string, message: OutboundMessage, messageId?: number): Promise<SendResult> {
    const conn = this.connOf(ref);
    if (!conn) throw notConnected(ref.connectionId);
    const { settings } = conn;
    const to = recipientFor(settings.variant, externalId);
    if (!to) throw new PluginError("ERR_HUB_RECIPIENT_INVALID", 400, { to: externalId.slice(0, 100), variant: settings.variant, field: "to.externalId" });
    const key = conn.token ?? `${settings.channelToken}:${ref.tenantId}:${ref.connectionId}`;
    const p = this.opts.sentLog.once({ id: [key, messageId], what: [to, message] }, async () => {
      const fileUrl = message.kind === "media" ? await this.fileUrlFor(conn, message.media) : null;
      const sent = await conn.client.send(settings.variant, settings.channelToken, to, contentsFor(settings, message, fileUrl));
      return { providerMessageId: sent.id, timestamp: Date.now() };
    });
    conn.sending.add(p);
    try {
      return await p;
    } catch (err) {
      throw await this.sendFailure(conn, err);
    } finally {
      conn.sending.delete(p);
    }
  }

  async stop(): Promise<void> {
    this.conns.clear();
    await this.opts.sentLog.close();
  }

  // --- files the hub fetches ----------------------------------------------------------------------

  private async fileUrlFor(conn: Conn, media: MediaRef): Promise<string> {
    if (media.url && /^https?:\/\//i.test(media.url)) return media.url;
    let path = media.path;
    if (!path && media.data) path = (await uploadMedia(this.opts.core, conn.ref, { data: Buffer.from(media.data, "base64"), mimeType: media.mimeType, fileName: media.fileName })).path;
    if (!path || !conn.token || !conn.publicUrl) throw new PluginError("ERR_HUB_MEDIA_UNAVAILABLE", 400, { field: "message.media" });
    return mediaLink({ publicUrl: conn.publicUrl, token: conn.token, secret: conn.settings.webhookSecret, connectionId: conn.ref.connectionId, path });
  }

  /** The bytes of a stored file named by a checked link, read inside the connection's tenant. */
  readStoredFile(r: ResolvedToken, path: string): Promise<Buffer | null> {
    return readMedia(this.opts.core, r, { path, mimeType: "application/octet-stream" }, this.opts.context ?? { dataDir: "", localFiles: false });
  }

  /** The secret of a resolved connection: the running one's, else what the core stored. */
  secretOf(r: ResolvedToken): string | null {
    const live = this.connOf(r);
    if (live) return live.settings.webhookSecret;
    const read = readSettings(r.settings);
    return read.ok ? read.settings.webhookSecret : null;
  }

  // --- webhooks -----------------------------------------------------------------------------------

  /** One delivery for connection `r` (found by the path's token), with the path's secret. */
  async handleDelivery(r: ResolvedToken, givenSecret: string, body: Buffer, caller: Caller): Promise<DeliveryResult> {
    const live = this.connOf(r);
    const read = live ? ({ ok: true, settings: live.settings } as const) : readSettings(r.settings);
    if (!read.ok) throw new Errors.MoleculerClientError("This connection takes no webhook", 404, "ERR_CONNECTION_NOT_FOUND");
    if (!secretMatches(givenSecret, read.settings.webhookSecret)) {
      throw new Errors.MoleculerClientError("Wrong webhook secret", 401, "ERR_TOKEN_INVALID", { reason: "webhook-secret" });
    }
    let evt: Normalised;
    try {
      evt = normaliseEvent(parseBody(body));
    } catch (err) {
      if (err instanceof PayloadError || err instanceof DeliveryError) throw new PluginError("ERR_HUB_PAYLOAD_INVALID", 400, { reason: err.message });
      throw err;
    }
    const ref = { tenantId: r.tenantId, connectionId: r.connectionId };
    // An event of another hub channel (a subscription pointed at the wrong URL) is not this connection's.
    const own = [read.settings.channelToken, live?.subscriptionId].filter(Boolean);
    if (evt.claims.length && !evt.claims.some((c) => own.includes(c))) {
      this.opts.logger.warn(`connection ${r.connectionId}: an event of another hub channel was delivered here: ignored`);
      return "ignored";
    }
    if (evt.kind === "skip") return "ignored";
    if (evt.kind === "ack") return ackDelivered(caller, ref, evt, live?.sending);
    return this.messages.deliver(caller, ref, evt.draft);
  }

  // --- inside -------------------------------------------------------------------------------------

  /** The failure the core records on the message: a code of the manifest, the hub's words, never a token. */
  private async sendFailure(conn: Conn, err: unknown): Promise<Error> {
    if (!(err instanceof HubError)) return err as Error;
    const reason = redact(err.message, conn.settings);
    this.opts.logger.warn(`connection ${conn.ref.connectionId}: send failed: ${reason}`);
    if (err.kind === "unauthorized") {
      // The account's token no longer works: the connection needs new credentials.
      this.conns.delete(conn.ref.connectionId);
      await reportStatus(this.opts.core, { ...conn.ref, status: "disconnected", detail: "The hub refused the API token: enter a valid one" }).catch(() => undefined);
      return new PluginError("ERR_HUB_TOKEN_REFUSED", 409, { connectionId: conn.ref.connectionId });
    }
    if (err.kind === "unavailable") return new PluginError("ERR_HUB_UNAVAILABLE", 503, { reason });
    return new PluginError("ERR_HUB_SEND_REJECTED", 422, { reason });
  }
}
