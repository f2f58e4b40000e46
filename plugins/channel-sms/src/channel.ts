/**
 * The SMS channel's work behind the service's actions. A connection is the tenant's account at
 * an SMS provider: "connected" once the provider accepted its token (its balance read), sends
 * go once per core message id and only with credits for every part, the provider's delivery
 * reports become acks and its customers' messages tickets.
 *
 * What lives only in memory (the running connections) comes back with the next `connect`; the
 * sent log is in Redis (store.ts); the messages are the core's.
 */
import { Errors } from "moleculer";
import {
  ack,
  inbound,
  smsNumber,
  smsParts,
  type BalanceParams,
  reportStatus,
  type Caller,
  type ConnectParams,
  type ConnectionRef,
  type OutboundMessage,
  type OutboundPolicy,
  type PluginContext,
  type ResolvedToken,
  type SendResult,
  type StatusResult,
  type TestResult,
} from "@openatende/plugin-sdk";
import { certainlyUnsent, noCredits, notConnected, numberInvalid, providerFailure, tokenRefused } from "./errors";
import { createProvider, DeliveryFormatError, ProviderError, type SmsProvider } from "./providers";
import { readSettings, redact, type SmsSettings } from "./settings";
import type { SentLog } from "./store";
import { webhookUrls, type WebhookEvent } from "./webhook";

export interface ChannelOptions {
  /** Calls to the core made outside any request, as this service. */
  core: Caller;
  logger: { info(...a: unknown[]): void; warn(...a: unknown[]): void };
  context: PluginContext | null;
  sentLog: SentLog;
}

interface Running {
  ref: ConnectionRef;
  settings: SmsSettings;
  provider: SmsProvider;
  token?: string;
  status: "connected" | "timeout";
  detail?: string;
}

export interface Credits {
  provider: string;
  credits: number;
  checkedAt: number;
}

const TOKEN_REFUSED_DETAIL = "ERR_SMS_TOKEN_REFUSED: the provider did not accept the token; contact your reseller";

export class SmsChannel {
  private readonly running = new Map<number, Running>();

  constructor(private readonly opts: ChannelOptions) {}

  // --- the contract's actions -------------------------------------------------------------------

  /** Checks the token by reading the balance: accepted → connected; refused → the code, and the connection shows why. */
  async connect(p: ConnectParams, caller: Caller): Promise<StatusResult> {
    const ref = { tenantId: p.tenantId, connectionId: p.connectionId };
    this.running.delete(p.connectionId);
    const read = readSettings(p.settings);
    if (!read.ok) return this.report(caller, ref, { status: "disconnected", detail: read.detail });
    const provider = createProvider(read.settings, this.policy());
    const conn: Running = { ref, settings: read.settings, provider, token: p.token, status: "connected" };
    try {
      const { credits } = await provider.balance();
      conn.detail = `Credits: ${credits}`;
    } catch (err) {
      if (err instanceof ProviderError && err.kind === "unauthorized") {
        await this.report(caller, ref, { status: "disconnected", detail: TOKEN_REFUSED_DETAIL });
        throw tokenRefused();
      }
      if (!(err instanceof ProviderError)) throw err;
      // The provider is away: the connection stands (its token is unproven), sends will try.
      conn.status = "timeout";
      conn.detail = redact(err.message, read.settings);
    }
    this.running.set(p.connectionId, conn);
    return this.report(caller, ref, { status: conn.status, detail: conn.detail });
  }

  async disconnect(ref: ConnectionRef, caller: Caller): Promise<StatusResult> {
    if (this.runningOf(ref)) this.running.delete(ref.connectionId);
    return this.report(caller, ref, { status: "disconnected" });
  }

  status(ref: ConnectionRef): StatusResult {
    const c = this.runningOf(ref);
    return c ? { status: c.status, ...(c.detail ? { detail: c.detail } : {}) } : { status: "disconnected" };
  }

  /** One text to one number, once per core message id, never without credits for all its parts. */
  async send(ref: ConnectionRef, externalId: string, message: OutboundMessage, messageId?: number): Promise<SendResult> {
    const conn = this.runningOf(ref);
    if (!conn) throw notConnected(ref.connectionId, "it was not started");
    const to = smsNumber(externalId);
    if (!to) throw numberInvalid(externalId);
    const text = message.kind === "text" ? message.body : "";
    const needed = smsParts(text);
    const scope = { tenantId: ref.tenantId, connectionId: ref.connectionId, connectionKey: conn.token, messageId, what: [to, text] };
    try {
      return await this.opts.sentLog.once(
        scope,
        async () => {
          const { credits } = await conn.provider.balance();
          // Spec §7: an SMS needs credits; none → refused, and nothing reaches the provider.
          if (credits < needed) throw noCredits(credits, needed);
          return conn.provider.send({ to, text });
        },
        certainlyUnsent,
      );
    } catch (err) {
      if (err instanceof ProviderError && err.kind === "unauthorized") await this.tokenRevoked(conn);
      const failure = providerFailure(err, (s) => redact(s, conn.settings), { needed, number: to });
      this.opts.logger.warn(`connection ${ref.connectionId}: message ${messageId ?? "?"} to ${to} not sent: ${(failure as { type?: string }).type ?? failure.message}`);
      throw failure;
    }
  }

