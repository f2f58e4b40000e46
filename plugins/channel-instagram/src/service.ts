/**
 * Instagram Direct through Meta's official API (WHATSAPP.md §5). Each connection is one
 * Instagram professional account, reached with Business Login for Instagram or through its
 * Facebook Page (settings.ts): sends go to the Graph API with the connection's token
 * (channel.ts); Meta posts messages, reactions, postbacks, read receipts and referrals to
 * `<public URL>/api/instagram/<connection token>/webhook`, signed with the app secret
 * (deliveries.ts). The same URL answers Meta's verification handshake (GET). Files we send
 * are fetched by Meta from signed links (media-link.ts).
 */
import { Errors } from "moleculer";
import type { Context } from "moleculer";
import {
  channelContractActions,
  definePlugin,
  pluginContext,
  rateLimit,
  readWebhookBody,
  resolveToken,
  WebhookBodyTooLarge,
  type ChannelCapability,
  type ResolvedToken,
} from "@openatende/plugin-sdk";
import { InstagramChannel } from "./channel";
import { CREDENTIALS_DETAIL, uncertain } from "./failures";
import { DEFAULT_RETRY_MS } from "./graph";
import { Deliveries, SIGNATURE_HEADER, type DeliveryAnswer } from "./deliveries";
import { checkMediaLink } from "./media-link";
import { PluginStore } from "./store";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json") as { platform: { id: string; channel: { capabilities: ChannelCapability[] } } };
const PLUGIN_ID = pkg.platform.id;
const CAPABILITIES = pkg.platform.channel.capabilities;

/** Meta's deliveries are small JSON (files come by URL): anything larger is not Meta's. */
export const MAX_DELIVERY_BYTES = 1024 * 1024;

type Meta = { headers?: Record<string, string>; ip?: string; $responseType?: string; $responseHeaders?: Record<string, string> };
type Ctx<P = any> = Context<P, Meta>;
const bodyOf = (ctx: Ctx): AsyncIterable<unknown> | null => (ctx as unknown as { stream?: AsyncIterable<unknown> | null }).stream ?? null;
const connectionToken = { type: "string", min: 10, max: 64 } as const;
/** A stream route: the gateway leaves the body unread (core/src/gateway/api.service.ts). */
const WEBHOOK_ROUTE = { method: "POST" as const, path: "/instagram/:token/webhook", type: "stream" };
/** Meta's handshake parameters (qs leaves "hub.mode" as one key). */
const hubParam = { type: "string", optional: true, max: 500 } as const;

const channelOf = (svc: any): InstagramChannel => svc.channel as InstagramChannel;
const deliveriesOf = (svc: any): Deliveries => svc.deliveries as Deliveries;

async function drain(stream: AsyncIterable<unknown> | null | undefined): Promise<void> {
  if (stream) for await (const _chunk of stream) void _chunk;
}

/**
 * The connection a public URL names, when it takes calls; 404 otherwise (the body drained
 * unread). A connection the admin disconnected answers only the handshake; one waiting for a
 * new access token still takes its customers' messages (the app secret that signs them is
 * unchanged).
 */
async function publicConnection(svc: any, ctx: Ctx<{ token: string }>, route: "webhook" | "media", handshake = false): Promise<ResolvedToken> {
  await rateLimit(ctx, PLUGIN_ID, [
    { key: `${route}:token:${ctx.params.token}`, max: svc.settings.limits.perConnection, windowSeconds: 60 },
    ...(ctx.meta.ip ? [{ key: `${route}:ip:${ctx.meta.ip}`, max: svc.settings.limits.perAddress, windowSeconds: 60 }] : []),
  ]);
  const r = await resolveToken(ctx, ctx.params.token);
  const takes = !!r && r.status === "disconnected" && (handshake || channelOf(svc).liveOf(r)?.detail === CREDENTIALS_DETAIL);
  if (!r || r.status === "inactive" || (r.status === "disconnected" && !takes)) {
    await drain(bodyOf(ctx));
    throw new Errors.MoleculerClientError("Unknown webhook", 404, "ERR_CONNECTION_NOT_FOUND");
  }
  return r;
}

