/**
 * Scheduled and recurring messages (spec §2 /mensagem-agendadas, §3, §4, §5, §7): a text for a
 * contact, sent through a connection at a date, once or daily / weekly / biweekly / monthly /
 * on chosen weekdays until an end date, by the core's scheduler (src/firing.ts: exactly once
 * per occurrence). Routes under /api/scheduled-messages for any signed-in user of the tenant
 * (FREE: §6 gates no tier on it); ids travel in the query or the body, as in the other modules.
 * Only a pending message is edited or cancelled (ERR_SCHEDULE_NOT_PENDING, 409); every change
 * is pushed to the tenant's screens as `scheduled.changed` (the ticket's list in the chat
 * drops a message once sent).
 */
import type { Context } from "moleculer";
import { coreApi, definePlugin, jobActions, openPluginData, PluginError, pluginJobs, type JobDelivery, type PluginJobs } from "@openatende/plugin-sdk";
import { fire, FIRE_ATTEMPTS, FIRE_JOB, jobKey, type Firing } from "./firing";
import { RECURRENCES } from "./recurrence";
import { assertPending, BODY_MAX, checkSchedule, STATUSES, TYPES, type ScheduleInput, type Status } from "./rules";
import { ScheduleStore, type ListFilters, type MessageRow } from "./store";
import { viewOf } from "./view";

/** The realtime event every change pushes (the UI hears it as runtime.realtime.on("scheduled.changed")). */
export const SCHEDULED_CHANGED = "scheduled.changed";

type Meta = { user?: { id: number; tenantId: number; profile: string }; $statusCode?: number };
type Ctx<P = Record<string, unknown>> = Context<P, Meta>;

const id = { type: "number", integer: true, positive: true, convert: true } as const;
const optId = { ...id, optional: true } as const;
const when = { type: "multi", optional: true, rules: [{ type: "number", integer: true, min: 0 }, { type: "string", max: 40 }] } as const;
const fields = {
  body: { type: "string", optional: true, max: BODY_MAX },
  scheduleDate: when,
  contactId: optId,
  connectionId: optId,
  userId: optId,
  type: { type: "enum", values: TYPES, optional: true },
  recurrence: { type: "enum", values: RECURRENCES, optional: true, nullable: true },
  customDays: { type: "array", optional: true, nullable: true, max: 7, items: { type: "number", integer: true, min: 0, max: 6, convert: true } },
  recurrentUntil: { ...when, nullable: true },
  timeZone: { type: "string", optional: true, max: 64, pattern: /^[A-Za-z0-9_+\-/]+$/ },
} as const;

const route = (rest: string) => ({ rest, access: "user" as const });

function tenantOf(ctx: Ctx<unknown>): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw Object.assign(new Error("ERR_SESSION_REQUIRED"), { type: "ERR_SESSION_REQUIRED", code: 401, data: {} });
  return t;
}

interface Self {
  store: ScheduleStore;
  jobs: PluginJobs;
  firing: Firing;
}
const me = (svc: unknown) => svc as Self;

/** The contact, user and connection a message names are the tenant's (their not-found codes otherwise). */
async function checkRefs(ctx: Ctx<unknown>, tenantId: number, f: { contactId: number; userId: number; connectionId: number }) {
  const api = coreApi(ctx);
  await api.contacts.get({ tenantId, id: f.contactId });
  await api.users.get({ tenantId, id: f.userId });
  // The core API has no connections.get: the business-time question checks the connection is the tenant's.
  await api.businessTime.state({ tenantId, target: { connectionId: f.connectionId } });
}

/**
 * Applies a change to a message still pending. A send may move it meanwhile (a recurrent one to
 * its next date, a single one to sent): re-read once, and refuse what is no longer pending.
 */
async function changeIfPending(store: ScheduleStore, tenantId: number, row: MessageRow, values: Partial<MessageRow>): Promise<void> {
  if (await store.updateIf(tenantId, row.id, { status: "pending", nextAt: row.nextAt }, values)) return;
  const now = await store.get(tenantId, row.id);
  assertPending(now.status);
  if (!(await store.updateIf(tenantId, row.id, { status: "pending", nextAt: now.nextAt }, values))) {
    throw new PluginError("ERR_SCHEDULE_NOT_PENDING", 409, { status: (await store.get(tenantId, row.id)).status });
  }
}

