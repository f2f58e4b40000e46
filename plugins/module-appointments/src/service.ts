/**
 * Appointments (spec §2 /agendamentos, §3 Appointment, §5; PLUS): a contact's appointment with
 * a user for a service, within the user's availability, never in the past, none overlapping
 * the user's others; its message and reminders go out on the core's scheduler exactly once
 * (src/firing.ts). Routes under /api/appointments for any signed-in user of the tenant; ids in
 * the query or the body. The service catalogue (/configuracoes/servicos, PREMIUM) is in
 * services-actions.ts. Every change is pushed to the tenant's screens as `appointments.changed`.
 */
import type { Context } from "moleculer";
import { coreApi, definePlugin, jobActions, openPluginData, PluginError, pluginJobs, uploadPlatformFile, type JobDelivery, type PluginJobs } from "@openatende/plugin-sdk";
import { tenantZone, validate, findTemplate } from "./checks";
import { ATTEMPTS, fire, MESSAGE_JOB, messageKey, REMINDER_JOB, reminderKey, type Firing } from "./firing";
import { toIcs } from "./ics";
import { instantOf, MESSAGE_MAX, REMINDER_UNITS, reminderOffset, templateVariables, type AppointmentInput } from "./rules";
import { serviceActions } from "./services-actions";
import { AppointmentStore, type AppointmentRow } from "./store";
import { appointmentViews, serviceView } from "./view";

export const APPOINTMENTS_CHANGED = "appointments.changed";
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

type Meta = { user?: { id: number; tenantId: number; profile: string }; $statusCode?: number; $responseType?: string; $responseHeaders?: Record<string, string> };
type Ctx<P = Record<string, unknown>> = Context<P, Meta>;

const id = { type: "number", integer: true, positive: true, convert: true } as const;
const optId = { ...id, optional: true, nullable: true } as const;
const fields = {
  contactId: optId,
  connectionId: optId,
  userId: optId,
  serviceId: optId,
  startAt: { type: "multi", optional: true, nullable: true, rules: [{ type: "number", integer: true, min: 0 }, { type: "string", max: 40 }] },
  duration: { type: "number", integer: true, min: 1, max: 24 * 60, optional: true, nullable: true, convert: true },
  message: { type: "string", optional: true, nullable: true, max: MESSAGE_MAX },
  closeTicket: { type: "boolean", optional: true, convert: true },
  template: {
    type: "object",
    optional: true,
    nullable: true,
    strict: "remove",
    props: { name: { type: "string", empty: false, max: 512 }, language: { type: "string", empty: false, max: 20 }, params: { type: "array", max: 30, items: { type: "string", max: 1024 }, default: [] } },
  },
  complementaryMessage: { type: "string", optional: true, nullable: true, max: MESSAGE_MAX },
  attachment: {
    type: "object",
    optional: true,
    nullable: true,
    strict: "remove",
    props: { path: { type: "string", empty: false, max: 500 }, mimeType: { type: "string", max: 100 }, fileName: { type: "string", max: 255 } },
  },
  reminders: { type: "array", optional: true, nullable: true, max: 10, items: { type: "object", strict: "remove", props: { amount: { type: "number", integer: true, min: 1, max: 999, convert: true }, unit: { type: "enum", values: REMINDER_UNITS } } } },
} as const;

export const route = (rest: string) => ({ rest, access: "user" as const });

export function tenantOf(ctx: Ctx<unknown>): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw new PluginError("ERR_SESSION_REQUIRED", 401);
  return t;
}

interface Self {
  store: AppointmentStore;
  jobs: PluginJobs;
  firing: Firing;
}
export const me = (svc: unknown) => svc as Self;

const dateParam = (s: string | undefined, field: string): number | undefined => {
  if (!s) return undefined;
  const t = instantOf(s);
  if (Number.isNaN(t)) throw new PluginError("ERR_VALIDATION", 400, { field });
  return t;
};

