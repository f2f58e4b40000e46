/**
 * The e-mail channel's state and behaviour behind the service's actions: one IMAP session and
 * one SMTP transport per connected connection, the Redis store, the status reports.
 */
import { Errors } from "moleculer";
import type { CallingOptions, Context, ServiceBroker } from "moleculer";
import type Redis from "ioredis";
import type { Transporter } from "nodemailer";
import {
  call,
  checkOutbound,
  readMedia,
  type OutboundPolicy,
  type PluginContext,
  reportStatus,
  resolveToken,
  type ChannelCapability,
  type ConnectParams,
  type ConnectionRef,
  type ConnectionStatus,
  type SendParams,
  type SendResult,
  type StatusResult,
  type TestParams,
  type TestResult,
} from "@openatende/plugin-sdk";
import { EmailStore } from "./store";
import { EmailSettings, IMAP_FIELDS, MASK, parseImap, parseSettings, parseSmtp, SMTP_FIELDS, smtpOptions } from "./settings";
import type { MailboxWatcher } from "./mailbox";
import type { ProbeResult } from "./probe";

// The IMAP client, the MIME parser and the sanitiser are loaded on first use: the core loads
// every plugin at start, and most processes never connect an e-mail account.
/* eslint-disable @typescript-eslint/no-require-imports */
const lazy = {
  mailbox: () => require("./mailbox") as typeof import("./mailbox"),
  inbound: () => require("./inbound") as typeof import("./inbound"),
  outbound: () => require("./outbound") as typeof import("./outbound"),
  probe: () => require("./probe") as typeof import("./probe"),
  nodemailer: () => require("nodemailer") as typeof import("nodemailer"),
  serverAddress: () => require("./server-address") as typeof import("./server-address"),
  ioredis: () => require("ioredis") as typeof import("ioredis").default,
};
/* eslint-enable @typescript-eslint/no-require-imports */

export interface EmailServiceSettings {
  /** Sync every this many ms besides IDLE pushes. */
  pollIntervalMs: number;
  /** False: poll only, never IDLE. */
  idle: boolean;
  /** First sync of a mailbox: unread mail of this many days is imported. */
  initialDays: number;
  backoffMs: { min: number; max: number };
}

export interface Log {
  info(...a: unknown[]): void;
  warn(...a: unknown[]): void;
  debug(...a: unknown[]): void;
}

interface Connection {
  ref: ConnectionRef;
  settings: EmailSettings;
  watcher: MailboxWatcher;
}

export type UserCtx<P = unknown> = Context<P, { user?: { tenantId?: number } }>;
export type TestAnswer = TestResult & { imap?: ProbeResult; smtp?: ProbeResult };

const keyOf = (r: ConnectionRef) => `${r.tenantId}:${r.connectionId}`;
const summary = (r: ProbeResult) => `${r.code}${r.detail ? ` (${r.detail})` : ""}`;
const invalid = (errors: Array<{ field: string }>) => `invalid settings: ${errors.map((e) => e.field).join(", ")}`;

export class EmailChannel {
  private readonly conns = new Map<string, Connection>();
  private redis: Redis | null = null;
  private emailStore: EmailStore | null = null;
  /** Calls made in the background (IMAP sync) go out as the plugin's service, so the core checks the connection is ours. */
  private readonly callOpts: CallingOptions;

  constructor(
    private readonly broker: ServiceBroker,
    private readonly log: Log,
    private readonly opts: EmailServiceSettings & { pluginId: string; serviceName: string; capabilities: ChannelCapability[]; context: PluginContext },
  ) {
    this.callOpts = { caller: opts.serviceName };
  }

  store(): EmailStore {
    if (!this.emailStore) {
      const { redisUrl, redisPrefix, namespace } = this.opts.context;
      this.emailStore = new EmailStore(() => {
        if (!this.redis) {
          const IORedis = lazy.ioredis();
          this.redis = new IORedis(redisUrl, { maxRetriesPerRequest: 2, connectTimeout: 3000 });
          this.redis.on("error", (err: Error) => this.log.debug(`redis: ${err.message}`));
        }
        return this.redis;
      }, redisPrefix, namespace);
    }
    return this.emailStore;
  }

