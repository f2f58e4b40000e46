/**
 * WhatsApp through a wuzapi server (asternic/wuzapi: whatsmeow behind a REST API). Each
 * connection is one wuzapi user (its session token): the plugin sets its webhook and HMAC key,
 * starts its WhatsApp client, shows the QR code (or a pairing code) until the phone links it,
 * and watches it (session.ts). wuzapi posts every message, receipt and session event to
 * POST /api/wuzapi/<connection token>/webhook, signed; sends go through its /chat API.
 * The work is in channel.ts; this file is the service and its routes.
 */
import { Errors } from "moleculer";
import type { Context } from "moleculer";
import {
  channelActionParams,
  channelContractActions,
  call,
  definePlugin,
  pluginContext,
  resolveToken,
  type ChannelCapability,
  type MarkReadParams,
  type MarkReadResult,
  type ResolvedToken,
} from "@openatende/plugin-sdk";
import { WuzapiChannel } from "./channel";
import type { Timing } from "./session";
import { PluginStore } from "./store";
import { DeliveryError, MAX_DELIVERY_BYTES, readBody, SIGNATURE_HEADER } from "./webhook";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json") as { platform: { id: string; channel: { capabilities: ChannelCapability[] } } };
const CAPABILITIES = pkg.platform.channel.capabilities;

type Meta = { headers?: Record<string, string>; user?: { tenantId?: number } | null };
type Ctx<P = any> = Context<P, Meta>;
/** The request body of a stream route (Moleculer hands it over as ctx.stream). */
const bodyOf = (ctx: Ctx): AsyncIterable<unknown> | null => (ctx as unknown as { stream?: AsyncIterable<unknown> | null }).stream ?? null;
/** A stream route: the gateway leaves the body unread (core/src/gateway/api.service.ts). */
const WEBHOOK_ROUTE = { method: "POST" as const, path: "/wuzapi/:token/webhook", type: "stream" };

const channelOf = (svc: any): WuzapiChannel => svc.channel as WuzapiChannel;
const connectionToken = { type: "string", min: 10, max: 64 } as const;

/** Drains a request body nobody will read (an unknown token's delivery). */
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
  await call(ctx, "plugins.isEnabled", { tenantId, id: pkg.platform.id, assert: true });
  const r = await resolveToken(ctx, ctx.params.token);
  if (!r || r.tenantId !== tenantId) throw new Errors.MoleculerClientError("Connection not found", 404, "ERR_CONNECTION_NOT_FOUND", { field: "token" });
  if (r.status === "inactive") throw new Errors.MoleculerClientError("The connection is inactive", 409, "ERR_CONNECTION_INACTIVE", { field: "token" });
  return r;
}

export const wuzapiChannelPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    // Poll and back-off times (ms); settings, so a test can shorten them.
    settings: { rest: "/", pollMs: 1500, healthMs: 30_000, retryMs: [2000, 5000, 15_000, 30_000, 60_000] },
    created(this: any) {
      const context = pluginContext(this);
      this.channel = new WuzapiChannel({
        core: { call: (action, params, opts) => this.broker.call(action, params, { ...(opts ?? {}), caller: this.fullName }) },
        logger: this.logger,
        context,
        store: new PluginStore({ redisUrl: context.redisUrl, prefix: `${context.redisPrefix}:channel-wuzapi`, legacyPrefix: `${context.namespace}:channel-wuzapi`, log: this.logger }),
        timing: (): Timing => ({ pollMs: this.settings.pollMs, healthMs: this.settings.healthMs, retryMs: this.settings.retryMs }),
      });
    },
    async stopped(this: any) {
      await channelOf(this).stop();
    },
    actions: {
      // --- the channel contract -------------------------------------------------------------
      ...channelContractActions((svc) => channelOf(svc), CAPABILITIES),
      /**
       * The contract's optional markRead (declared: platform.channel.receipts): the blue ticks the
       * customer sees. Best effort: a session not connected sends nothing and is no error.
       * `participant` (wuzapi's Sender, a group message's author) is this plugin's own addition.
       */
      markRead: {
        params: { ...channelActionParams.markRead, participant: { type: "string", optional: true, min: 1, max: 191 } },
        async handler(this: any, ctx: Ctx<MarkReadParams & { participant?: string }>): Promise<MarkReadResult> {
          const p = ctx.params;
          try {
            await channelOf(this).markRead({ tenantId: p.tenantId, connectionId: p.connectionId }, p.to.externalId, p.providerMessageIds, p.participant);
          } catch (err) {
            if ((err as { type?: string }).type === "ERR_SESSION_NOT_INITIALIZED") return { sent: 0 };
            throw err;
          }
          return { sent: p.providerMessageIds.length };
        },
      },

      // --- wuzapi's webhook (public, keyed by the connection token, HMAC-signed) -----------------
      webhook: {
        // A stream route: the gateway hands the body over unread, so the signature is checked on its exact bytes.
        rest: WEBHOOK_ROUTE,
        access: "public",
        resource: "public",
        headers: [SIGNATURE_HEADER, "content-type"],
        params: { token: connectionToken },
        async handler(this: any, ctx: Ctx<{ token: string }>) {
          const r = await resolveToken(ctx, ctx.params.token);
          // A disconnected connection takes nothing; an inactive one (plugin switched off…) neither.
          if (!r || r.status === "inactive" || r.status === "disconnected") {
            await drain(bodyOf(ctx));
            throw new Errors.MoleculerClientError("Unknown webhook", 404, "ERR_CONNECTION_NOT_FOUND");
          }
          let body: Buffer;
          try {
            body = await readBody(bodyOf(ctx), MAX_DELIVERY_BYTES);
          } catch (err) {
            if (err instanceof DeliveryError) throw new Errors.MoleculerClientError(err.message, err.status, err.code);
            throw err;
          }
          const channel = channelOf(this);
          try {
            const result = await channel.handleDelivery(r, ctx.params.token, body, ctx.meta.headers ?? {}, ctx);
            return { ok: true, result };
          } catch (err) {
            const code = Number((err as { code?: unknown }).code);
            if (code >= 400 && code < 500) throw err;
            // Not taken (the core is away): an answer other than 2xx lets wuzapi deliver it again (WEBHOOK_RETRY_ENABLED).
            this.logger.warn(`connection ${r.connectionId}: webhook delivery not handed over: ${(err as Error).message}`);
            throw new Errors.MoleculerRetryableError("Try again later", 503, "ERR_SERVICE_UNAVAILABLE");
          }
        },
      },

      // --- the connection form's buttons (admins of a tenant with the plugin enabled) ------------
      pairPhone: {
        rest: "POST /wuzapi/pairphone",
        access: "admin",
        params: { token: connectionToken, phone: { type: "string", min: 8, max: 24, pattern: /^\+?[\d\s().-]+$/ } },
        async handler(this: any, ctx: Ctx<{ token: string; phone: string }>) {
          const r = await ownConnection(ctx);
          const digits = ctx.params.phone.replace(/\D/g, "");
          if (digits.length < 8 || digits.length > 15) {
            throw new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", [{ type: "stringPattern", field: "phone", message: "The phone number needs its country code and 8 to 15 digits." }]);
          }
          return channelOf(this).pairPhone(r, digits, ctx);
        },
      },
      reset: {
        rest: "POST /wuzapi/reset",
        access: "admin",
        params: { token: connectionToken },
        async handler(this: any, ctx: Ctx<{ token: string }>) {
          const r = await ownConnection(ctx);
          return channelOf(this).reset(r, ctx);
        },
      },
    },
  },
});

export default wuzapiChannelPlugin;