/** The message's job at the start and a job per reminder still ahead; the jobs of reminders no longer there are cancelled. */
async function plan(ctx: Context, self: Self, tenantId: number, row: AppointmentRow, before?: AppointmentRow): Promise<void> {
  const now = self.firing.now();
  await self.jobs.schedule(ctx, { name: MESSAGE_JOB, key: messageKey(row.id), tenantId, runAt: row.startAt, data: { id: row.id, at: row.startAt }, attempts: ATTEMPTS });
  const keep = new Set<number>();
  for (const r of row.reminders) {
    const offset = reminderOffset(r);
    const at = row.startAt - offset;
    // A reminder whose time has already gone (booked at short notice) is not sent.
    if (at <= now) continue;
    keep.add(offset);
    await self.jobs.schedule(ctx, { name: REMINDER_JOB, key: reminderKey(row.id, offset), tenantId, runAt: at, data: { id: row.id, at: row.startAt, offset }, attempts: ATTEMPTS });
  }
  for (const r of before?.reminders ?? []) {
    const offset = reminderOffset(r);
    if (!keep.has(offset)) await self.jobs.cancel(ctx, { name: REMINDER_JOB, key: reminderKey(row.id, offset), tenantId });
  }
}

async function unplan(ctx: Context, self: Self, tenantId: number, row: AppointmentRow): Promise<void> {
  await self.jobs.cancel(ctx, { name: MESSAGE_JOB, key: messageKey(row.id), tenantId });
  for (const r of row.reminders) await self.jobs.cancel(ctx, { name: REMINDER_JOB, key: reminderKey(row.id, reminderOffset(r)), tenantId });
}

/** Only an appointment still ahead, not yet sent, is changed or deleted. */
function assertAhead(row: AppointmentRow, now: number): void {
  if (row.status !== "scheduled" || row.startAt <= now) throw new PluginError("ERR_APPOINTMENT_PAST", 409, { id: row.id, status: row.status });
}

async function views(ctx: Ctx<unknown>, self: Self, tenantId: number, rows: AppointmentRow[]) {
  return appointmentViews(coreApi(ctx), tenantId, rows, await self.store.listServices(tenantId));
}

