/**
 * The Instagram channel's work for the contract's actions: connections checked against Meta
 * and kept live here, sends inside the messaging window (outbound.ts) once per core message id
 * (store.ts), and what Meta's refusals mean for the connection (failures.ts). The webhook's
 * side is deliveries.ts.
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
  type OutboundPolicy,
  type PluginContext,
  type SendResult,
  type StatusResult,
  type TestResult,
} from "@openatende/plugin-sdk";
import { CREDENTIALS_DETAIL, needsCredentials, notConnected, sendError } from "./failures";
import { GraphClient, GraphError } from "./graph";
import { mediaLink } from "./media-link";
import { bodiesFor, IGSID, windowFor } from "./outbound";
import { readSettings, redact, type InstagramSettings } from "./settings";
import type { PluginStore } from "./store";

export interface ChannelOptions {
  core: Caller;
  logger: { info(...a: unknown[]): void; warn(...a: unknown[]): void };
  context?: PluginContext;
  store: PluginStore;
  retryMs: () => number[];
}

export interface Live {
  ref: ConnectionRef;
  settings: InstagramSettings;
  /** The connection's public token (the webhook's and media links' path). */
  token?: string;
  publicUrl?: string;
  graph: GraphClient;
  status: StatusResult["status"];
  detail?: string;
  /** Sends waiting for Meta's answer: an echo that overtakes its answer waits for them. */
  sending: Set<Promise<unknown>>;
}

/** The store's key of a connection: its account and its ids (a new database's ids are another connection's keys). */
export const storeKeyOf = (s: Pick<InstagramSettings, "igAccountId">, ref: ConnectionRef) => `${s.igAccountId}:${ref.tenantId}:${ref.connectionId}`;

export class InstagramChannel {
  private readonly live = new Map<number, Live>();

  constructor(readonly opts: ChannelOptions) {}

  liveOf(ref: ConnectionRef): Live | undefined {
    const l = this.live.get(ref.connectionId);
    return l && l.ref.tenantId === ref.tenantId ? l : undefined;
  }

  /** The platform's outbound URL policy (its allow-list) for every call the plugin makes. */
  policy(): OutboundPolicy {
    return { allow: this.opts.context?.outboundAllow ?? [] };
  }

  graphFor(settings: InstagramSettings): GraphClient {
    return new GraphClient(settings, { policy: this.policy(), retryMs: this.opts.retryMs });
  }

  async connect(p: ConnectParams, caller: Caller): Promise<StatusResult> {
    const ref = { tenantId: p.tenantId, connectionId: p.connectionId };
    const before = this.liveOf(ref);
    this.live.delete(p.connectionId);
    if (before?.token) await this.opts.store.releaseAccount(before.settings.igAccountId, before.token);
    const read = readSettings(p.settings);
    let res: StatusResult;
    if (!read.ok) res = { status: "disconnected", detail: read.detail };
    else {
      const publicUrl = (p.publicUrl ?? this.opts.context?.publicUrl)?.replace(/\/+$/, "");
      const l: Live = { ref, settings: read.settings, token: p.token, publicUrl, graph: this.graphFor(read.settings), status: "connecting", sending: new Set() };
      if (p.token) await this.opts.store.claimAccount(l.settings.igAccountId, p.token);
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
      if (l.token) await this.opts.store.releaseAccount(l.settings.igAccountId, l.token);
    }
    await reportStatus(caller, { ...ref, status: "disconnected" });
    return { status: "disconnected" };
  }

  status(ref: ConnectionRef): StatusResult {
    const l = this.liveOf(ref);
    return l ? { status: l.status, ...(l.detail ? { detail: l.detail } : {}) } : { status: "disconnected" };
  }

  async test(raw: Record<string, unknown>): Promise<TestResult> {
    const read = readSettings(raw);
    if (!read.ok) return { ok: false, detail: read.detail };
    try {
      const who = await this.graphFor(read.settings).probe();
      const other = this.otherAccount(read.settings, who.igAccountId);
      if (other) return { ok: false, detail: other };
      return { ok: true, detail: `Meta accepted the token: ${who.name || who.id}` };
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      if (needsCredentials(err)) return { ok: false, detail: CREDENTIALS_DETAIL };
      return { ok: false, detail: redact(err.message, read.settings) };
    }
  }

  async send(ref: ConnectionRef, externalId: string, message: OutboundMessage, messageId?: number): Promise<SendResult> {
    const l = this.liveOf(ref);
    if (!l) throw notConnected(ref.connectionId, "it was not started");
    if (l.status === "disconnected") throw notConnected(ref.connectionId, l.detail ?? "it is disconnected");
    const igsid = externalId.trim();
    if (!IGSID.test(igsid)) throw new PluginError("ERR_INSTAGRAM_RECIPIENT_INVALID", 400, { to: externalId.slice(0, 100), field: "to.externalId" });
    const key = storeKeyOf(l.settings, ref);
    const window = windowFor(await this.opts.store.lastInbound(key, igsid), Date.now(), l.settings.humanAgentTag);
    if (!window.ok) throw new PluginError(window.code, 422, { to: igsid });
    const run = this.sendParts(l, key, igsid, message, window.tag, messageId);
    l.sending.add(run);
    try {
      return await run;
    } catch (err) {
      throw await this.failure(l, err, window.tag, `message ${messageId ?? "?"} to ${igsid}`);
    } finally {
      l.sending.delete(run);
    }
  }

