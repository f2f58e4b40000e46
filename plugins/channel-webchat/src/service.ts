/**
 * Web chat channel. A visitor's browser talks to the widget routes under /api/webchat/<token>
 * (public, keyed by the connection's token); messages go to the core through the SDK's
 * `inbound`, and what agents send waits in an outbox the widget long-polls.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { randomUUID } from "node:crypto";
import type { Context } from "moleculer";
import {
  definePlugin,
  inbound,
  reportStatus,
  checkOutbound,
  channelActionParams,
  CORE_CHANNEL_ACTIONS,
  rateLimit,
  type RateLimitRule,
  type ChannelCapability,
  type ConnectParams,
  type ResolvedToken,
  type SendParams,
  type SendResult,
  type StatusResult,
  type TestParams,
  type TestResult,
} from "@openatende/plugin-sdk";
import { Outbox } from "./outbox";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json") as { platform: { id: string; channel: { capabilities: ChannelCapability[] } } };

const WIDGET_JS = fs.readFileSync(path.join(__dirname, "widget.js"), "utf8");
const CAPABILITIES = pkg.platform.channel.capabilities;
const PLUGIN_ID = pkg.platform.id;
const POLL_MAX_MS = 25_000;

type Ctx<P = any> = Context<P, { $responseType?: string; $responseHeaders?: Record<string, string>; $statusCode?: number; ip?: string }>;

/**
 * How much the public routes take, per minute. Every new visitor's first message is a new
 * contact and ticket in the tenant's lists, so one address may open only a few visitors and
 * send a few messages a minute (an office behind one NAT still fits); a connection's own cap
 * bounds what many addresses together can push into one tenant. Past a cap the route answers
 * 429 ERR_RATE_LIMITED with Retry-After, counted in the core's Redis before the core is asked
 * anything else, so a flood costs the tenant's agents nothing.
 */
export const WEBCHAT_LIMITS = {
  sessionsPerAddress: 20,
  sessionsPerConnection: 600,
  messagesPerAddress: 120,
  messagesPerVisitor: 60,
  messagesPerConnection: 1200,
  pollsPerAddress: 300,
};
const WINDOW = 60;

/** The rules of one route: the caller's address (when the gateway knows it) and the connection token, plus extras. */
function limits(ctx: Ctx, route: string, perAddress: number, perToken: number, token: string, extra: RateLimitRule[] = []): RateLimitRule[] {
  const rules: RateLimitRule[] = [{ key: `${route}:token:${token}`, max: perToken, windowSeconds: WINDOW }, ...extra];
  if (ctx.meta.ip) rules.unshift({ key: `${route}:ip:${ctx.meta.ip}`, max: perAddress, windowSeconds: WINDOW });
  return rules;
}

const tokenParam = { token: { type: "string", min: 10, max: 64 } };
const visitorParam = { visitorId: { type: "uuid" } };

function publicError(type: string, code: number) {
  return Object.assign(new Error(type), { type, code, data: {} });
}