export const appointmentsPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/" },
    created() {
      me(this).jobs = pluginJobs(this);
    },
    async started() {
      const self = me(this);
      self.store = new AppointmentStore(await openPluginData(this));
      const logger = this.logger;
      self.firing = {
        store: self.store,
        now: () => Date.now(),
        timeZone: (ctx, tenantId) => tenantZone(coreApi(ctx), tenantId),
        async changed(ctx, tenantId, row) {
          try {
            await coreApi(ctx).realtime.push({ tenantId, event: APPOINTMENTS_CHANGED, payload: { id: row.id, status: row.status } });
          } catch (err) {
            logger.warn(`appointments.changed not pushed to tenant ${tenantId}: ${(err as Error).message}`);
          }
        },
      };
    },
    actions: {
      ...jobActions({
        async [MESSAGE_JOB](this: unknown, ctx: Context<JobDelivery>, job: JobDelivery) {
          return fire(ctx, me(this).firing, MESSAGE_JOB, job);
        },
        async [REMINDER_JOB](this: unknown, ctx: Context<JobDelivery>, job: JobDelivery) {
          return fire(ctx, me(this).firing, REMINDER_JOB, job);
        },
      }),
      list: {
        ...route("GET /appointments"),
        params: { from: { type: "string", optional: true, max: 40 }, to: { type: "string", optional: true, max: 40 }, userId: { ...id, optional: true } },
        async handler(ctx: Ctx<{ from?: string; to?: string; userId?: number }>) {
          const tenantId = tenantOf(ctx);
          const self = me(this);
          const rows = await self.store.list(tenantId, { from: dateParam(ctx.params.from, "from"), to: dateParam(ctx.params.to, "to"), userId: ctx.params.userId });
          return views(ctx, self, tenantId, rows);
        },
      },
      get: {
        ...route("GET /appointments/one"),
        params: { id },
        async handler(ctx: Ctx<{ id: number }>) {
          const tenantId = tenantOf(ctx);
          const self = me(this);
          return (await views(ctx, self, tenantId, [await self.store.get(tenantId, ctx.params.id)]))[0];
        },
      },
      /** What the form chooses from: contacts (by name or number), users, services (with their users and duration). */
      options: {
        ...route("GET /appointments/options"),
        params: { q: { type: "string", optional: true, trim: true, max: 100 } },
        async handler(ctx: Ctx<{ q?: string }>) {
          const tenantId = tenantOf(ctx);
          const api = coreApi(ctx);
          const [contacts, users, services] = await Promise.all([api.contacts.list({ tenantId, search: ctx.params.q || undefined, limit: 20 }), api.users.list({ tenantId }), me(this).store.listServices(tenantId)]);
          return {
            contacts: contacts.rows.map((c) => ({ id: c.id, name: c.name, number: c.number })),
            users: users.map((u) => ({ id: u.id, name: u.name })),
            services: services.map(serviceView),
            timeZone: await tenantZone(api, tenantId),
          };
        },
      },
      /** The connection's approved WABA templates (its channel's `templates` capability), with their variables counted. */
      templates: {
        ...route("GET /appointments/templates"),
        params: { connectionId: id },
        async handler(ctx: Ctx<{ connectionId: number }>) {
          const tenantId = tenantOf(ctx);
          const r = await coreApi(ctx).templates.list({ tenantId, connectionId: ctx.params.connectionId, status: "APPROVED", limit: 100 });
          return r.templates.map((t) => ({ name: t.name, language: t.language, body: t.body.text, variables: templateVariables(t.body.text) }));
        },
      },
      /** The appointments of [from, to) (of one user) as an iCalendar file. */
      ics: {
        ...route("GET /appointments/ics"),
        params: { from: { type: "string", optional: true, max: 40 }, to: { type: "string", optional: true, max: 40 }, userId: { ...id, optional: true } },
        async handler(ctx: Ctx<{ from?: string; to?: string; userId?: number }>) {
          const tenantId = tenantOf(ctx);
          const self = me(this);
          const rows = await self.store.list(tenantId, { from: dateParam(ctx.params.from, "from"), to: dateParam(ctx.params.to, "to"), userId: ctx.params.userId });
          const v = await views(ctx, self, tenantId, rows);
          const events = v.map((a) => ({
            uid: `appointment-${a.id}-t${tenantId}@openatende`,
            start: Date.parse(a.startAt),
            end: Date.parse(a.endAt),
            summary: [a.serviceName, a.contactName].filter(Boolean).join(" — ") || a.message,
            description: [a.userName ? `${a.userName}` : null, a.message].filter(Boolean).join("\n"),
            sequence: Math.floor(Date.parse(a.updatedAt) / 1000) % 2_000_000_000,
          }));
          ctx.meta.$responseType = "text/calendar; charset=utf-8";
          ctx.meta.$responseHeaders = { "Content-Disposition": `attachment; filename="agendamentos.ics"` };
          return toIcs(events, { now: Date.now(), name: "Agendamentos" });
        },
      },
      create: {
        ...route("POST /appointments"),
        params: fields,
        async handler(ctx: Ctx<AppointmentInput>) {
          const tenantId = tenantOf(ctx);
          const self = me(this);
          const f = await validate(ctx, self.store, tenantId, ctx.params, Date.now());
          const row = await self.store.create(tenantId, f, { userId: ctx.meta.user!.id, now: Date.now() });
          await plan(ctx, self, tenantId, row);
          await self.firing.changed(ctx, tenantId, row);
          ctx.meta.$statusCode = 201;
          return (await views(ctx, self, tenantId, [row]))[0];
        },
      },
      /** Changes an appointment still ahead (the fields given; the rest as stored), checked again as a new one; a calendar drag lands here. */
      update: {
        ...route("PATCH /appointments"),
        params: { id, ...fields },
        async handler(ctx: Ctx<AppointmentInput & { id: number }>) {
          const tenantId = tenantOf(ctx);
          const self = me(this);
          const row = await self.store.get(tenantId, ctx.params.id);
          assertAhead(row, Date.now());
          const { id: _id, ...changes } = ctx.params;
          const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as AppointmentInput;
          // A new service without a new duration takes the service's.
          const duration = given.duration !== undefined ? given.duration : given.serviceId !== undefined && given.serviceId !== row.serviceId ? null : row.duration;
          const merged: AppointmentInput = { ...row, ...given, duration } as AppointmentInput;
          const f = await validate(ctx, self.store, tenantId, merged, Date.now(), row.id);
          const values = { ...f, endAt: f.startAt + f.duration * 60_000, updatedAt: Date.now() };
          if (!(await self.store.updateIf(tenantId, row.id, { status: "scheduled", startAt: row.startAt }, values))) throw new PluginError("ERR_APPOINTMENT_PAST", 409, { id: row.id });
          const after = await self.store.get(tenantId, row.id);
          await plan(ctx, self, tenantId, after, row);
          await self.firing.changed(ctx, tenantId, after);
          return (await views(ctx, self, tenantId, [after]))[0];
        },
      },
      /** Deletes an appointment still ahead (a past one cannot be deleted: ERR_APPOINTMENT_PAST), and its jobs. */
      remove: {
        ...route("POST /appointments/delete"),
        params: { id },
        async handler(ctx: Ctx<{ id: number }>) {
          const tenantId = tenantOf(ctx);
          const self = me(this);
          const row = await self.store.get(tenantId, ctx.params.id);
          assertAhead(row, Date.now());
          await self.store.remove(tenantId, row.id);
          // A job already handed over finds no appointment and sends nothing.
          await unplan(ctx, self, tenantId, row);
          await self.firing.changed(ctx, tenantId, { id: row.id, status: row.status });
          return { id: row.id, deleted: true };
        },
      },
      /** Stores the appointment's attachment among the tenant's files (base64 in the body, 10 MB at most). */
      attachment: {
        ...route("POST /appointments/attachment"),
        params: {
          file: {
            type: "object",
            strict: "remove",
            props: { fileName: { type: "string", trim: true, empty: false, max: 255 }, mimeType: { type: "string", pattern: /^[\w.+-]+\/[\w.+-]+$/, max: 100 }, data: { type: "string", empty: true } },
          },
        },
        async handler(ctx: Ctx<{ file: { fileName: string; mimeType: string; data: string } }>) {
          const tenantId = tenantOf(ctx);
          const f = ctx.params.file;
          const tooLarge = () => new PluginError("ERR_APPOINTMENT_FILE_TOO_LARGE", 413, { field: "attachment", max: "10 MB" });
          if (Math.floor((f.data.length * 3) / 4) > ATTACHMENT_MAX_BYTES + 3) throw tooLarge();
          if (!/^[A-Za-z0-9+/]*={0,2}$/.test(f.data)) throw new PluginError("ERR_VALIDATION", 400, { field: "file.data" });
          const data = Buffer.from(f.data, "base64");
          if (!data.length) throw new PluginError("ERR_NO_FILE_UPLOADED", 400, { field: "attachment" });
          if (data.length > ATTACHMENT_MAX_BYTES) throw tooLarge();
          const stored = await uploadPlatformFile(ctx, { tenantId, data, mimeType: f.mimeType, fileName: f.fileName, maxBytes: ATTACHMENT_MAX_BYTES });
          return { path: stored.path, mimeType: stored.mimeType, fileName: stored.fileName, url: stored.url, size: stored.size };
        },
      },
      ...serviceActions,
    },
  },
});

export { findTemplate };
export default appointmentsPlugin;