export const instagramChannelPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    // Settings, so a test can shorten the waits of throttled calls and lower the public limits.
    settings: { rest: "/", retryMs: DEFAULT_RETRY_MS, limits: { perConnection: 6000, perAddress: 6000 } },
    created(this: any) {
      const context = pluginContext(this);
      const core = { call: (action: string, params?: unknown, opts?: any) => this.broker.call(action, params, { ...(opts ?? {}), caller: this.fullName }) };
      this.channel = new InstagramChannel({
        core,
        logger: this.logger,
        context,
        store: new PluginStore({ redisUrl: context.redisUrl, prefix: `${context.redisPrefix}:${PLUGIN_ID}`, log: this.logger, uncertain }),
        retryMs: () => this.settings.retryMs as number[],
      });
      this.deliveries = new Deliveries(this.channel, core);
    },
    async stopped(this: any) {
      await channelOf(this).stop();
    },
    actions: {
      // --- the channel contract -------------------------------------------------------------
      ...channelContractActions((svc) => channelOf(svc), CAPABILITIES),

      // --- Meta's webhook (public, keyed by the connection token) -------------------------------
      webhookVerify: {
        rest: "GET /instagram/:token/webhook",
        access: "public",
        resource: "public",
        params: { token: connectionToken, "hub.mode": hubParam, "hub.verify_token": hubParam, "hub.challenge": hubParam, hub: { type: "object", optional: true } },
        async handler(this: any, ctx: Ctx<{ token: string } & Record<string, unknown>>): Promise<string> {
          const r = await publicConnection(this, ctx, "webhook", true);
          const challenge = deliveriesOf(this).verify(r, ctx.params);
          ctx.meta.$responseType = "text/plain; charset=utf-8";
          return challenge;
        },
      },
      webhook: {
        // A stream route: the gateway hands the body over unread, so the signature is checked on its exact bytes.
        rest: WEBHOOK_ROUTE,
        access: "public",
        resource: "public",
        headers: [SIGNATURE_HEADER, "content-type"],
        params: { token: connectionToken },
        async handler(this: any, ctx: Ctx<{ token: string }>): Promise<DeliveryAnswer> {
          const r = await publicConnection(this, ctx, "webhook");
          let body: Buffer;
          try {
            body = await readWebhookBody(bodyOf(ctx), MAX_DELIVERY_BYTES);
          } catch (err) {
            if (err instanceof WebhookBodyTooLarge) throw new Errors.MoleculerClientError(err.message, err.status, err.code);
            throw err;
          }
          try {
            return await deliveriesOf(this).accept(r, body, ctx.meta.headers ?? {});
          } catch (err) {
            const code = Number((err as { code?: unknown }).code);
            if (code >= 400 && code < 500) throw err;
            // Not taken (the core is away): an answer other than 2xx makes Meta deliver it again.
            this.logger.warn(`connection ${r.connectionId}: webhook delivery not handed over: ${(err as Error).message}`);
            throw new Errors.MoleculerRetryableError("Try again later", 503, "ERR_SERVICE_UNAVAILABLE");
          }
        },
      },

      // --- files Meta fetches for a send (signed links, media-link.ts) --------------------------
      media: {
        rest: "GET /instagram/:token/media/:expires/:signature",
        access: "public",
        resource: "public",
        params: { token: connectionToken, expires: { type: "number", integer: true, positive: true, convert: true }, signature: { type: "string", min: 20, max: 100 }, p: { type: "string", min: 1, max: 2000 } },
        async handler(this: any, ctx: Ctx<{ token: string; expires: number; signature: string; p: string }>) {
          const r = await publicConnection(this, ctx, "media");
          const settings = deliveriesOf(this).settingsOf(r);
          const path = settings ? checkMediaLink(ctx.params, settings.appSecret, r.connectionId) : null;
          const data = path ? await channelOf(this).readStoredFile(r, path).catch(() => null) : null;
          if (!path || !data) throw new Errors.MoleculerClientError("Unknown file", 404, "ERR_NOT_FOUND");
          const name = path.split("/").pop()!.replace(/^[0-9a-f-]{36}-/, "");
          ctx.meta.$responseType = "application/octet-stream";
          ctx.meta.$responseHeaders = { "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(name)}`, "Cache-Control": "private, max-age=3600" };
          return data;
        },
      },
    },
  },
});

export default instagramChannelPlugin;
