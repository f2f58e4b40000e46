/**
 * SMS through a provider's API (Comtele first; providers/ holds the interface Zenvia or
 * Twilio fill later). Each connection is the tenant's SMS account: its token is checked on
 * connect, its credits are shown to the admin and checked before every send, sends go once per
 * core message id, and the provider's callbacks (delivery reports, customers' messages) come to
 * POST /api/sms/<connection token>/<webhook secret>/<status|inbound>. The work is in
 * channel.ts; this file is the service and its routes.
 */
import type { Context } from "moleculer";
import { Errors } from "moleculer";
import {
  call,
  definePlugin,
  pluginContext,
  rateLimit,
  resolveToken,
  type ChannelCapability,
  type ResolvedToken,
  type BalanceParams,
  channelContractActions,
} from "@openatende/plugin-sdk";
import { SmsChannel } from "./channel";
import { connectionNotFound } from "./errors";
import { SentLog } from "./store";
import { DeliveryTooLarge, readBody, WEBHOOK_EVENTS, WEBHOOK_HEADERS, WEBHOOK_LIMITS, type WebhookEvent } from "./webhook";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json") as { platform: { id: string; channel: { capabilities: ChannelCapability[] } } };
const PLUGIN_ID = pkg.platform.id;
const CAPABILITIES = pkg.platform.channel.capabilities;

type Meta = { headers?: Record<string, string>; user?: { tenantId?: number } | null; ip?: string };
type Ctx<P = any> = Context<P, Meta>;
/** The request body of a stream route (Moleculer hands it over as ctx.stream). */
const bodyOf = (ctx: Ctx): AsyncIterable<unknown> | null => (ctx as unknown as { stream?: AsyncIterable<unknown> | null }).stream ?? null;

/** A stream route: the gateway leaves the body unread (core/src/gateway/api.service.ts). */
const WEBHOOK_ROUTE = { method: "POST" as const, path: "/sms/:token/:secret/:event", type: "stream" };

const channelOf = (svc: any): SmsChannel => svc.channel as SmsChannel;
const connectionToken = { type: "string", min: 10, max: 64 } as const;

async function drain(stream: AsyncIterable<unknown> | null | undefined): Promise<void> {
  if (!stream) return;
  for await (const _chunk of stream) {
    /* discarded */
  }
}

/** The connection an admin names by its token, in the admin's own tenant; anything else is not found. */
async function ownConnection(ctx: Ctx<{ token: string }>): Promise<ResolvedToken> {
  const tenantId = ctx.meta.user?.tenantId;
  if (!tenantId) throw new Errors.MoleculerClientError("Sign in as an administrator", 401, "ERR_SESSION_REQUIRED");
  await call(ctx, "plugins.isEnabled", { tenantId, id: PLUGIN_ID, assert: true });
  const r = await resolveToken(ctx, ctx.params.token);
  if (!r || r.tenantId !== tenantId) throw connectionNotFound();
  if (r.status === "inactive") throw new Errors.MoleculerClientError("The connection is inactive", 409, "ERR_CONNECTION_INACTIVE", { field: "token" });
  return r;
}

export const smsChannelPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    // Webhook limits are settings, so a test can lower them.
    settings: { rest: "/", webhookLimits: WEBHOOK_LIMITS },
    created(this: any) {
      const context = pluginContext(this);
      this.channel = new SmsChannel({
        core: { call: (action, params, opts) => this.broker.call(action, params, { ...(opts ?? {}), caller: this.fullName }) },
        logger: this.logger,
        context,
        sentLog: new SentLog({ redisUrl: context.redisUrl, prefix: `${context.redisPrefix}:${PLUGIN_ID}`, log: this.logger }),
      });
    },
    async stopped(this: any) {
      await channelOf(this).stop();
    },
    actions: {
      // --- the channel contract -------------------------------------------------------------
      ...channelContractActions((svc) => channelOf(svc), CAPABILITIES),
      /** Optional (contract 1.4, manifest `balance`): the account's credits, for the core (platform.connections.balance). */
      balance: {
        params: { tenantId: { type: "number", integer: true, positive: true }, connectionId: { type: "number", integer: true, positive: true }, settings: { type: "object" } },
        handler(this: any, ctx: Ctx<BalanceParams>) {
          return channelOf(this).balance(ctx.params);
        },
      },

      // --- the provider's callbacks (public, keyed by the connection token and its secret) ------
      webhook: {
        // A stream route: the body reaches the provider's check as the exact bytes sent.
        rest: WEBHOOK_ROUTE,
        access: "public",
        resource: "public",
        headers: WEBHOOK_HEADERS,
        params: { token: connectionToken, secret: { type: "string", min: 1, max: 200 }, event: { type: "enum", values: [...WEBHOOK_EVENTS] } },
        async handler(this: any, ctx: Ctx<{ token: string; secret: string; event: WebhookEvent }>) {
          const { windowSeconds, perAddress, perConnection } = this.settings.webhookLimits as typeof WEBHOOK_LIMITS;
          await rateLimit(ctx, PLUGIN_ID, [
            ...(ctx.meta.ip ? [{ key: `webhook:ip:${ctx.meta.ip}`, max: perAddress, windowSeconds }] : []),
            { key: `webhook:token:${ctx.params.token}`, max: perConnection, windowSeconds },
          ]).catch(async (err: unknown) => {
            await drain(bodyOf(ctx));
            throw err;
          });
          const r = await resolveToken(ctx, ctx.params.token);
          // An unknown, inactive or disconnected connection takes nothing.
          if (!r || r.status === "inactive" || r.status === "disconnected") {
            await drain(bodyOf(ctx));
            throw new Errors.MoleculerClientError("Unknown webhook", 404, "ERR_CONNECTION_NOT_FOUND");
          }
          let body: Buffer;
          try {
            body = await readBody(bodyOf(ctx));
          } catch (err) {
            if (err instanceof DeliveryTooLarge) throw new Errors.MoleculerClientError(err.message, 413, "ERR_PAYLOAD_TOO_LARGE");
            throw err;
          }
          try {
            return { ok: true, ...(await channelOf(this).handleWebhook(r, ctx.params.token, ctx.params.event, ctx.params.secret, body, ctx.meta.headers ?? {}, ctx)) };
          } catch (err) {
            const code = Number((err as { code?: unknown }).code);
            if (code >= 400 && code < 500) throw err;
            // Not taken (the core is away): an answer other than 2xx has the provider deliver it again.
            this.logger.warn(`connection ${r.connectionId}: SMS callback not handed over: ${(err as Error).message}`);
            throw new Errors.MoleculerRetryableError("Try again later", 503, "ERR_SERVICE_UNAVAILABLE");
          }
        },
      },

      // --- the connection form (admins of a tenant with the plugin available) --------------------
      credits: {
        rest: "POST /sms/credits",
        access: "admin",
        params: { token: connectionToken },
        async handler(this: any, ctx: Ctx<{ token: string }>) {
          return channelOf(this).credits(await ownConnection(ctx));
        },
      },
      webhooks: {
        rest: "POST /sms/webhooks",
        access: "admin",
        params: { token: connectionToken },
        async handler(this: any, ctx: Ctx<{ token: string }>) {
          return channelOf(this).webhooks(await ownConnection(ctx), ctx.params.token);
        },
      },
    },
  },
});

export default smsChannelPlugin;