  async test(settings: Record<string, unknown>): Promise<TestResult> {
    const read = readSettings(settings);
    if (!read.ok) return { ok: false, detail: read.detail };
    try {
      const { credits } = await createProvider(read.settings, this.policy()).balance();
      return { ok: true, detail: `The provider accepted the token: ${credits} credit(s)` };
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      if (err.kind === "unauthorized") return { ok: false, detail: TOKEN_REFUSED_DETAIL };
      return { ok: false, detail: redact(err.message, read.settings) };
    }
  }

  /**
   * The contract's optional `balance` (1.4): the account's credits, read with the connection's
   * stored settings (running or not: a token the provider refuses is the code, not a stale count).
   */
  async balance(p: BalanceParams): Promise<Credits> {
    return this.credits({ tenantId: p.tenantId, connectionId: p.connectionId, name: "", status: "connected", settings: p.settings });
  }

  // --- the admin's routes -----------------------------------------------------------------------

  /** The account's balance at the provider, as the connection form shows it. */
  async credits(r: ResolvedToken): Promise<Credits> {
    const { provider, settings } = this.providerOf(r);
    try {
      const { credits } = await provider.balance();
      return { provider: provider.id, credits, checkedAt: Date.now() };
    } catch (err) {
      throw providerFailure(err, (s) => redact(s, settings));
    }
  }

  /** The callback addresses to paste in the provider's panel. */
  webhooks(r: ResolvedToken, token: string): Record<WebhookEvent, string> {
    const { settings } = this.providerOf(r);
    return webhookUrls(this.opts.context?.publicUrl ?? "", token, settings.webhookSecret);
  }

  // --- the provider's callbacks -----------------------------------------------------------------

  /** One callback of the provider for connection `r`, found by the route's token. */
  async handleWebhook(
    r: ResolvedToken,
    routeToken: string,
    event: WebhookEvent,
    pathSecret: string,
    body: Buffer,
    headers: Record<string, string | undefined>,
    caller: Caller,
  ): Promise<{ acks: number; messages: number }> {
    // The running connection's settings first (what it was connected with), else the stored ones.
    const live = this.runningOf(r);
    const { provider, settings } = live ?? this.providerOf(r, 404);
    const url = webhookUrls(this.opts.context?.publicUrl ?? "", routeToken, pathSecret)[event];
    const delivery = { event, body, headers, pathSecret, url };
    // Nothing of a delivery whose secret is wrong is read.
    if (!provider.verifyWebhook(delivery, settings.webhookSecret)) {
      throw new Errors.MoleculerClientError("Wrong webhook secret", 401, "ERR_TOKEN_INVALID", { reason: "webhook-secret" });
    }
    const ref = { tenantId: r.tenantId, connectionId: r.connectionId };
    try {
      if (event === "status") {
        const reports = provider.parseDeliveryReports(delivery);
        for (const rep of reports) await ack(caller, { ...ref, providerMessageId: rep.providerMessageId, status: rep.status, ...(rep.reason ? { reason: rep.reason } : {}), ...(rep.timestamp ? { timestamp: rep.timestamp } : {}) });
        return { acks: reports.length, messages: 0 };
      }
      const messages = provider.parseInbound(delivery);
      for (const m of messages) {
        await inbound(caller, {
          ...ref,
          providerMessageId: m.providerMessageId,
          timestamp: m.timestamp,
          from: { externalId: m.from, phone: m.from, ...(m.name ? { name: m.name } : {}) },
          body: m.text,
          ...(m.replyTo ? { replyToProviderId: m.replyTo } : {}),
        });
      }
      return { acks: 0, messages: messages.length };
    } catch (err) {
      if (err instanceof DeliveryFormatError) throw new Errors.MoleculerClientError(err.message, 400, "ERR_VALIDATION", { field: "body", reason: err.message });
      throw err;
    }
  }

  stop(): Promise<void> {
    this.running.clear();
    return this.opts.sentLog.close();
  }

  // --- inside -----------------------------------------------------------------------------------

  private async report(caller: Caller, ref: ConnectionRef, res: StatusResult): Promise<StatusResult> {
    await reportStatus(caller, { ...ref, ...res });
    return res;
  }

  /** The token stopped working (revoked, the account closed): the connection says so and stops. */
  private async tokenRevoked(conn: Running): Promise<void> {
    this.running.delete(conn.ref.connectionId);
    await reportStatus(this.opts.core, { ...conn.ref, status: "disconnected", detail: TOKEN_REFUSED_DETAIL }).catch((err: Error) =>
      this.opts.logger.warn(`connection ${conn.ref.connectionId}: status not reported: ${err.message}`),
    );
  }

  /**
   * The provider of a resolved connection, made from its stored settings (the latest saved:
   * a new token or secret counts at once, running or not).
   */
  private providerOf(r: ResolvedToken, unusable = 400): { provider: SmsProvider; settings: SmsSettings } {
    const read = readSettings(r.settings);
    if (!read.ok) {
      if (unusable === 404) throw new Errors.MoleculerClientError("This connection takes no webhook", 404, "ERR_CONNECTION_NOT_FOUND");
      throw new Errors.MoleculerClientError(read.detail, 400, "ERR_VALIDATION", { field: `settings.${read.field}` });
    }
    return { provider: createProvider(read.settings, this.policy()), settings: read.settings };
  }

  /** The platform's outbound URL policy: a tenant's API address reaches only what it allows. */
  private policy(): OutboundPolicy {
    return { allow: this.opts.context?.outboundAllow ?? [] };
  }

  private runningOf(ref: ConnectionRef): Running | undefined {
    const c = this.running.get(ref.connectionId);
    return c && c.ref.tenantId === ref.tenantId ? c : undefined;
  }
}
