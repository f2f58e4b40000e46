/**
 * The Telegram channel's work, behind the service's actions: its connections (one bot each),
 * their modes (webhook or poller), statuses, send queues and the updates handed to the core.
 *
 * What lives only in memory here (a connection's bot client, queue, poller, recent
 * update_ids) comes back with the next `connect`; what must survive a restart is kept where
 * Telegram and the core already keep it: Telegram's confirmed getUpdates offset, and the
 * core's one row per provider message id (see poller.ts and normalise.ts).
 */
import { Errors } from "moleculer";
import type { Telegram } from "telegraf";
import type { Update } from "telegraf/types";
import {
  inbound,
  outboundAgents,
  readMedia,
  reportStatus,
  type OutboundAgents,
  type OutboundPolicy,
  type PluginContext,
  type Caller,
  type ConnectParams,
  type ConnectionRef,
  type ConnectionStatus,
  type MediaRef,
  type OutboundMessage,
  type SendResult,
  type StatusResult,
  type TestResult,
} from "@openatende/plugin-sdk";
import { ALLOWED_UPDATES, TelegramSettings, classify, clientFor, readSettings, redact, webhookSecret, webhookUrl } from "./bot-api";
import { normaliseUpdate } from "./normalise";
import { downloadFile, missingFileNote, MediaError } from "./media";
import { Poller } from "./poller";
import { RecentIds } from "./recent-ids";
import { SendQueue } from "./send-queue";
import { sendOutbound } from "./outbound";
import type { SentLog } from "./sent-log";

const RETRY_MS = [2000, 5000, 15_000, 30_000, 60_000];

export type HandleResult = "stored" | "duplicate" | "ignored" | "refused";

interface Conn {
  ref: ConnectionRef;
  settings: TelegramSettings;
  /** The connection's public token and the product's URL: the webhook's address. */
  connectionToken?: string;
  publicUrl?: string;
  dataDir?: string;
  telegram: Telegram;
  queue: SendQueue;
  status: ConnectionStatus;
  detail?: string;
  poller?: Poller;
  retryTimer?: NodeJS.Timeout;
  closed: boolean;
}

export interface ChannelOptions {
  /** Calls to the core made outside any request (polling, retries), as this service. */
  core: Caller;
  logger: { info(...a: unknown[]): void; warn(...a: unknown[]): void };
  /** Long-poll wait of getUpdates, seconds. */
  pollTimeoutSec: number;
  /** The platform context (SDK): where the core's files are. Null: those of `connect`'s dataDir, read in place. */
  context: PluginContext | null;
  /** What was sent, by message id: a send the core repeats is answered, not sent again. */
  sentLog: SentLog;
}

/** The failure the core records on a message: Telegram's own words, never the token. */
function sendFailure(err: unknown): Error {
  if (err instanceof MediaError) return Object.assign(new Error(`Telegram: ${err.message}`), { code: 400 });
  const e = err as { name?: string; type?: string };
  if (e?.type) return err as Error; // already the contract's (unsupported kind, validation)
  if (e?.name === "QueueClosedError") return Object.assign(new Error(`Telegram: not sent, ${(err as Error).message}`), { code: 409 });
  const f = classify(err);
  return Object.assign(new Error(`Telegram: ${f.detail}`), { code: f.kind === "refused" ? f.code : 502 });
}

/** An error of the core that handing the same update over again cannot fix (it refused the message). */
function refusedByCore(err: unknown): boolean {
  const code = Number((err as { code?: unknown })?.code);
  return code >= 400 && code < 500 && code !== 408 && code !== 429;
}

export class TelegramChannel {
  private readonly conns = new Map<number, Conn>();
  /** The next getUpdates offset per connection, kept across disconnect/connect. */
  private readonly offsets = new Map<number, number>();
  private readonly recent = new Map<number, RecentIds>();

  /** The platform's outbound URL policy: a tenant's apiRoot reaches only what it allows. */
  private readonly policy: OutboundPolicy;
  private readonly agents: OutboundAgents;

  constructor(private readonly opts: ChannelOptions) {
    this.policy = { allow: opts.context?.outboundAllow ?? [] };
    this.agents = outboundAgents(this.policy);
  }

  // --- the contract's actions -----------------------------------------------------------------

  async connect(p: ConnectParams, caller: Caller): Promise<StatusResult> {
    const ref = { tenantId: p.tenantId, connectionId: p.connectionId };
    const read = readSettings(p.settings);
    const old = this.conns.get(p.connectionId);
    if (old) {
      this.conns.delete(p.connectionId);
      // Another bot now: the old one's webhook must not keep pointing here.
      await this.teardown(old, !read.ok || read.settings.token !== old.settings.token);
    }
    let res: StatusResult;
    if (!read.ok) res = { status: "disconnected", detail: read.detail };
    else {
      const conn: Conn = {
        ref,
        settings: read.settings,
        connectionToken: p.token,
        publicUrl: p.publicUrl,
        dataDir: p.dataDir,
        telegram: clientFor(read.settings, this.agents),
        queue: new SendQueue(),
        status: "connecting",
        closed: false,
      };
      this.conns.set(p.connectionId, conn);
      res = await this.bringUp(conn);
      conn.status = res.status;
      conn.detail = res.detail;
      if (res.status === "timeout") this.retryLater(conn, 0);
    }
    await reportStatus(caller, { ...ref, status: res.status, ...(res.detail ? { detail: res.detail } : {}) });
    return res;
  }

