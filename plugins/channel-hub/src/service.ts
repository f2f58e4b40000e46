/**
 * Hub channels through NotificaMe (INTEGRATIONS.md §2): Facebook Messenger, Instagram, e-mail,
 * WhatsApp, Telegram, Mercado Livre, OLX and web chat channels connected in the hub's panel,
 * each a connection here with its variant and connection token (the hub channel's id). Sends go
 * through the hub's REST API; the hub posts messages and statuses to
 * POST /api/hub/<connection token>/webhook/<secret>, a subscription made on connect.
 * The work is in channel.ts; this file is the service and its routes.
 */
import { Errors } from "moleculer";
import type { Context } from "moleculer";
import {
  call,
  definePlugin,
  pluginContext,
  rateLimit,
  resolveToken,
  type ChannelCapability,
  type ResolvedToken,
  channelContractActions,
} from "@openatende/plugin-sdk";
import { HubChannel, webhookPath } from "./channel";
import { checkMediaLink } from "./media-link";
import { hubSentLog } from "./sent-log";
import { DeliveryError, drain, readBody, secretMatches } from "./webhook";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json") as { platform: { id: string; channel: { capabilities: ChannelCapability[] } } };
const PLUGIN_ID = pkg.platform.id;
const CAPABILITIES = pkg.platform.channel.capabilities;

/** Per minute: one address, one connection (a busy page posts a message and a few statuses per message). */
export const WEBHOOK_LIMITS = { perAddress: 600, perConnection: 3000, mediaPerConnection: 600 };

type Meta = { headers?: Record<string, string>; user?: { tenantId?: number } | null; ip?: string; $responseType?: string; $responseHeaders?: Record<string, string> };
type Ctx<P = any> = Context<P, Meta>;
const bodyOf = (ctx: Ctx): AsyncIterable<unknown> | null => (ctx as unknown as { stream?: AsyncIterable<unknown> | null }).stream ?? null;
/** A stream route: the gateway leaves the body unread (core/src/gateway/api.service.ts). */
const WEBHOOK_ROUTE = { method: "POST" as const, path: "/hub/:token/webhook/:secret", type: "stream" };
const channelOf = (svc: any): HubChannel => svc.channel as HubChannel;
const connectionToken = { type: "string", min: 10, max: 64 } as const;
const unknownWebhook = () => new Errors.MoleculerClientError("Unknown webhook", 404, "ERR_CONNECTION_NOT_FOUND");

type Limits = typeof WEBHOOK_LIMITS;

/** Counts a public call against the address and the connection token (before anything is looked up). */
function limit(ctx: Ctx, limits: Limits, route: "webhook" | "media", token: string) {
  const rules = [{ key: `${route}:token:${token}`, max: route === "media" ? limits.mediaPerConnection : limits.perConnection, windowSeconds: 60 }];
  if (ctx.meta.ip) rules.unshift({ key: `${route}:ip:${ctx.meta.ip}`, max: limits.perAddress, windowSeconds: 60 });
  return rateLimit(ctx, PLUGIN_ID, rules);
}

/** A connection the hub may post to: known, and neither switched off nor disconnected. */
async function liveConnection(ctx: Ctx<{ token: string }>): Promise<ResolvedToken | null> {
  const r = await resolveToken(ctx, ctx.params.token);
  return r && r.status !== "inactive" && r.status !== "disconnected" ? r : null;
}