  async stop(): Promise<void> {
    this.live.clear();
    await this.opts.store.close();
  }

  /** A stored file's bytes, read inside the connection's tenant (for the media links). */
  readStoredFile(ref: ConnectionRef, path: string): Promise<Buffer | null> {
    return readMedia(this.opts.core, ref, { path, mimeType: "application/octet-stream" }, this.opts.context ?? { dataDir: "", localFiles: false });
  }

  /** Meta refused the token: the connection shows it needs new credentials (once). */
  async credentialsRefused(l: Live, err: GraphError): Promise<void> {
    if (l.status === "disconnected" && l.detail === CREDENTIALS_DETAIL) return;
    l.status = "disconnected";
    l.detail = CREDENTIALS_DETAIL;
    this.opts.logger.warn(`connection ${l.ref.connectionId}: Meta refused the access token (${err.code} ${err.title}): new credentials are needed`);
    await reportStatus(this.opts.core, { ...l.ref, status: "disconnected", detail: CREDENTIALS_DETAIL }).catch(() => undefined);
  }

  // --- inside -----------------------------------------------------------------------------------

  /** Each part once (store.ts); the core stores the message under the first part's id. */
  private async sendParts(l: Live, key: string, igsid: string, message: OutboundMessage, tag: boolean, messageId?: number): Promise<SendResult> {
    const fileUrl = message.kind === "media" ? await this.fileUrlFor(l, message.media) : null;
    const bodies = bodiesFor(igsid, message, fileUrl, tag);
    if (!bodies.length) throw new Errors.MoleculerClientError("Nothing to send", 400, "ERR_VALIDATION", { field: "message.body" });
    let first: SendResult | null = null;
    for (let i = 0; i < bodies.length; i++) {
      const body = bodies[i];
      const main: SendResult | null = first;
      const res = await this.opts.store.once({ connection: key, messageId, part: i, what: [igsid, body.message] }, async () => {
        const mid = await l.graph.send(body);
        await this.opts.store.markOurs(key, mid, main?.providerMessageId ?? mid);
        return { providerMessageId: mid, timestamp: Date.now() };
      });
      first ??= res;
    }
    await this.reachable(l);
    return first!;
  }

  private async fileUrlFor(l: Live, media: MediaRef): Promise<string> {
    if (media.url && /^https?:\/\//i.test(media.url)) return media.url;
    let path = media.path;
    if (!path && media.data) path = (await uploadMedia(this.opts.core, l.ref, { data: Buffer.from(media.data, "base64"), mimeType: media.mimeType, fileName: media.fileName })).path;
    if (!path || !l.token || !l.publicUrl) throw new PluginError("ERR_INSTAGRAM_MEDIA_UNAVAILABLE", 400, { field: "message.media" });
    return mediaLink({ publicUrl: l.publicUrl, token: l.token, secret: l.settings.appSecret, connectionId: l.ref.connectionId, path });
  }

  /** The token is another account's: what to say, or null when it is this connection's (or Meta did not say). */
  private otherAccount(s: InstagramSettings, igAccountId: string | undefined): string | null {
    if (!igAccountId || igAccountId === s.igAccountId) return null;
    return s.flavour === "page"
      ? `The Page's Instagram account is ${igAccountId}, not ${s.igAccountId}`
      : `The token is of Instagram account ${igAccountId}, not ${s.igAccountId}`;
  }

  /** Checks the credentials at connect: refused → needs new credentials; unreachable → timeout (sends still try). */
  private async probe(l: Live): Promise<StatusResult> {
    try {
      const who = await l.graph.probe();
      const other = this.otherAccount(l.settings, who.igAccountId);
      return other ? { status: "disconnected", detail: other } : { status: "connected" };
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      if (needsCredentials(err)) return { status: "disconnected", detail: CREDENTIALS_DETAIL };
      if (err.unreachable || err.httpStatus >= 500) return { status: "timeout", detail: redact(err.message, l.settings).slice(0, 255) };
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

  private async failure(l: Live, err: unknown, tagged: boolean, what: string): Promise<Error> {
    if (needsCredentials(err)) {
      await this.credentialsRefused(l, err as GraphError);
      return notConnected(l.ref.connectionId, CREDENTIALS_DETAIL);
    }
    if (err instanceof GraphError) this.opts.logger.warn(`connection ${l.ref.connectionId}: ${what} not sent: ${redact(err.message, l.settings)}`);
    return sendError(err, tagged);
  }
}