  async disconnect(ref: ConnectionRef, caller: Caller): Promise<StatusResult> {
    const conn = this.conns.get(ref.connectionId);
    if (conn && conn.ref.tenantId === ref.tenantId) {
      this.conns.delete(ref.connectionId);
      await this.teardown(conn, true);
    }
    await reportStatus(caller, { tenantId: ref.tenantId, connectionId: ref.connectionId, status: "disconnected" });
    return { status: "disconnected" };
  }

  status(ref: ConnectionRef): StatusResult {
    const conn = this.conns.get(ref.connectionId);
    if (!conn || conn.ref.tenantId !== ref.tenantId) return { status: "disconnected" };
    return { status: conn.status, ...(conn.detail ? { detail: conn.detail } : {}) };
  }

  async send(ref: ConnectionRef, chatId: string, message: OutboundMessage, messageId?: number): Promise<SendResult> {
    const conn = this.conns.get(ref.connectionId);
    if (!conn || conn.ref.tenantId !== ref.tenantId || conn.closed) {
      throw new Errors.MoleculerClientError("The Telegram connection is not connected", 409, "ERR_SESSION_NOT_INITIALIZED", { connectionId: ref.connectionId });
    }
    const files = this.opts.context ?? { dataDir: conn.dataDir ?? "", localFiles: !!conn.dataDir };
    const target = { telegram: conn.telegram, queue: conn.queue, tenantId: ref.tenantId, readMedia: (m: MediaRef) => readMedia(this.opts.core, ref, m, files) };
    try {
      return await this.opts.sentLog.once({ id: [conn.connectionToken, messageId], what: [chatId, message] }, () => sendOutbound(target, chatId, message));
    } catch (err) {
      const failure = sendFailure(err);
      this.opts.logger.warn(`connection ${ref.connectionId}: message ${messageId ?? "?"} to ${chatId} not sent: ${failure.message}`);
      throw failure;
    }
  }

  async test(settings: Record<string, unknown>): Promise<TestResult> {
    const read = readSettings(settings);
    if (!read.ok) return { ok: false, detail: read.detail };
    try {
      const me = await clientFor(read.settings, this.agents).getMe();
      return { ok: true, detail: me.username ? `@${me.username}` : `bot ${me.id}` };
    } catch (err) {
      const f = classify(err);
      return { ok: false, detail: f.kind === "unauthorized" ? `Telegram refused the bot token (${f.detail})` : f.detail };
    }
  }

