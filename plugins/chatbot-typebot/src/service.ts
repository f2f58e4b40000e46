/**
 * The Typebot chatbot (spec §3 "Typebot settings: enable, flow name, restart keyword, invalid
 * message"; §2 /configuracoes/typebotapi; §6 PLUS typebotapi): a connection whose Typebot
 * section is enabled hands its new tickets to this plugin (a chatbot binding, ref = the
 * connection's id), which walks each conversation with a Typebot bot over its chat API
 * (conversation.ts) and hands the ticket back to a queue when the flow ends.
 *
 * Routes, for a tenant's admins on PLUS (the gateway refuses others before they get here):
 * - GET/PUT /typebot/settings — viewer and builder URLs, API token (write-only: answered as a
 *   hint), API generation, session timeout, hand-off queue; the platform's global URLs are the
 *   defaults shown and used when the tenant leaves its own empty;
 * - POST /typebot/settings/test — the saved settings tried against Typebot (a session only
 *   registered, nothing sent to anyone), answered as ok or the failure;
 * - GET/PUT /typebot/connection — a connection's Typebot section; saving it enabled binds the
 *   connection to the plugin, disabled unbinds it;
 * - GET /typebot/failures — the last failures talking to Typebot (each also handed its ticket off).
 * Ids travel in the query or the body, not the path (see the kanban's README).
 */
import type { Context } from "moleculer";
import { checkOutboundUrl, coreApi, definePlugin, jobActions, openPluginData, pluginJobs, PluginError, type ChatbotInbound, type JobDelivery, type PlatformEventEnvelope, type PluginJobs } from "@openatende/plugin-sdk";
import { effectiveSettings, targetOf, tokenHint } from "./config";
import { EXPIRE_JOB, expireSession, onInbound, policyOf } from "./conversation";
import { TypebotStore, type ConnectionRow } from "./store";
import { startChat, TypebotError, type ApiGeneration } from "./typebot-client";

type Meta = { user?: { id: number; tenantId: number; profile: string } };
type Ctx<P = Record<string, never>> = Context<P, Meta>;

const id = { type: "number", integer: true, positive: true, convert: true } as const;
const url = { type: "string", trim: true, max: 500, optional: true, nullable: true } as const;
const route = (rest: string) => ({ rest, access: "admin" as const, tier: "PLUS" as const });

export const TIMEOUT_MAX_MINUTES = 43_200;
const PLUGIN_ID = (require("../package.json") as { platform: { id: string } }).platform.id;

interface Self {
  store: TypebotStore;
  jobs: PluginJobs;
}
const me = (svc: unknown) => svc as Self;

function tenantOf(ctx: Ctx<unknown>): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw Object.assign(new Error("ERR_SESSION_REQUIRED"), { type: "ERR_SESSION_REQUIRED", code: 401, data: {} });
  return t;
}

/**
 * An http(s) URL without a trailing slash ("" or null: none). `called`: the platform calls it
 * (the viewer), so it must pass the outbound URL policy; the builder is only opened by the
 * admin's browser, so its shape is enough.
 */
async function checkedUrl(ctx: Ctx<unknown>, field: string, value: string | null | undefined, called: boolean): Promise<string | null> {
  if (!value) return null;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new PluginError("ERR_VALIDATION", 400, { field });
  }
  if (!["http:", "https:"].includes(parsed.protocol) || parsed.username || parsed.password) throw new PluginError("ERR_VALIDATION", 400, { field });
  if (called) {
    const checked = await checkOutboundUrl(value, policyOf(ctx.service));
    if (!checked.ok) throw new PluginError("ERR_URL_NOT_ALLOWED", 400, { field, reason: checked.reason });
  }
  return value.replace(/\/+$/, "");
}

/** The connection is the tenant's (another tenant's, or none: ERR_CONNECTION_NOT_FOUND). */
async function checkConnection(ctx: Ctx<unknown>, tenantId: number, connectionId: number): Promise<void> {
  await coreApi(ctx).businessTime.state({ tenantId, target: { connectionId } });
}