export const webchatChannelPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/" },
    created(this: any) {
      this.outbox = new Outbox();
      this.connected = new Map<number, string>();
    },
    started(this: any) {
      this.sweeper = setInterval(() => this.outbox.sweep(), 60 * 60 * 1000);
      this.sweeper.unref();
    },
    stopped(this: any) {
      clearInterval(this.sweeper);
      this.outbox.wakeAll();
    },
    methods: {
      async resolve(this: any, ctx: Ctx, token: string): Promise<ResolvedToken> {
        const r = (await ctx.call(CORE_CHANNEL_ACTIONS.resolveToken, { token })) as ResolvedToken | null;
        if (!r || r.status === "inactive") throw publicError("ERR_CONNECTION_NOT_FOUND", 404);
        return r;
      },
    },
    actions: {
      // --- the channel contract -------------------------------------------------------------
      connect: {
        params: channelActionParams.connect,
        async handler(this: any, ctx: Ctx<ConnectParams>): Promise<StatusResult> {
          this.connected.set(ctx.params.connectionId, "connected");
          await reportStatus(ctx, { tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId, status: "connected" });
          return { status: "connected" };
        },
      },
      disconnect: {
        params: channelActionParams.disconnect,
        async handler(this: any, ctx: Ctx<{ tenantId: number; connectionId: number }>): Promise<StatusResult> {
          this.connected.set(ctx.params.connectionId, "disconnected");
          await reportStatus(ctx, { tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId, status: "disconnected" });
          return { status: "disconnected" };
        },
      },
      status: {
        params: channelActionParams.status,
        handler(this: any, ctx: Ctx<{ connectionId: number }>): StatusResult {
          return { status: (this.connected.get(ctx.params.connectionId) as StatusResult["status"]) ?? "disconnected" };
        },
      },
      send: {
        params: channelActionParams.send,
        handler(this: any, ctx: Ctx<SendParams>): SendResult {
          const { connectionId, to, message } = ctx.params;
          checkOutbound(CAPABILITIES, message);
          const key = `${connectionId}:${to.externalId}`;
          const id = `wc-${randomUUID()}`;
          const timestamp = Date.now();
          switch (message.kind) {
            case "text":
              this.outbox.push(key, { id, kind: "text", body: message.body, timestamp });
              break;
            case "edit":
              this.outbox.push(key, { id, kind: "edit", targetId: message.targetProviderId, body: message.body, timestamp });
              break;
            case "delete":
              this.outbox.push(key, { id, kind: "delete", targetId: message.targetProviderId, timestamp });
              break;
            case "reaction":
              this.outbox.push(key, { id, kind: "reaction", targetId: message.targetProviderId, emoji: message.emoji, timestamp });
              break;
          }
          return { providerMessageId: id, timestamp };
        },
      },
      test: {
        params: channelActionParams.test,
        handler(_ctx: Ctx<TestParams>): TestResult {
          // Nothing external to reach: the widget talks to this server.
          return { ok: true };
        },
      },

      // --- the widget's routes (public, keyed by the connection token) -------------------
      widget: {
        rest: "GET /webchat/widget.js",
        access: "public",
        cors: "public",
        handler(ctx: Ctx) {
          ctx.meta.$responseType = "application/javascript; charset=utf-8";
          ctx.meta.$responseHeaders = { "Cache-Control": "public, max-age=300" };
          return WIDGET_JS;
        },
      },
      config: {
        rest: "GET /webchat/:token/config",
        access: "public",
        cors: "public",
        resource: "public",
        params: tokenParam,
        async handler(this: any, ctx: Ctx<{ token: string }>) {
          const r = await this.resolve(ctx, ctx.params.token);
          const s = r.settings as Record<string, unknown>;
          return {
            title: s.title ?? r.name,
            footerText: s.footerText ?? "",
            mainColor: s.mainColor ?? "#1f6feb",
            iconUrl: s.iconUrl ?? null,
            autoOpen: !!s.autoOpen,
            offerHelp: !!s.offerHelp,
            helpMessage: s.helpMessage ?? null,
            notificationSoundUrl: s.notificationSoundUrl ?? null,
          };
        },
      },
      page: {
        rest: "GET /webchat/:token/page",
        access: "public",
        resource: "public",
        params: tokenParam,
        async handler(this: any, ctx: Ctx<{ token: string }>) {
          const r = await this.resolve(ctx, ctx.params.token);
          ctx.meta.$responseType = "text/html; charset=utf-8";
          // The API's headers forbid scripts; this preview page runs only the widget's own file.
          ctx.meta.$responseHeaders = { "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:" };
          const title = String(r.name).replace(/[<>&"]/g, "");
          return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>Pré-visualização do chat do site.</p><script src="../widget.js" data-token="${ctx.params.token}"></script></body></html>`;
        },
      },
      session: {
        rest: "POST /webchat/:token/session",
        access: "public",
        cors: "public",
        resource: "public",
        params: { ...tokenParam, name: { type: "string", max: 120, optional: true } },
        async handler(this: any, ctx: Ctx<{ token: string }>) {
          await rateLimit(ctx, PLUGIN_ID, limits(ctx, "session", WEBCHAT_LIMITS.sessionsPerAddress, WEBCHAT_LIMITS.sessionsPerConnection, ctx.params.token));
          await this.resolve(ctx, ctx.params.token);
          // The visitor id is random and unguessable: it is the visitor's only key.
          return { visitorId: randomUUID() };
        },
      },
      visitorSend: {
        rest: "POST /webchat/:token/messages",
        access: "public",
        cors: "public",
        resource: "public",
        params: {
          ...tokenParam,
          ...visitorParam,
          body: { type: "string", min: 1, max: 4000, trim: true },
          clientMessageId: { type: "string", min: 1, max: 64, optional: true },
          name: { type: "string", max: 120, optional: true },
        },
        async handler(this: any, ctx: Ctx<{ token: string; visitorId: string; body: string; clientMessageId?: string; name?: string }>) {
          const { token, visitorId } = ctx.params;
          await rateLimit(
            ctx,
            PLUGIN_ID,
            limits(ctx, "message", WEBCHAT_LIMITS.messagesPerAddress, WEBCHAT_LIMITS.messagesPerConnection, token, [
              { key: `message:visitor:${visitorId}`, max: WEBCHAT_LIMITS.messagesPerVisitor, windowSeconds: WINDOW },
            ]),
          );
          const r = await this.resolve(ctx, token);
          const res = await inbound(ctx, {
            tenantId: r.tenantId,
            connectionId: r.connectionId,
            // The widget's own id makes a retried send idempotent.
            providerMessageId: `${ctx.params.visitorId}:${ctx.params.clientMessageId ?? randomUUID()}`,
            timestamp: Date.now(),
            from: { externalId: ctx.params.visitorId, name: ctx.params.name ?? `Visitante ${ctx.params.visitorId.slice(0, 4)}` },
            body: ctx.params.body,
          });
          ctx.meta.$statusCode = 201;
          return { ok: true, duplicate: res.duplicate };
        },
      },
      visitorPoll: {
        rest: "GET /webchat/:token/messages",
        access: "public",
        cors: "public",
        resource: "public",
        params: {
          ...tokenParam,
          ...visitorParam,
          after: { type: "number", integer: true, min: 0, convert: true, optional: true },
          wait: { type: "number", integer: true, min: 0, max: 30, convert: true, optional: true },
        },
        async handler(this: any, ctx: Ctx<{ token: string; visitorId: string; after?: number; wait?: number }>) {
          if (ctx.meta.ip) await rateLimit(ctx, PLUGIN_ID, [{ key: `poll:ip:${ctx.meta.ip}`, max: WEBCHAT_LIMITS.pollsPerAddress, windowSeconds: WINDOW }]);
          const r = await this.resolve(ctx, ctx.params.token);
          const items = await this.outbox.poll(`${r.connectionId}:${ctx.params.visitorId}`, ctx.params.after ?? 0, Math.min((ctx.params.wait ?? 0) * 1000, POLL_MAX_MS));
          return { items };
        },
      },
    },
  },
});

export default webchatChannelPlugin;
