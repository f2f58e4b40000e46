/**
 * Birthdays of the month (spec §2 Reports, /relatorios/aniversariantes-do-mes; §9 birthday
 * messages at 9:00), a plugin of kind "report", BASIC, for supervisors and admins:
 *
 * - the tenant's contacts whose birthday falls in a month, today or this week (the tenant's
 *   time zone), with the age they turn (src/list.ts, through the core API);
 * - "send now": a message with {{name}} and {{age}} to the selected ones through a
 *   connection, one after another with a delay in seconds, run as the plugin's `send` job on
 *   the core's scheduler with its progress recorded (src/firing.ts);
 * - "schedule": the message at 9:00 local on each selected birthday not yet passed this year,
 *   one `birthday` job each, listed and cancellable;
 * - the list as Excel or PDF, streamed (src/export.ts, report-kit's writers).
 *
 * Routes under /api/relatorios/aniversariantes/… The clock the rules read is `this.clock`
 * (tests move it with the core's). Every change is pushed to the tenant's screens as
 * `birthdays.changed`.
 */
import type { Context } from "moleculer";
import { answerDownload, streamPdf, streamXlsx } from "@openatende/report-kit";
import { coreApi, definePlugin, jobActions, openPluginData, PluginError, pluginJobs, type CoreApi, type JobDelivery, type PluginJobs } from "@openatende/plugin-sdk";
import { birthdayRunAt, isoOf, parseBirthday, PERIODS, type Period } from "./birthdays";
import { BIRTHDAY_JOB, batchKey, runBatch, runBirthday, scheduledKey, SEND_JOB, type FiringPorts } from "./firing";
import { birthdaysExport, exportTexts } from "./export";
import { birthdaysOf, timeZoneOf, type BirthdayRow } from "./list";
import { BirthdayStore, type BatchRow, type ScheduledRow, type ScheduledStatus } from "./store";

export const CODE_PREFIX = "ERR_REPORT_BIRTHDAYS";
export const API_BASE = "/relatorios/aniversariantes";
export const BIRTHDAYS_CHANGED = "birthdays.changed";
export const BODY_MAX = 4000;
export const DELAY_MAX_SECONDS = 3600;
const MAX_CONTACTS = 2000;

type Meta = { user?: { id: number; tenantId: number; profile: string }; $statusCode?: number; locale?: string };
type Ctx<P = Record<string, unknown>> = Context<P, Meta>;

const id = { type: "number", integer: true, positive: true, convert: true } as const;
const PERIOD_PARAMS = {
  period: { type: "enum", values: PERIODS, optional: true },
  month: { type: "number", integer: true, min: 1, max: 12, convert: true, optional: true },
} as const;
const SEND_PARAMS = {
  ...PERIOD_PARAMS,
  contactIds: { type: "array", items: id, max: MAX_CONTACTS },
  connectionId: id,
  body: { type: "string", max: BODY_MAX * 2 },
} as const;

const route = (rest: string) => ({ rest, access: "supervisor" as const, tier: "BASIC" as const });

interface PeriodParams {
  period?: Period;
  month?: number;
}
interface SendParams extends PeriodParams {
  contactIds: number[];
  connectionId: number;
  body: string;
}

function userOf(ctx: Ctx<unknown>): { id: number; tenantId: number } {
  const u = ctx.meta.user;
  if (!u?.tenantId) throw Object.assign(new Error("ERR_SESSION_REQUIRED"), { type: "ERR_SESSION_REQUIRED", code: 401, data: {} });
  return u;
}

interface Self {
  store: BirthdayStore;
  jobs: PluginJobs;
  clock: { now(): number };
  ports: FiringPorts;
}
const me = (svc: unknown) => svc as Self;

