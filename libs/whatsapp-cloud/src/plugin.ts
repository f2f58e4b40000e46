/**
 * A WhatsApp Cloud API channel plugin, written once for every provider: `cloudChannelPlugin`
 * answers the definePlugin of a plugin whose manifest is `pkgJson` and whose provider is
 * `provider` (provider.ts). Each connection is one phone number: sends go through the
 * provider's API (channel.ts), and the provider posts messages and statuses to the
 * connection's webhook, `<public URL>/api/<segment>/<connection token>/webhook`, proven the
 * provider's way (deliveries.ts). Meta's URL also answers its verification handshake (GET).
 * This file is the service: the contract's actions, the webhook routes, sendInteractive.
 */
import { Errors } from "moleculer";
import type { Context } from "moleculer";
import {
  channelActionParams,
  definePlugin,
  pluginContext,
  rateLimit,
  resolveToken,
  type ChannelCapability,
  type ConnectParams,
  type ConnectionRef,
  type MarkReadParams,
  type MarkReadResult,
  type ResolvedToken,
  type SendResult,
  type StatusResult,
  channelContractActions,
  readWebhookBody,
  WebhookBodyTooLarge,
} from "@openatende/plugin-sdk";
import { CloudChannel } from "./channel";
import { DEFAULT_RETRY_MS } from "./graph";
import { Deliveries, type DeliveryAnswer } from "./deliveries";
import type { InteractiveSpec } from "./interactive";
import { PluginStore } from "./store";
import type { CloudProvider } from "./provider";
import { MAX_DELIVERY_BYTES } from "./webhook";
import { templateActionsOf } from "./template-actions";
import { TemplateStatusStore } from "./template-status";
import { pushOf, takeTemplateStatuses } from "./template-webhook";

/** The manifest fields the service reads. */
export interface CloudManifest {
  platform: { id: string; channel: { capabilities: ChannelCapability[] } };
}

type Meta = { headers?: Record<string, string>; ip?: string; $responseType?: string };
type Ctx<P = any> = Context<P, Meta>;
const bodyOf = (ctx: Ctx): AsyncIterable<unknown> | null => (ctx as unknown as { stream?: AsyncIterable<unknown> | null }).stream ?? null;
/** The token as the URL writes it (as is, or the provider's encoding of it: urlToken). */
const connectionToken = { type: "string", min: 10, max: 128 } as const;
/** Meta's handshake parameters (qs leaves "hub.mode" as one key). */
const hubParam = { type: "string", optional: true, max: 500 } as const;

const channelOf = (svc: any): CloudChannel => svc.channel as CloudChannel;
const deliveriesOf = (svc: any): Deliveries => svc.deliveries as Deliveries;

async function drain(stream: AsyncIterable<unknown> | null | undefined): Promise<void> {
  if (stream) for await (const _chunk of stream) void _chunk;
}

/**
 * The connection a webhook URL names, when it takes webhooks; 404 otherwise (the body drained
 * unread). A connection the admin disconnected takes no messages (it answers the handshake);
 * one waiting for a new access token still takes its customers' messages (the app secret
 * that signs them is unchanged).
 */
async function webhookConnection(svc: any, pluginId: string, ctx: Ctx<{ token: string }>, handshake = false): Promise<ResolvedToken & { token: string }> {
  // Public: a busy number's load is far below these; a flood from one address or at one URL is not.
  await rateLimit(ctx, pluginId, [
    { key: `webhook:token:${ctx.params.token}`, max: 6000, windowSeconds: 60 },
    ...(ctx.meta.ip ? [{ key: `webhook:ip:${ctx.meta.ip}`, max: 6000, windowSeconds: 60 }] : []),
  ]);
  const provider = channelOf(svc).provider;
  const token = provider.urlToken ? provider.urlToken.decode(ctx.params.token) : ctx.params.token;
  const r = token === null ? null : await resolveToken(ctx, token);
  // Meta checks the URL with the handshake as soon as the admin pastes it, before connecting.
  const disconnectedButTakes = !!r && r.status === "disconnected" && (handshake || channelOf(svc).liveOf(r)?.detail === channelOf(svc).credentialsDetail);
  if (!r || r.status === "inactive" || (r.status === "disconnected" && !disconnectedButTakes)) {
    await drain(bodyOf(ctx));
    throw new Errors.MoleculerClientError("Unknown webhook", 404, "ERR_CONNECTION_NOT_FOUND");
  }
  return { ...r, token: token! };
}

