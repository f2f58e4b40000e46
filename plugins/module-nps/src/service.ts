/**
 * The NPS survey (spec §2 /configuracoes/nps and /home's NPS block, §3 NPS settings, §4 NPS
 * flow, §5 NPS reply). A FREE module: §6 gates no tier on it.
 *
 * - ticket.closed → the request after the farewell, a reply from 0 to the scale's maximum, the
 *   thanks, one retry, the timeout (src/flow.ts, src/replies.ts; rules in src/scale.ts);
 * - routes under /api/nps: the settings (admins), the statistics and the surveys (supervisors
 *   and admins). Every query is the caller's tenant's: another tenant's survey answers 404.
 */
import type { Context } from "moleculer";
import { coreApi, definePlugin, jobActions, openPluginData, PluginError, pluginJobs, type JobDelivery, type PluginJobs } from "@openatende/plugin-sdk";
import { onTicketClosed, REQUEST_JOB, runRequest, runTimeout, TIMEOUT_JOB, type Flow } from "./flow";
import { onClaimedInbound } from "./replies";
import { SCALE_MAX, SCALE_MIN } from "./scale";
import { checkSettings, MESSAGE_MAX, SettingsStore, TIMEOUT_MAX, TIMEOUT_MIN, type NpsSettings } from "./settings";
import { statsOf } from "./stats";
import { STATES, SurveyStore, type SurveyState } from "./store";

type Meta = { user?: { id: number; tenantId: number; profile: string } };
type Ctx<P = Record<string, unknown>> = Context<P, Meta>;

function tenantOf(ctx: Ctx<unknown>): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw Object.assign(new Error("ERR_SESSION_REQUIRED"), { type: "ERR_SESSION_REQUIRED", code: 401, data: {} });
  return t;
}

interface Self {
  jobs: PluginJobs;
  flow: Flow;
}
const me = (svc: unknown) => svc as Self;

const id = { type: "number", integer: true, positive: true, convert: true } as const;
const optId = { ...id, optional: true } as const;
const message = { type: "string", optional: true, max: MESSAGE_MAX } as const;

const dateParam = (s: string | undefined, field: string): number | undefined => {
  if (!s) return undefined;
  const t = Date.parse(s);
  if (!Number.isFinite(t)) throw new PluginError("ERR_VALIDATION", 400, { field });
  return t;
};

const limits = { scaleMin: SCALE_MIN, scaleMax: SCALE_MAX, timeoutMin: TIMEOUT_MIN, timeoutMax: TIMEOUT_MAX };

export const npsPlugin = definePlugin({
  pkgJson: require("../package.json"),
  platformEvents: {
    async "ticket.closed"(envelope, ctx) {
      const self = me(ctx.service);
      await onTicketClosed(ctx, self.flow, envelope);
    },
  },
  hooks: {
    onClaimedInbound(inbound, ctx) {
      return onClaimedInbound(ctx, me(ctx.service).flow, inbound);
    },
  },
  service: {
    settings: { rest: "/" },
    created() {
      me(this).jobs = pluginJobs(this);
    },
    async started() {
      const data = await openPluginData(this);
      const logger = this.logger;
      me(this).flow = { settings: new SettingsStore(data), surveys: new SurveyStore(data), jobs: me(this).jobs, warn: (m) => logger.warn(m) };
    },
    actions: {
      ...jobActions({
        [REQUEST_JOB](this: unknown, ctx: Context<JobDelivery>, job: JobDelivery) {
          return runRequest(ctx, me(this).flow, job);
        },
        [TIMEOUT_JOB](this: unknown, ctx: Context<JobDelivery>, job: JobDelivery) {
          return runTimeout(ctx, me(this).flow, job);
        },
      }),
      getSettings: {
        rest: "GET /nps/settings",
        access: "admin",
        async handler(ctx: Ctx) {
          return { ...(await me(this).flow.settings.get(tenantOf(ctx))), limits };
        },
      },
      /** Saves the fields given (the rest as stored); a message left blank or a value out of range answers its code. */
      saveSettings: {
        rest: "PUT /nps/settings",
        access: "admin",
        params: {
          enabled: { type: "boolean", optional: true },
          scale: { type: "number", integer: true, optional: true, convert: true },
          timeoutMinutes: { type: "number", integer: true, optional: true, convert: true },
          requestMessage: message,
          thanksMessage: message,
          invalidMessage: message,
          timeoutMessage: message,
        },
        async handler(ctx: Ctx<Partial<NpsSettings>>) {
          const tenantId = tenantOf(ctx);
          const store = me(this).flow.settings;
          const next = checkSettings(await store.get(tenantId), ctx.params);
          return { ...(await store.save(tenantId, next, Date.now())), limits };
        },
      },
      /** The NPS of the answers given in [from, to] (ISO dates, both optional), in total, by queue and by user. */
      stats: {
        rest: "GET /nps/stats",
        access: "supervisor",
        params: { from: { type: "string", optional: true, max: 40 }, to: { type: "string", optional: true, max: 40 } },
        async handler(ctx: Ctx<{ from?: string; to?: string }>) {
          const tenantId = tenantOf(ctx);
          const from = dateParam(ctx.params.from, "from");
          const to = dateParam(ctx.params.to, "to");
          if (from !== undefined && to !== undefined && to < from) throw new PluginError("ERR_NPS_RANGE_INVALID", 400, { field: "to" });
          const settings = await me(this).flow.settings.get(tenantId);
          const stats = await statsOf(coreApi(ctx), me(this).flow.surveys, tenantId, { from, to });
          return { enabled: settings.enabled, scale: settings.scale, ...stats };
        },
      },
      /** The tenant's surveys, newest close first. */
      surveys: {
        rest: "GET /nps/surveys",
        access: "supervisor",
        params: {
          state: { type: "string", optional: true, max: 120, pattern: /^[a-zA-Z,]*$/ },
          queueId: optId,
          userId: optId,
          page: { type: "number", integer: true, min: 1, max: 100_000, optional: true, convert: true },
          limit: { type: "number", integer: true, min: 1, max: 100, optional: true, convert: true },
        },
        async handler(ctx: Ctx<{ state?: string; queueId?: number; userId?: number; page?: number; limit?: number }>) {
          const tenantId = tenantOf(ctx);
          const p = ctx.params;
          const state = p.state ? (p.state.split(",").filter(Boolean) as SurveyState[]) : undefined;
          if (state?.some((s) => !STATES.includes(s))) throw new PluginError("ERR_VALIDATION", 400, { field: "state" });
          const limit = p.limit ?? 20;
          const where = { state, queueId: p.queueId, userId: p.userId };
          const store = me(this).flow.surveys;
          const [rows, count] = await Promise.all([store.list(tenantId, where, limit, ((p.page ?? 1) - 1) * limit), store.count(tenantId, where)]);
          return { rows, count, hasMore: (p.page ?? 1) * limit < count };
        },
      },
      oneSurvey: {
        rest: "GET /nps/surveys/one",
        access: "supervisor",
        params: { id },
        async handler(ctx: Ctx<{ id: number }>) {
          return me(this).flow.surveys.get(tenantOf(ctx), ctx.params.id);
        },
      },
    },
  },
});

export default npsPlugin;