/** The selection: a message, some contacts of the period (another tenant's contact or connection: the core's 404). */
async function selection(ctx: Ctx<SendParams>, api: CoreApi, self: Self, tenantId: number) {
  const p = ctx.params;
  const body = p.body.trim();
  if (!body || body.length > BODY_MAX) throw new PluginError(`${CODE_PREFIX}_MESSAGE_REQUIRED`, 400, { field: "body", max: BODY_MAX });
  const ids = [...new Set(p.contactIds)];
  if (!ids.length) throw new PluginError(`${CODE_PREFIX}_NO_CONTACTS`, 400, { field: "contactIds" });
  // The core's business-time question answers ERR_CONNECTION_NOT_FOUND for a connection that is not the tenant's.
  await api.businessTime.state({ tenantId, target: { connectionId: p.connectionId } });
  const now = self.clock.now();
  const timeZone = await timeZoneOf(api, tenantId);
  const { rows } = await birthdaysOf(api, self.store, tenantId, { period: p.period ?? "month", month: p.month }, now, timeZone);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.filter((x) => !byId.has(x));
  // A contact that is not the tenant's answers the core's not-found code; one of the tenant's outside the period is ours.
  for (const x of missing) await api.contacts.get({ tenantId, id: x });
  if (missing.length) throw new PluginError(`${CODE_PREFIX}_NOT_IN_PERIOD`, 400, { field: "contactIds", count: missing.length, ids: missing });
  return { body, now, timeZone, chosen: ids.map((x) => byId.get(x)!) };
}

const batchView = (b: BatchRow) => ({ id: b.id, connectionId: b.connectionId, body: b.body, delaySeconds: b.delaySeconds, status: b.status, total: b.total, sent: b.sent, failed: b.failed, nextAt: b.nextAt, createdAt: b.createdAt });
const scheduledView = (s: ScheduledRow) => ({ id: s.id, contactId: s.contactId, connectionId: s.connectionId, name: s.name, body: s.body, occursOn: s.occursOn, age: s.age, runAt: s.runAt, status: s.status, failReason: s.failReason, createdAt: s.createdAt });