export function cloudChannelPlugin<M extends CloudManifest>(pkgJson: M, provider: CloudProvider<any>) {
  const PLUGIN_ID = pkgJson.platform.id;
  const CAPABILITIES = pkgJson.platform.channel.capabilities;
  const segment = provider.webhookSegment;
  /** A stream route: the gateway leaves the body unread (core/src/gateway/api.service.ts). */
  const webhookRoute = { method: "POST" as const, path: `/${segment}/:token/webhook`, type: "stream" };
  // Meta's GET handshake, for providers that have one.
  const handshakeActions: Record<string, any> = provider.handshake
    ? {
        webhookVerify: {
          rest: `GET /${segment}/:token/webhook`,
          access: "public",
          resource: "public",
          params: { token: connectionToken, "hub.mode": hubParam, "hub.verify_token": hubParam, "hub.challenge": hubParam, hub: { type: "object", optional: true } },
          async handler(this: any, ctx: Ctx<{ token: string } & Record<string, unknown>>): Promise<string> {
            const r = await webhookConnection(this, PLUGIN_ID, ctx, true);
            const challenge = deliveriesOf(this).verify(r, ctx.params);
            ctx.meta.$responseType = "text/plain; charset=utf-8";
            return challenge;
          },
        },
      }
    : {};
  return definePlugin({
  pkgJson,
  service: {
    // Waits before each retry of a throttled Graph call (ms); a setting, so a test can shorten them.
    settings: { rest: "/", retryMs: DEFAULT_RETRY_MS },
    created(this: any) {
      const context = pluginContext(this);
      const core = { call: (action: string, params?: unknown, opts?: any) => this.broker.call(action, params, { ...(opts ?? {}), caller: this.fullName }) };
      this.channel = new CloudChannel({
        core,
        logger: this.logger,
        context,
        store: new PluginStore({ redisUrl: context.redisUrl, prefix: `${context.redisPrefix}:${PLUGIN_ID}`, log: this.logger }),
        retryMs: () => this.settings.retryMs as number[],
        provider,
      });
      this.deliveries = new Deliveries(this.channel, core);
      this.templateStatuses = new TemplateStatusStore({ redisUrl: context.redisUrl, prefix: `${context.redisPrefix}:${PLUGIN_ID}`, log: this.logger });
    },
    async stopped(this: any) {
      await deliveriesOf(this).idle();
      await channelOf(this).stop();
      await (this.templateStatuses as TemplateStatusStore).close();
    },
    actions: {
      // --- the channel contract -------------------------------------------------------------
      ...channelContractActions((svc) => channelOf(svc), CAPABILITIES),
      // Connecting also takes up the webhook changes accepted before a crash or restart.
      connect: {
        params: channelActionParams.connect,
        async handler(this: any, ctx: Ctx<ConnectParams>): Promise<StatusResult> {
          const res = await channelOf(this).connect(ctx.params, ctx);
          // What was accepted before a crash or restart and not finished goes in now.
          void deliveriesOf(this)
            .recover({ tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId })
            .catch((err: Error) => this.logger.warn(`connection ${ctx.params.connectionId}: held webhook changes not taken up: ${err.message}`));
          return res;
        },
      },
      /** Read receipts (platform.channel.receipts): best effort, never an error for the core. */
      markRead: {
        params: channelActionParams.markRead,
        async handler(this: any, ctx: Ctx<MarkReadParams>): Promise<MarkReadResult> {
          const p = ctx.params;
          return { sent: await channelOf(this).markRead({ tenantId: p.tenantId, connectionId: p.connectionId }, p.providerMessageIds) };
        },
      },

      /**
       * Reply buttons or a list (interactive.ts), for other services (a chatbot's menu): the
       * contract has no interactive kind yet. `key` is the caller's idempotency key.
       */
      sendInteractive: {
        visibility: "public",
        params: {
          tenantId: { type: "number", integer: true, positive: true },
          connectionId: { type: "number", integer: true, positive: true },
          to: { type: "object", props: { externalId: { type: "string", min: 1, max: 191 } } },
          interactive: { type: "object" },
          key: { type: "string", optional: true, min: 1, max: 191 },
          replyToProviderId: { type: "string", optional: true, min: 1, max: 191 },
        },
        handler(this: any, ctx: Ctx<ConnectionRef & { to: { externalId: string }; interactive: InteractiveSpec; key?: string; replyToProviderId?: string }>): Promise<SendResult> {
          const p = ctx.params;
          return channelOf(this).sendInteractive({ tenantId: p.tenantId, connectionId: p.connectionId }, p.to.externalId, p.interactive, p.key, p.replyToProviderId);
        },
      },

      // Message templates (contract 1.3, manifest platform.channel.templates): template-actions.ts.
      ...templateActionsOf(PLUGIN_ID, provider.codes),

      // --- the provider's webhook (public, keyed by the connection token) -----------------------
      ...handshakeActions,
      webhook: {
        // A stream route: the gateway hands the body over unread, so the signature is checked on its exact bytes.
        rest: webhookRoute,
        access: "public",
        resource: "public",
        headers: [...provider.webhookHeaders, "content-type"],
        params: { token: connectionToken },
        async handler(this: any, ctx: Ctx<{ token: string }>): Promise<DeliveryAnswer> {
          const r = await webhookConnection(this, PLUGIN_ID, ctx);
          let body: Buffer;
          try {
            body = await readWebhookBody(bodyOf(ctx), MAX_DELIVERY_BYTES);
          } catch (err) {
            if (err instanceof WebhookBodyTooLarge) throw new Errors.MoleculerClientError(err.message, err.status, err.code);
            throw err;
          }
          const answer = await deliveriesOf(this).accept(r, body, ctx.meta.headers ?? {}, r.token);
          // Signed and an envelope (accept refused it otherwise): its template status changes are taken here.
          const templates = await takeTemplateStatuses(channelOf(this), this.templateStatuses, pushOf(this), r, body).catch((err: Error) => {
            this.logger.warn(`connection ${r.connectionId}: template status changes not taken: ${err.message}`);
            return 0;
          });
          return templates ? { ...answer, accepted: answer.accepted + templates, ignored: Math.max(0, answer.ignored - templates) } : answer;
        },
      },
    },
  },
  });
}