  /** The IMAP session of a connection (tests look at it). */
  watcherOf(ref: ConnectionRef): MailboxWatcher | undefined {
    return this.conns.get(keyOf(ref))?.watcher;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.conns.keys()].map((k) => this.stopConnection(k)));
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
    this.redis = null;
    this.emailStore = null;
  }

  private async stopConnection(key: string) {
    const c = this.conns.get(key);
    if (!c) return;
    this.conns.delete(key);
    await c.watcher.stop();
  }

  /** The platform's outbound policy: the tenant's IMAP and SMTP servers reach only what it allows. */
  private policy(): OutboundPolicy {
    return { allow: this.opts.context.outboundAllow ?? [] };
  }

  /** A transport for one send, to the SMTP server's address checked now (nodemailer opens a connection per send anyway). */
  private async smtpTransport(s: EmailSettings): Promise<Transporter> {
    const target = await lazy.serverAddress().serverTarget(s.smtpHost, this.policy());
    return lazy.nodemailer().createTransport(smtpOptions(s, target));
  }

  /** Status changes found by the IMAP session (connected, reconnecting, login refused) go to the core. */
  private report(ref: ConnectionRef, status: ConnectionStatus, detail?: string) {
    reportStatus(this.broker, { ...ref, status, ...(detail ? { detail: detail.slice(0, 1000) } : {}) }, this.callOpts).catch((err: Error) =>
      this.log.warn(`connection ${keyOf(ref)}: status ${status} not reported: ${err.message}`),
    );
  }

  async connect(p: ConnectParams): Promise<StatusResult> {
    const ref = { tenantId: p.tenantId, connectionId: p.connectionId };
    const key = keyOf(ref);
    await this.stopConnection(key);
    const parsed = parseSettings(p.settings);
    if (!parsed.ok) {
      const detail = invalid(parsed.errors);
      this.report(ref, "disconnected", detail);
      return { status: "disconnected", detail };
    }
    const settings = parsed.value;
    const store = this.store();
    const { handleMail } = lazy.inbound();
    const deps = { broker: this.broker, callOpts: this.callOpts, store, ref, ownAddress: settings.fromAddress, log: this.log };
    const watcher = new (lazy.mailbox().MailboxWatcher)({
      ref,
      settings,
      store,
      handle: (mail, mode) => handleMail(deps, mail, mode),
      onStatus: (status, detail) => this.report(ref, status, detail),
      log: this.log,
      pollIntervalMs: this.opts.pollIntervalMs,
      idle: this.opts.idle,
      initialDays: this.opts.initialDays,
      backoffMs: this.opts.backoffMs,
      policy: this.policy(),
    });
    this.conns.set(key, { ref, settings, watcher });
    return watcher.start();
  }

  async disconnect(ctx: Context<ConnectionRef>): Promise<StatusResult> {
    const ref = { tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId };
    await this.stopConnection(keyOf(ref));
    await reportStatus(ctx, { ...ref, status: "disconnected" });
    return { status: "disconnected" };
  }

  status(ref: ConnectionRef): StatusResult {
    const w = this.conns.get(keyOf(ref))?.watcher;
    return w ? { status: w.status, ...(w.detail ? { detail: w.detail } : {}) } : { status: "disconnected" };
  }

  async send(p: SendParams): Promise<SendResult> {
    checkOutbound(this.opts.capabilities, p.message);
    const c = this.conns.get(keyOf(p));
    if (!c) throw new Errors.MoleculerClientError("The e-mail connection is not connected", 409, "ERR_EMAIL_NOT_CONNECTED");
    const ref = { tenantId: p.tenantId, connectionId: p.connectionId };
    return lazy.outbound().sendEmail({ transport: () => this.smtpTransport(c.settings), settings: c.settings, store: this.store(), readMedia: (m) => readMedia(this.broker, ref, m, this.opts.context, this.callOpts) }, p);
  }

  /** The contract's test: both servers, each answer beside the summary. */
  async test(p: TestParams): Promise<TestAnswer> {
    const parsed = parseSettings(p.settings);
    if (!parsed.ok) return { ok: false, detail: invalid(parsed.errors) };
    const { probeImap, probeSmtp } = lazy.probe();
    const [imap, smtp] = await Promise.all([probeImap(parsed.value, this.policy()), probeSmtp(parsed.value, this.policy())]);
    return { ok: imap.ok && smtp.ok, detail: `IMAP: ${summary(imap)}; SMTP: ${summary(smtp)}`, imap, smtp };
  }

  async testImap(ctx: UserCtx<{ settings: Record<string, unknown>; token?: string }>): Promise<ProbeResult> {
    const parsed = parseImap(await this.withStoredSecrets(ctx, IMAP_FIELDS));
    if (!parsed.ok) throw new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", parsed.errors);
    return lazy.probe().probeImap(parsed.value, this.policy());
  }

  async testSmtp(ctx: UserCtx<{ settings: Record<string, unknown>; token?: string }>): Promise<ProbeResult> {
    const parsed = parseSmtp(await this.withStoredSecrets(ctx, SMTP_FIELDS));
    if (!parsed.ok) throw new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", parsed.errors);
    return lazy.probe().probeSmtp(parsed.value, this.policy());
  }

  /**
   * The settings screen's values, with the secrets the API masks ("********") taken from the
   * stored connection (found by its token, in the caller's tenant).
   */
  private async withStoredSecrets(ctx: UserCtx<{ settings: Record<string, unknown>; token?: string }>, fields: readonly string[]): Promise<Record<string, unknown>> {
    const tenantId = ctx.meta.user?.tenantId;
    if (!tenantId) throw new Errors.MoleculerClientError("Sign in as an administrator", 401, "ERR_SESSION_REQUIRED");
    await call(ctx, "plugins.isEnabled", { tenantId, id: this.opts.pluginId, assert: true });
    const out = { ...ctx.params.settings };
    const masked = fields.filter((f) => out[f] === MASK);
    if (!masked.length) return out;
    const stored = ctx.params.token ? await resolveToken(ctx, ctx.params.token) : null;
    if (!stored || stored.tenantId !== tenantId) {
      throw new Errors.ValidationError(
        "Parameters validation error!",
        "VALIDATION_ERROR",
        masked.map((f) => ({ type: "required", field: `settings.${f}`, message: `The '${f}' field is required to test: type the password again.` })),
      );
    }
    for (const f of masked) out[f] = stored.settings[f];
    return out;
  }
}