const csv = (s: string | undefined) => (s ? s.split(",").filter(Boolean) : undefined);
const dateParam = (s: string | undefined, field: string): number | undefined => {
  if (!s) return undefined;
  const t = Date.parse(s);
  if (!Number.isFinite(t)) throw new PluginError("ERR_VALIDATION", 400, { field });
  return t;
};

export const scheduledMessagesPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/" },
    created() {
      me(this).jobs = pluginJobs(this);
    },
    async started() {
      const self = me(this);
      self.store = new ScheduleStore(await openPluginData(this));
      const logger = this.logger;
      self.firing = {
        store: self.store,
        now: () => Date.now(),
        async scheduleNext(ctx, tenantId, messageId, at) {
          await self.jobs.schedule(ctx, { name: FIRE_JOB, key: jobKey(messageId), tenantId, runAt: at, data: { id: messageId, at }, attempts: FIRE_ATTEMPTS });
        },
        async changed(ctx, tenantId, row) {
          try {
            await coreApi(ctx).realtime.push({ tenantId, event: SCHEDULED_CHANGED, payload: { id: row.id, ticketId: row.ticketId, status: row.status } });
          } catch (err) {
            logger.warn(`scheduled.changed not pushed to tenant ${tenantId}: ${(err as Error).message}`);
          }
        },
      };
    },
    actions: {
      ...jobActions({
        async [FIRE_JOB](this: unknown, ctx: Context<JobDelivery>, job: JobDelivery) {
          return fire(ctx, me(this).firing, job);
        },
      }),
      list: {
        ...route("GET /scheduled-messages"),
        params: {
          status: { type: "string", optional: true, max: 60, pattern: /^[a-z,]*$/ },
          contactId: optId,
          connectionId: optId,
          userId: optId,
          ticketId: optId,
          from: { type: "string", optional: true, max: 40 },
          to: { type: "string", optional: true, max: 40 },
          page: { type: "number", integer: true, min: 1, max: 100_000, optional: true, convert: true },
          limit: { type: "number", integer: true, min: 1, max: 100, optional: true, convert: true },
        },
        async handler(ctx: Ctx<{ status?: string; contactId?: number; connectionId?: number; userId?: number; ticketId?: number; from?: string; to?: string; page?: number; limit?: number }>) {
          const tenantId = tenantOf(ctx);
          const p = ctx.params;
          const status = csv(p.status);
          if (status?.some((s) => !STATUSES.includes(s as Status))) throw new PluginError("ERR_VALIDATION", 400, { field: "status" });
          const from = dateParam(p.from, "from");
          const to = dateParam(p.to, "to");
          if (from !== undefined && to !== undefined && to < from) throw new PluginError("ERR_SCHEDULE_RANGE_INVALID", 400, { field: "to" });
          const filters: ListFilters = { status: status as Status[] | undefined, contactId: p.contactId, connectionId: p.connectionId, userId: p.userId, ticketId: p.ticketId, from, to, page: p.page ?? 1, limit: p.limit ?? 20 };
          const r = await me(this).store.list(tenantId, filters);
          return { ...r, rows: await viewOf(coreApi(ctx), tenantId, r.rows) };
        },
      },
      get: {
        ...route("GET /scheduled-messages/one"),
        params: { id },
        async handler(ctx: Ctx<{ id: number }>) {
          const tenantId = tenantOf(ctx);
          return (await viewOf(coreApi(ctx), tenantId, [await me(this).store.get(tenantId, ctx.params.id)]))[0];
        },
      },
      /** Contacts (by name or number) and users to choose in the form. */
      options: {
        ...route("GET /scheduled-messages/options"),
        params: { q: { type: "string", optional: true, trim: true, max: 100 } },
        async handler(ctx: Ctx<{ q?: string }>) {
          const tenantId = tenantOf(ctx);
          const api = coreApi(ctx);
          const [contacts, users] = await Promise.all([api.contacts.list({ tenantId, search: ctx.params.q || undefined, limit: 20 }), api.users.list({ tenantId })]);
          return { contacts: contacts.rows.map((c) => ({ id: c.id, name: c.name, number: c.number })), users: users.map((u) => ({ id: u.id, name: u.name })) };
        },
      },
      create: {
        ...route("POST /scheduled-messages"),
        params: { ...fields, ticketId: { ...optId, nullable: true } },
        async handler(ctx: Ctx<ScheduleInput>) {
          const tenantId = tenantOf(ctx);
          const self = me(this);
          const api = coreApi(ctx);
          const input = { ...ctx.params };
          // From a ticket: its contact and connection unless given, checked through the core (another tenant's: 404).
          if (input.ticketId) {
            const tk = await api.tickets.get({ tenantId, id: input.ticketId });
            input.contactId ??= tk.contactId;
            input.connectionId ??= tk.connectionId ?? undefined;
          }
          const f = checkSchedule(input, Date.now());
          await checkRefs(ctx, tenantId, f);
          const row = await self.store.create(tenantId, f, { userId: ctx.meta.user!.id, ticketId: input.ticketId ?? null, now: Date.now() });
          await self.firing.scheduleNext(ctx, tenantId, row.id, f.scheduleDate);
          await self.firing.changed(ctx, tenantId, row);
          ctx.meta.$statusCode = 201;
          return (await viewOf(api, tenantId, [row]))[0];
        },
      },
      /** Edits a pending message (the fields given; the rest as stored): its job moves to the new date. */
      update: {
        ...route("PATCH /scheduled-messages"),
        params: { id, ...fields },
        async handler(ctx: Ctx<ScheduleInput & { id: number }>) {
          const tenantId = tenantOf(ctx);
          const self = me(this);
          const row = await self.store.get(tenantId, ctx.params.id);
          assertPending(row.status);
          const { id: _id, ...changes } = ctx.params;
          const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as ScheduleInput;
          // Without a new date, the next send is what must lie ahead; the series keeps its first send as anchor.
          const keepDate = given.scheduleDate === undefined;
          const merged = { ...row, ...given, scheduleDate: keepDate ? (row.nextAt ?? row.scheduleDate) : given.scheduleDate } as ScheduleInput;
          const f = checkSchedule(merged, Date.now(), { needSecondSend: !(keepDate && row.nextAt !== row.scheduleDate) });
          await checkRefs(ctx, tenantId, f);
          const nextAt = f.scheduleDate;
          const values: Partial<MessageRow> = { ...f, scheduleDate: keepDate ? row.scheduleDate : f.scheduleDate, nextAt, errorMessage: null, updatedAt: Date.now() };
          await changeIfPending(self.store, tenantId, row, values);
          await self.firing.scheduleNext(ctx, tenantId, row.id, nextAt);
          const after = await self.store.get(tenantId, row.id);
          await self.firing.changed(ctx, tenantId, after);
          return (await viewOf(coreApi(ctx), tenantId, [after]))[0];
        },
      },
      /** Cancels a pending message (the UI asks for confirmation first): its job is cancelled too. */
      cancel: {
        ...route("POST /scheduled-messages/cancel"),
        params: { id },
        async handler(ctx: Ctx<{ id: number }>) {
          const tenantId = tenantOf(ctx);
          const self = me(this);
          const row = await self.store.get(tenantId, ctx.params.id);
          assertPending(row.status);
          await changeIfPending(self.store, tenantId, row, { status: "cancelled", nextAt: null, updatedAt: Date.now() });
          // A due occurrence already handed over still runs: the handler finds the message cancelled and sends nothing.
          await self.jobs.cancel(ctx, { name: FIRE_JOB, key: jobKey(row.id), tenantId });
          const after = await self.store.get(tenantId, row.id);
          await self.firing.changed(ctx, tenantId, after);
          return (await viewOf(coreApi(ctx), tenantId, [after]))[0];
        },
      },
    },
  },
});

export default scheduledMessagesPlugin;
