import type { ServiceSchema } from "moleculer";
import type { CoreDeps } from "../deps";
import { AppError } from "../errors/app-error";
import { Ctx, isAdmin } from "../types";
import { TICKET_STATUSES } from "../tickets/model";
import { call } from "../bus/call";
import { ticketEvolution } from "./evolution";

interface Period {
  dateFrom: Date;
  dateTo: Date;
}

const ZERO = () => Object.fromEntries(TICKET_STATUSES.map((s) => [s, 0])) as Record<(typeof TICKET_STATUSES)[number], number>;

/** The current month, from its first day at 00:00 to now (the report default of spec §2). */
function defaultPeriod(now = new Date()): Period {
  return { dateFrom: new Date(now.getFullYear(), now.getMonth(), 1), dateTo: now };
}

/**
 * Dashboard figures of the tenant (spec §2 /home): tickets by status, by queue and by user.
 * Active tickets (open, pending, group, chatbot) count as they are now; closed ones count when
 * closed inside the period. Admins and supervisors see the whole tenant; an agent sees the
 * tickets of their queues and the ones assigned to them.
 *
 * The dashboard owns no table: the figures are the tickets service's (tickets.statusCounts,
 * tickets.dailyCounts), the names the queues', users' and connections' services'.
 */
export function createDashboardService(_deps: CoreDeps): ServiceSchema {
  return {
    name: "dashboard",
    settings: { rest: "/" },
    actions: {
      tickets: {
        rest: "GET /dashboard/tickets",
        access: "user",
        params: {
          dateFrom: { type: "date", convert: true, optional: true },
          dateTo: { type: "date", convert: true, optional: true },
        },
        async handler(ctx: Ctx<{ dateFrom?: Date; dateTo?: Date }>) {
          const me = ctx.meta.user!;
          const tenantId = me.tenantId;
          const def = defaultPeriod();
          const period: Period = { dateFrom: ctx.params.dateFrom ?? def.dateFrom, dateTo: ctx.params.dateTo ?? def.dateTo };
          if (period.dateFrom.getTime() > period.dateTo.getTime()) throw new AppError("ERR_VALIDATION", { field: "dateFrom", reason: "after dateTo" });
          const whole = isAdmin(me) || me.profile === "supervisor";
          const mine = whole ? null : { userId: me.id, queues: (await call(ctx, "users.getInternal", { id: me.id }))?.queues ?? [] };
          const rows = await call(ctx, "tickets.statusCounts", { tenantId, closedFrom: period.dateFrom.toISOString(), closedTo: period.dateTo.toISOString(), mine });

          const byStatus = ZERO();
          const byQueue = new Map<number | null, ReturnType<typeof ZERO>>();
          const byUser = new Map<number | null, ReturnType<typeof ZERO>>();
          for (const r of rows) {
            const n = r.count;
            const s = r.status as keyof ReturnType<typeof ZERO>;
            if (!(s in byStatus)) continue;
            byStatus[s] += n;
            if (!byQueue.has(r.queueId)) byQueue.set(r.queueId, ZERO());
            byQueue.get(r.queueId)![s] += n;
            if (!byUser.has(r.userId)) byUser.set(r.userId, ZERO());
            byUser.get(r.userId)![s] += n;
          }
          const queueIds = [...byQueue.keys()].filter((x): x is number => x !== null);
          const userIds = [...byUser.keys()].filter((x): x is number => x !== null);
          const [queues, users] = await Promise.all([
            queueIds.length ? call(ctx, "queues.names", { tenantId, ids: queueIds }) : [],
            userIds.length ? call(ctx, "users.names", { tenantId, ids: userIds }) : [],
          ]);
          const qName = new Map(queues.map((q) => [q.id, q.name]));
          const uName = new Map(users.map((u) => [u.id, u.name]));
          const total = (c: ReturnType<typeof ZERO>) => Object.values(c).reduce((a, b) => a + b, 0);
          const sortByTotal = <T extends { counts: ReturnType<typeof ZERO> }>(a: T, b: T) => total(b.counts) - total(a.counts);
          return {
            period: { dateFrom: period.dateFrom.toISOString(), dateTo: period.dateTo.toISOString() },
            scope: whole ? "tenant" : "mine",
            byStatus,
            total: total(byStatus),
            byQueue: [...byQueue.entries()].map(([id, counts]) => ({ queueId: id, name: id === null ? null : (qName.get(id) ?? null), counts, total: total(counts) })).sort(sortByTotal),
            byUser: [...byUser.entries()].map(([id, counts]) => ({ userId: id, name: id === null ? null : (uName.get(id) ?? null), counts, total: total(counts) })).sort(sortByTotal),
          };
        },
      },

      /** Day by day in the tenant's time zone: created per connection, resolved, resolution time per user (evolution.ts). */
      evolution: {
        rest: "GET /dashboard/evolution",
        access: "user",
        params: {
          dateFrom: { type: "string", optional: true, max: 10 },
          dateTo: { type: "string", optional: true, max: 10 },
        },
        async handler(ctx: Ctx<{ dateFrom?: string; dateTo?: string }>) {
          const me = ctx.meta.user!;
          const whole = isAdmin(me) || me.profile === "supervisor";
          const [tenant, u] = await Promise.all([call(ctx, "tenants.getInternal", { id: me.tenantId }), whole ? null : call(ctx, "users.getInternal", { id: me.id })]);
          const r = await ticketEvolution(ctx, {
            tenantId: me.tenantId,
            timezone: tenant?.timezone || "America/Sao_Paulo",
            dateFrom: ctx.params.dateFrom,
            dateTo: ctx.params.dateTo,
            mine: whole ? null : { userId: me.id, queues: u?.queues ?? [] },
          });
          return { ...r, scope: whole ? "tenant" : "mine" };
        },
      },
    },
  };
}