export const hubChannelPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    // The public routes' limits per minute: settings, so a test can lower them.
    settings: { rest: "/", limits: { ...WEBHOOK_LIMITS } },
    created(this: any) {
      const context = pluginContext(this);
      this.channel = new HubChannel({
        core: { call: (action, params, opts) => this.broker.call(action, params, { ...(opts ?? {}), caller: this.fullName }) },
        logger: this.logger,
        context,
        sentLog: hubSentLog({ redisUrl: context.redisUrl, prefix: `${context.redisPrefix}:${PLUGIN_ID}`, log: this.logger }),
      });
    },
    async stopped(this: any) {
      await channelOf(this).stop();
    },
    actions: {
      // --- the channel contract -------------------------------------------------------------
      ...channelContractActions((svc) => channelOf(svc), CAPABILITIES),

      // --- the hub's webhook (public; the connection's secret in the path) ----------------------
      webhook: {
        // A stream route: the body is read only once the secret matched, and bounded.
        rest: WEBHOOK_ROUTE,
        access: "public",
        resource: "public",
        headers: ["content-type"],
        params: { token: connectionToken, secret: { type: "string", min: 1, max: 200 } },
        async handler(this: any, ctx: Ctx<{ token: string; secret: string }>) {
          try {
            await limit(ctx, this.settings.limits, "webhook", ctx.params.token);
          } catch (err) {
            await drain(bodyOf(ctx));
            throw err;
          }
          const r = await liveConnection(ctx);
          if (!r) {
            await drain(bodyOf(ctx));
            throw unknownWebhook();
          }
          const channel = channelOf(this);
          const secret = channel.secretOf(r);
          if (secret === null) {
            await drain(bodyOf(ctx));
            throw unknownWebhook();
          }
          // A wrong secret gets nothing read (handleDelivery checks it again, for callers without a body stream).
          if (!secretMatches(ctx.params.secret, secret)) {
            await drain(bodyOf(ctx));
            throw new Errors.MoleculerClientError("Wrong webhook secret", 401, "ERR_TOKEN_INVALID", { reason: "webhook-secret" });
          }
          let body: Buffer;
          try {
            body = await readBody(bodyOf(ctx));
          } catch (err) {
            if (err instanceof DeliveryError) throw new Errors.MoleculerClientError(err.message, err.status, err.code);
            throw err;
          }
          try {
            return { ok: true, result: await channel.handleDelivery(r, ctx.params.secret, body, ctx) };
          } catch (err) {
            const code = Number((err as { code?: unknown }).code);
            if (code >= 400 && code < 500) throw err;
            // Not taken (the core is away): an answer other than 2xx makes the hub deliver it again.
            this.logger.warn(`connection ${r.connectionId}: webhook delivery not handed over: ${(err as Error).message}`);
            throw new Errors.MoleculerRetryableError("Try again later", 503, "ERR_SERVICE_UNAVAILABLE");
          }
        },
      },

      // --- files the hub fetches for a send (signed links, media-link.ts) -----------------------
      media: {
        rest: "GET /hub/:token/media/:expires/:signature",
        access: "public",
        resource: "public",
        params: { token: connectionToken, expires: { type: "number", integer: true, positive: true, convert: true }, signature: { type: "string", min: 20, max: 100 }, p: { type: "string", min: 1, max: 2000 } },
        async handler(this: any, ctx: Ctx<{ token: string; expires: number; signature: string; p: string }>) {
          await limit(ctx, this.settings.limits, "media", ctx.params.token);
          const r = await liveConnection(ctx);
          const secret = r ? channelOf(this).secretOf(r) : null;
          const path = r && secret ? checkMediaLink(ctx.params, secret, r.connectionId) : null;
          if (!r || !path) throw new Errors.MoleculerClientError("Unknown file", 404, "ERR_NOT_FOUND");
          const data = await channelOf(this)
            .readStoredFile(r, path)
            .catch(() => null);
          if (!data) throw new Errors.MoleculerClientError("Unknown file", 404, "ERR_NOT_FOUND");
          const name = path.split("/").pop()!.replace(/^[0-9a-f-]{36}-/, "");
          ctx.meta.$responseType = "application/octet-stream";
          ctx.meta.$responseHeaders = { "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(name)}`, "Cache-Control": "private, max-age=3600" };
          return data;
        },
      },

      // --- the connection form: the webhook address to copy (admins of the connection's tenant) --
      webhookUrl: {
        rest: "GET /hub/webhook-url",
        access: "admin",
        params: { token: connectionToken },
        async handler(this: any, ctx: Ctx<{ token: string }>) {
          const tenantId = ctx.meta.user?.tenantId;
          if (!tenantId) throw new Errors.MoleculerClientError("Sign in as an administrator", 401, "ERR_SESSION_REQUIRED");
          await call(ctx, "plugins.isEnabled", { tenantId, id: PLUGIN_ID, assert: true });
          const r = await resolveToken(ctx, ctx.params.token);
          // Another tenant's connection, or one of another type, is not found.
          if (!r || r.tenantId !== tenantId) throw new Errors.MoleculerClientError("Connection not found", 404, "ERR_CONNECTION_NOT_FOUND", { field: "token" });
          const secret = channelOf(this).secretOf(r);
          if (!secret) throw new Errors.MoleculerClientError("Connection not found", 404, "ERR_CONNECTION_NOT_FOUND", { field: "token" });
          const path = webhookPath(ctx.params.token, secret);
          const base = pluginContext(this).publicUrl?.replace(/\/+$/, "");
          return { path, url: base ? `${base}${path}` : null };
        },
      },
    },
  },
});

export default hubChannelPlugin;