  /** Stops everything; webhooks stay set (Telegram retries until the plugin is back), pollers confirm. */
  async stop(): Promise<void> {
    const all = [...this.conns.values()];
    this.conns.clear();
    await Promise.all(all.map((c) => this.teardown(c, false)));
    await this.opts.sentLog.close();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  // --- updates ----------------------------------------------------------------------------------

  /** The bot client for a webhook call: the connected one when its settings still match. */
  clientForWebhook(connectionId: number, settings: TelegramSettings): Telegram {
    const conn = this.conns.get(connectionId);
    return conn && conn.settings.token === settings.token && conn.settings.apiRoot === settings.apiRoot ? conn.telegram : clientFor(settings, this.agents);
  }

  /**
   * Hands one update to the core. Answers "duplicate" for an update_id handed over lately,
   * "ignored" for updates that are no customer message, "refused" when the core will never
   * take it; throws when it is worth trying again (the core or a download is away).
   */
  async handleUpdate(ref: ConnectionRef, telegram: Telegram, update: Update, caller: Caller): Promise<HandleResult> {
    const recent = this.recentFor(ref.connectionId);
    if (recent.has(update.update_id)) return "duplicate";
    const n = normaliseUpdate(update);
    if (!n) {
      recent.add(update.update_id);
      return "ignored";
    }
    let body = n.draft.body;
    let media: MediaRef | undefined;
    if (n.file) {
      const got = await downloadFile(telegram, n.file, this.policy);
      if (got.ok) media = { data: got.data.toString("base64"), mimeType: n.file.mimeType, fileName: n.file.fileName, size: got.data.length };
      else {
        this.opts.logger.warn(`connection ${ref.connectionId}: file of update ${update.update_id} not downloaded: ${got.reason} ${redact(got.detail)}`);
        body = [body, missingFileNote(n.file, got.reason)].filter(Boolean).join("\n");
      }
    }
    let duplicate = false;
    try {
      ({ duplicate } = await inbound(caller, { ...ref, ...n.draft, ...(body !== undefined ? { body } : {}), ...(media ? { media } : {}) }));
    } catch (err) {
      if (!refusedByCore(err)) throw err;
      this.opts.logger.warn(`connection ${ref.connectionId}: the core refused update ${update.update_id}: ${(err as Error).message}`);
      recent.add(update.update_id);
      return "refused";
    }
    recent.add(update.update_id);
    return duplicate ? "duplicate" : "stored";
  }

  // --- connection life ----------------------------------------------------------------------------

  private recentFor(connectionId: number): RecentIds {
    let r = this.recent.get(connectionId);
    if (!r) this.recent.set(connectionId, (r = new RecentIds()));
    return r;
  }

  /** Records a status change and tells the core (once per change). */
  private setStatus(conn: Conn, status: ConnectionStatus, detail?: string): void {
    if (conn.closed || (conn.status === status && conn.detail === detail)) return;
    conn.status = status;
    conn.detail = detail;
    this.opts.logger.info(`connection ${conn.ref.connectionId}: ${status}${detail ? ` (${detail})` : ""}`);
    reportStatus(this.opts.core, { ...conn.ref, status, ...(detail ? { detail: detail.slice(0, 1000) } : {}) }).catch((err: Error) =>
      this.opts.logger.warn(`connection ${conn.ref.connectionId}: status report failed: ${err.message}`),
    );
  }

  /**
   * Checks the token (getMe) and sets the mode up: the webhook at Telegram, or the poller.
   * Answers the status; "timeout" means worth trying again.
   */
  private async bringUp(conn: Conn): Promise<StatusResult> {
    let bot: { username?: string; id: number };
    try {
      bot = await conn.telegram.getMe();
    } catch (err) {
      const f = classify(err);
      if (f.kind === "unauthorized") return { status: "disconnected", detail: `Telegram refused the bot token (getMe: ${f.detail})` };
      return { status: "timeout", detail: `getMe: ${f.detail}` };
    }
    const who = bot.username ? `@${bot.username}` : `bot ${bot.id}`;
    const later = (f: ReturnType<typeof classify>) => f.kind === "unavailable" || f.kind === "rate";

    if (conn.settings.mode === "webhook") {
      if (!conn.connectionToken || !conn.publicUrl) return { status: "disconnected", detail: "Webhook mode needs the platform's public URL and the connection token from the core" };
      try {
        await conn.telegram.setWebhook(webhookUrl(conn.publicUrl, conn.connectionToken), {
          secret_token: webhookSecret(conn.settings.token, conn.connectionToken),
          allowed_updates: [...ALLOWED_UPDATES],
          drop_pending_updates: false,
        });
      } catch (err) {
        const f = classify(err);
        return { status: later(f) ? "timeout" : "disconnected", detail: `setWebhook: ${f.detail}` };
      }
      return { status: "connected", detail: `${who} (webhook)` };
    }

    try {
      // getUpdates is refused while a webhook is set.
      await conn.telegram.deleteWebhook({ drop_pending_updates: false });
    } catch (err) {
      const f = classify(err);
      return { status: later(f) ? "timeout" : "disconnected", detail: `deleteWebhook: ${f.detail}` };
    }
    if (conn.closed) return { status: "disconnected" };
    const id = conn.ref.connectionId;
    conn.poller = new Poller({
      telegram: conn.telegram,
      offset: this.offsets.get(id),
      timeoutSec: this.opts.pollTimeoutSec,
      handle: async (u) => {
        await this.handleUpdate(conn.ref, conn.telegram, u, this.opts.core);
      },
      onOffset: (o) => this.offsets.set(id, o),
      onStatus: (s, d) => this.setStatus(conn, s, s === "connected" ? `${who} (polling)` : d),
      log: this.opts.logger,
    });
    conn.poller.start();
    return { status: "connected", detail: `${who} (polling)` };
  }

  /** Tries bringUp again later while Telegram cannot be reached. */
  private retryLater(conn: Conn, attempt: number): void {
    conn.retryTimer = setTimeout(
      async () => {
        if (conn.closed) return;
        const res = await this.bringUp(conn);
        if (conn.closed) {
          await conn.poller?.stop();
          return;
        }
        this.setStatus(conn, res.status, res.detail);
        if (res.status === "timeout") this.retryLater(conn, attempt + 1);
      },
      RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)],
    );
    conn.retryTimer.unref?.();
  }

  /** Stops a connection's work; with `unset`, also takes its webhook off Telegram. */
  private async teardown(conn: Conn, unset: boolean): Promise<void> {
    conn.closed = true;
    clearTimeout(conn.retryTimer);
    conn.queue.close();
    if (conn.poller) {
      await conn.poller.stop();
      const next = conn.poller.nextOffset;
      if (next !== undefined) this.offsets.set(conn.ref.connectionId, next);
    }
    if (unset && conn.settings.mode === "webhook") {
      await conn.telegram
        .deleteWebhook({ drop_pending_updates: false })
        .catch((err: unknown) => this.opts.logger.warn(`connection ${conn.ref.connectionId}: deleteWebhook failed: ${classify(err).detail}`));
    }
  }
}