async function settingsView(ctx: Ctx<unknown>, tenantId: number) {
  const s = await effectiveSettings(ctx, me(ctx.service).store, tenantId);
  return {
    viewerUrl: s.viewerUrl,
    builderUrl: s.builderUrl,
    apiGeneration: s.apiGeneration,
    sessionTimeoutMinutes: s.sessionTimeoutMinutes,
    queueId: s.queueId,
    hasToken: !!s.apiToken,
    tokenHint: tokenHint(s.apiToken),
    defaults: s.defaults,
    effective: { viewerUrl: s.viewer, builderUrl: s.builder },
  };
}

const connectionView = (connectionId: number, r: ConnectionRow | null) => ({
  connectionId,
  enabled: r?.enabled ?? false,
  publicId: r?.publicId ?? "",
  restartKeyword: r?.restartKeyword ?? "",
  invalidMessage: r?.invalidMessage ?? "",
});

export const typebotPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/" },
    created() {
      me(this).jobs = pluginJobs(this);
    },
    async started() {
      me(this).store = new TypebotStore(await openPluginData(this));
    },
    actions: {
      ...jobActions({
        /** Our session timeout passed with no message from the customer (the core's clock): the next message starts the flow again. */
        [EXPIRE_JOB](ctx: Context<JobDelivery>, job: JobDelivery) {
          return expireSession(me(ctx.service).store, job.tenantId, job.data);
        },
      }),
      getSettings: {
        ...route("GET /typebot/settings"),
        async handler(ctx: Ctx) {
          return settingsView(ctx, tenantOf(ctx));
        },
      },
      /** Saves the tenant's settings; `apiToken` absent keeps the stored one, "" or null clears it. */
      saveSettings: {
        ...route("PUT /typebot/settings"),
        params: {
          viewerUrl: url,
          builderUrl: url,
          apiToken: { type: "string", trim: true, max: 500, optional: true, nullable: true },
          apiGeneration: { type: "enum", values: ["latest", "legacy"] },
          sessionTimeoutMinutes: { type: "number", integer: true, min: 0, max: TIMEOUT_MAX_MINUTES, convert: true },
          queueId: { ...id, optional: true, nullable: true },
        },
        async handler(ctx: Ctx<{ viewerUrl?: string | null; builderUrl?: string | null; apiToken?: string | null; apiGeneration: ApiGeneration; sessionTimeoutMinutes: number; queueId?: number | null }>) {
          const tenantId = tenantOf(ctx);
          const p = ctx.params;
          const viewerUrl = await checkedUrl(ctx, "viewerUrl", p.viewerUrl, true);
          const builderUrl = await checkedUrl(ctx, "builderUrl", p.builderUrl, false);
          if (p.queueId && !(await coreApi(ctx).queues.list({ tenantId })).some((q) => q.id === p.queueId)) throw new PluginError("ERR_QUEUE_NOT_FOUND", 404, { field: "queueId", id: p.queueId });
          const store = me(this).store;
          const before = await store.settings(tenantId);
          const apiToken = p.apiToken === undefined ? (before?.apiToken ?? null) : p.apiToken || null;
          await store.saveSettings(tenantId, { viewerUrl, builderUrl, apiToken, apiGeneration: p.apiGeneration, sessionTimeoutMinutes: p.sessionTimeoutMinutes, queueId: p.queueId ?? null, updatedAt: Date.now() });
          return settingsView(ctx, tenantId);
        },
      },
      /** Tries the saved settings: a session of bot `publicId` only registered (the bot does not run). */
      testSettings: {
        ...route("POST /typebot/settings/test"),
        params: { publicId: { type: "string", trim: true, empty: false, max: 191 } },
        async handler(ctx: Ctx<{ publicId: string }>) {
          const tenantId = tenantOf(ctx);
          const s = await effectiveSettings(ctx, me(this).store, tenantId);
          const target = targetOf(s, policyOf(this));
          if (!target) throw new PluginError("ERR_TYPEBOT_NOT_CONFIGURED", 400, { field: "viewerUrl" });
          const t0 = Date.now();
          try {
            const r = await startChat(target, { publicId: ctx.params.publicId, prefilledVariables: {}, isOnlyRegistering: true });
            return { ok: true, generation: target.generation, viewerUrl: target.viewerUrl, sessionId: r.sessionId ?? null, ms: Date.now() - t0 };
          } catch (err) {
            if (!(err instanceof TypebotError)) throw err;
            return { ok: false, generation: target.generation, viewerUrl: target.viewerUrl, kind: err.kind, status: err.status, message: err.message, ms: Date.now() - t0 };
          }
        },
      },
      getConnection: {
        ...route("GET /typebot/connection"),
        params: { connectionId: id },
        async handler(ctx: Ctx<{ connectionId: number }>) {
          const tenantId = tenantOf(ctx);
          await checkConnection(ctx, tenantId, ctx.params.connectionId);
          const [row, bindings] = await Promise.all([me(this).store.connection(tenantId, ctx.params.connectionId), coreApi(ctx).chatbots.bindings({ tenantId })]);
          // Enabled is what the core routes: another bot bound to the connection since (the Chatbot section) switched this one off.
          const bound = bindings.some((b) => b.scope === "connection" && b.targetId === ctx.params.connectionId && b.pluginId === PLUGIN_ID);
          return connectionView(ctx.params.connectionId, row && { ...row, enabled: row.enabled && bound });
        },
      },
      /** Saves a connection's Typebot section; enabled binds the connection to this plugin, disabled unbinds it. */
      saveConnection: {
        ...route("PUT /typebot/connection"),
        params: {
          connectionId: id,
          enabled: { type: "boolean", convert: true },
          publicId: { type: "string", trim: true, max: 191, optional: true },
          restartKeyword: { type: "string", trim: true, max: 100, optional: true },
          invalidMessage: { type: "string", trim: true, max: 1000, optional: true, nullable: true },
        },
        async handler(ctx: Ctx<{ connectionId: number; enabled: boolean; publicId?: string; restartKeyword?: string; invalidMessage?: string | null }>) {
          const tenantId = tenantOf(ctx);
          const p = ctx.params;
          await checkConnection(ctx, tenantId, p.connectionId);
          const publicId = p.publicId ?? "";
          if (p.enabled && !publicId) throw new PluginError("ERR_VALIDATION", 400, { field: "publicId" });
          if (p.enabled && !targetOf(await effectiveSettings(ctx, me(this).store, tenantId), {})) throw new PluginError("ERR_TYPEBOT_NOT_CONFIGURED", 400, { field: "viewerUrl" });
          const row: ConnectionRow = { connectionId: p.connectionId, enabled: p.enabled, publicId, restartKeyword: p.restartKeyword ?? "", invalidMessage: p.invalidMessage || null, updatedAt: Date.now() };
          const api = coreApi(ctx);
          const was = await me(this).store.connection(tenantId, p.connectionId);
          if (p.enabled) await api.chatbots.bind({ tenantId, scope: "connection", targetId: p.connectionId, ref: String(p.connectionId) });
          else if (was?.enabled) await api.chatbots.bind({ tenantId, scope: "connection", targetId: p.connectionId, ref: null });
          await me(this).store.saveConnection(tenantId, row);
          return connectionView(p.connectionId, row);
        },
      },
      failures: {
        ...route("GET /typebot/failures"),
        async handler(ctx: Ctx) {
          return me(this).store.failures(tenantOf(ctx));
        },
      },
    },
  },
  chatbot: {
    onMessage(inbound: ChatbotInbound, ctx: Context) {
      const svc = me(ctx.service);
      return onInbound(ctx, { store: svc.store, jobs: svc.jobs, policy: policyOf(ctx.service) }, inbound);
    },
  },
  platformEvents: {
    /** An agent took the ticket, or it closed: the bot's session ends with it. */
    async "ticket.statusChanged"(e: PlatformEventEnvelope<"ticket.statusChanged">, ctx: Context) {
      if (e.data.from === "chatbot" && e.data.ticket.status !== "chatbot") await endSession(ctx, e.tenantId, e.data.ticket.id);
    },
    async "ticket.deleted"(e: PlatformEventEnvelope<"ticket.deleted">, ctx: Context) {
      await me(ctx.service).store.dropSession(e.tenantId, e.data.ticketId);
    },
  },
});

async function endSession(ctx: Context, tenantId: number, ticketId: number) {
  const store = me(ctx.service).store;
  const s = await store.session(tenantId, ticketId);
  if (s && s.status === "active") await store.saveSession(tenantId, { ...s, status: "ended", sessionId: null, choices: null });
  await me(ctx.service).jobs.cancel(ctx, { name: EXPIRE_JOB, key: String(ticketId), tenantId });
}

export default typebotPlugin;