export const reportBirthdaysPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/" },
    created() {
      me(this).jobs = pluginJobs(this);
    },
    async started() {
      const self = me(this);
      self.clock = self.clock ?? { now: () => Date.now() };
      self.store = new BirthdayStore(await openPluginData(this));
      const logger = this.logger;
      const api = () => coreApi(this as never);
      self.ports = {
        store: self.store,
        now: () => self.clock.now(),
        send: (p) => api().messages.sendTo(p),
        async contactName(tenantId, contactId) {
          try {
            return (await api().contacts.get({ tenantId, id: contactId })).name;
          } catch (err) {
            if ((err as { code?: number }).code === 404) return null;
            throw err;
          }
        },
        // Set per run: the next run is scheduled in the context of the job being run.
        scheduleBatch: async () => {
          throw new Error("scheduleBatch outside a job run");
        },
        async changed(tenantId, payload) {
          try {
            await api().realtime.push({ tenantId, event: BIRTHDAYS_CHANGED, payload });
          } catch (err) {
            logger.warn(`birthdays.changed not pushed to tenant ${tenantId}: ${(err as Error).message}`);
          }
        },
      };
    },
    actions: {
      ...jobActions({
        async [SEND_JOB](this: unknown, ctx: Context<JobDelivery>, job: JobDelivery) {
          const self = me(this);
          const scheduleBatch = async (tenantId: number, batchId: number, at: number) => {
            await self.jobs.schedule(ctx, { name: SEND_JOB, key: batchKey(batchId), tenantId, runAt: at, data: { id: batchId } });
          };
          return runBatch({ ...self.ports, scheduleBatch }, job.tenantId, Number(job.data.id), job.dueAt);
        },
        async [BIRTHDAY_JOB](this: unknown, _ctx: Context<JobDelivery>, job: JobDelivery) {
          return runBirthday(me(this).ports, job.tenantId, Number(job.data.id));
        },
      }),

      /** The period's birthdays (default: this month), with the time zone and today's date they were read in. */
      contacts: {
        ...route(`GET ${API_BASE}/contacts`),
        params: PERIOD_PARAMS,
        async handler(ctx: Ctx<PeriodParams>) {
          const { tenantId } = userOf(ctx);
          const api = coreApi(ctx);
          const self = me(this);
          const now = self.clock.now();
          const timeZone = await timeZoneOf(api, tenantId);
          const { dates, rows } = await birthdaysOf(api, self.store, tenantId, { period: ctx.params.period ?? "month", month: ctx.params.month }, now, timeZone);
          const iso = (i: number) => `${dates[i].y}-${String(dates[i].m).padStart(2, "0")}-${String(dates[i].d).padStart(2, "0")}`;
          return { timeZone, from: iso(0), to: iso(dates.length - 1), rows };
        },
      },

      /** The period's list as Excel or PDF, the page's columns, in the reader's language. */
      export: {
        ...route(`GET ${API_BASE}/export`),
        params: { ...PERIOD_PARAMS, format: { type: "enum", values: ["xlsx", "pdf"] } },
        async handler(ctx: Ctx<PeriodParams & { format: "xlsx" | "pdf" }>) {
          const { tenantId } = userOf(ctx);
          const api = coreApi(ctx);
          const self = me(this);
          const now = self.clock.now();
          const timeZone = await timeZoneOf(api, tenantId);
          const period = ctx.params.period ?? "month";
          const { dates, rows } = await birthdaysOf(api, self.store, tenantId, { period, month: ctx.params.month }, now, timeZone);
          const spec = birthdaysExport(rows, { period, from: isoOf(dates[0]), to: isoOf(dates[dates.length - 1]), now, timeZone, locale: ctx.meta.locale });
          const stream = ctx.params.format === "xlsx" ? streamXlsx(spec) : streamPdf(spec, { pageLabel: exportTexts(ctx.meta.locale).page });
          answerDownload(ctx, ctx.params.format, `${spec.title}.${ctx.params.format}`);
          return stream;
        },
      },

      /** Sends the message now to the selected contacts, one after another with the delay (a `send` job). */
      send: {
        ...route(`POST ${API_BASE}/send`),
        params: { ...SEND_PARAMS, delaySeconds: { type: "number", integer: true, convert: true, optional: true } },
        async handler(ctx: Ctx<SendParams & { delaySeconds?: number }>) {
          const user = userOf(ctx);
          const self = me(this);
          const delaySeconds = ctx.params.delaySeconds ?? 0;
          if (delaySeconds < 0 || delaySeconds > DELAY_MAX_SECONDS) throw new PluginError(`${CODE_PREFIX}_DELAY_INVALID`, 400, { field: "delaySeconds", max: DELAY_MAX_SECONDS });
          const s = await selection(ctx, coreApi(ctx), self, user.tenantId);
          const contacts = s.chosen.map((r: BirthdayRow) => ({ contactId: r.id, name: r.name, age: r.age }));
          const batch = await self.store.createBatch(user.tenantId, { connectionId: ctx.params.connectionId, body: s.body, delaySeconds, createdBy: user.id }, contacts, s.now);
          await self.jobs.schedule(ctx, { name: SEND_JOB, key: batchKey(batch.id), tenantId: user.tenantId, runAt: s.now, data: { id: batch.id } });
          ctx.meta.$statusCode = 201;
          return batchView(batch);
        },
      },

      /** The latest sends, newest first. */
      sends: {
        ...route(`GET ${API_BASE}/sends`),
        params: {},
        async handler(ctx: Ctx) {
          return (await me(this).store.recentBatches(userOf(ctx).tenantId)).map(batchView);
        },
      },

      /** One send with its contacts' progress. */
      sendOne: {
        ...route(`GET ${API_BASE}/sends/one`),
        params: { id },
        async handler(ctx: Ctx<{ id: number }>) {
          const { tenantId } = userOf(ctx);
          const store = me(this).store;
          const b = await store.getBatch(tenantId, ctx.params.id);
          const items = await store.itemsOf(tenantId, b.id);
          return { ...batchView(b), items: items.map((i) => ({ contactId: i.contactId, name: i.name, age: i.age, status: i.status, failReason: i.failReason, sentAt: i.sentAt })) };
        },
      },

      /**
       * Schedules the message at 9:00 on each selected birthday not yet passed this year (one
       * `birthday` job each); passed ones and ones already scheduled are skipped and named.
       */
      schedule: {
        ...route(`POST ${API_BASE}/schedule`),
        params: SEND_PARAMS,
        async handler(ctx: Ctx<SendParams>) {
          const user = userOf(ctx);
          const self = me(this);
          const s = await selection(ctx, coreApi(ctx), self, user.tenantId);
          const pending = await self.store.pendingFor(user.tenantId, s.chosen.map((r) => r.id));
          const created: ScheduledRow[] = [];
          const skipped: Array<{ contactId: number; reason: "passed" | "scheduled" }> = [];
          for (const r of s.chosen) {
            const b = parseBirthday(r.date)!;
            const runAt = birthdayRunAt(b, s.now, s.timeZone);
            if (runAt === null) skipped.push({ contactId: r.id, reason: "passed" });
            else if (pending.has(`${r.id}:${r.date}`)) skipped.push({ contactId: r.id, reason: "scheduled" });
            else created.push(await self.store.createScheduled(user.tenantId, { contactId: r.id, connectionId: ctx.params.connectionId, name: r.name, body: s.body, occursOn: r.date, age: r.age, runAt, createdBy: user.id }, s.now));
          }
          if (!created.length) throw new PluginError(`${CODE_PREFIX}_NOTHING_TO_SCHEDULE`, 409, { skipped });
          for (const row of created) await self.jobs.schedule(ctx, { name: BIRTHDAY_JOB, key: scheduledKey(row.id), tenantId: user.tenantId, runAt: row.runAt, data: { id: row.id } });
          await self.ports.changed(user.tenantId, { kind: "scheduled", id: created[0].id });
          ctx.meta.$statusCode = 201;
          return { scheduled: created.map(scheduledView), skipped };
        },
      },

      /** The tenant's birthday messages: pending ones by default, soonest first. */
      scheduled: {
        ...route(`GET ${API_BASE}/scheduled`),
        params: { status: { type: "string", optional: true, max: 60, pattern: /^((pending|sent|failed|cancelled)(,(pending|sent|failed|cancelled))*)?$/ } },
        async handler(ctx: Ctx<{ status?: string }>) {
          const status = (ctx.params.status ? ctx.params.status.split(",") : ["pending"]) as ScheduledStatus[];
          return (await me(this).store.listScheduled(userOf(ctx).tenantId, status)).map(scheduledView);
        },
      },

      /** Cancels a pending birthday message (its job too). */
      cancel: {
        ...route(`POST ${API_BASE}/scheduled/cancel`),
        params: { id },
        async handler(ctx: Ctx<{ id: number }>) {
          const { tenantId } = userOf(ctx);
          const self = me(this);
          const row = await self.store.getScheduled(tenantId, ctx.params.id);
          if (!(await self.store.settleScheduled(tenantId, row.id, { status: "cancelled", updatedAt: self.clock.now() }))) {
            throw new PluginError(`${CODE_PREFIX}_SCHEDULE_NOT_PENDING`, 409, { id: row.id, status: row.status });
          }
          await self.jobs.cancel(ctx, { name: BIRTHDAY_JOB, key: scheduledKey(row.id), tenantId });
          await self.ports.changed(tenantId, { kind: "scheduled", id: row.id });
          return scheduledView(await self.store.getScheduled(tenantId, row.id));
        },
      },
    },
  },
});

export default reportBirthdaysPlugin;
