import { Op, QueryTypes, type Sequelize, type WhereOptions } from "sequelize";
import type { Ctx } from "../types";
import { ACTIVE_STATUSES, defineTicketModels, type TicketStatus } from "./model";

/** An agent's scope: their own tickets and their queues' (null or absent: the whole tenant). */
export interface StatsScope {
  userId: number;
  queues: number[];
}

/** Tickets by status, queue and user (tickets.statusCounts). */
export interface StatusCount {
  status: TicketStatus;
  queueId: number | null;
  userId: number | null;
  count: number;
}

/** Grouped counts day by day (tickets.dailyCounts); `day` is the local date, a string or a Date as the driver answers it. */
export interface DailyCounts {
  created: Array<{ day: unknown; connectionId: number | null; n: number }>;
  closed: Array<{ day: unknown; n: number }>;
  byUser: Array<{ userId: number | null; n: number; secs: number }>;
}

const scopeRule = { type: "object", optional: true, nullable: true, props: { userId: "number", queues: { type: "array", items: "number" } } };

/**
 * The figures the dashboard reads of tickets, as actions of their owner: grouped counts, one
 * statement each, whatever the number of tickets. The dashboard names the queues, users and
 * connections through their own services.
 */
export function ticketStatsActions(deps: { sequelize: Sequelize }) {
  const sequelize = deps.sequelize;
  const { Ticket } = defineTicketModels(sequelize);
  const select = <T>(sql: string, replacements: unknown[]) => sequelize.query(sql, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>;
  const num = (v: unknown) => Number(v ?? 0);
  const idOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

  return {
    /** Active tickets as they are now, closed ones when closed in [closedFrom, closedTo]; by status, queue and user. */
    statusCounts: {
      visibility: "public" as const,
      params: { tenantId: "number", closedFrom: { type: "date", convert: true }, closedTo: { type: "date", convert: true }, mine: scopeRule },
      async handler(ctx: Ctx<{ tenantId: number; closedFrom: Date; closedTo: Date; mine?: StatsScope | null }>): Promise<StatusCount[]> {
        const { tenantId, closedFrom, closedTo, mine } = ctx.params;
        const scope: WhereOptions[] = [];
        if (mine) scope.push({ [Op.or]: [{ userId: mine.userId }, ...(mine.queues.length ? [{ queueId: { [Op.in]: mine.queues } }] : [])] });
        const rows = (await Ticket.count({
          where: {
            [Op.and]: [{ tenantId }, { [Op.or]: [{ status: { [Op.in]: ACTIVE_STATUSES } }, { status: "closed", closedAt: { [Op.gte]: closedFrom, [Op.lte]: closedTo } }] }, ...scope],
          },
          group: ["status", "queueId", "userId"],
          attributes: ["status", "queueId", "userId"],
        })) as unknown as Array<{ status: TicketStatus; queueId: number | null; userId: number | null; count: number | string }>;
        return rows.map((r) => ({ status: r.status, queueId: idOrNull(r.queueId), userId: idOrNull(r.userId), count: num(r.count) }));
      },
    },

    /**
     * In [start, end): tickets created per local day and connection (group chats left out),
     * closed per local day, and per user the closed ones with their summed handling seconds.
     * `offsetMinutes` turns UTC into the tenant's local time (fixed over the period).
     */
    dailyCounts: {
      visibility: "public" as const,
      params: { tenantId: "number", start: { type: "date", convert: true }, end: { type: "date", convert: true }, offsetMinutes: "number", mine: scopeRule },
      async handler(ctx: Ctx<{ tenantId: number; start: Date; end: Date; offsetMinutes: number; mine?: StatsScope | null }>): Promise<DailyCounts> {
        const { tenantId, start, end, offsetMinutes: offset, mine } = ctx.params;
        const mysql = sequelize.getDialect() === "mysql";
        // The local date of a DATE column (fixed offset, bound as the first replacement).
        const dayOf = (col: string) => (mysql ? `DATE(DATE_ADD(${col}, INTERVAL ? MINUTE))` : `date(${col}, ?)`);
        const shift = mysql ? offset : `${offset >= 0 ? "+" : ""}${offset} minutes`;
        const seconds = mysql ? "TIMESTAMPDIFF(SECOND, createdAt, closedAt)" : "(julianday(closedAt) - julianday(createdAt)) * 86400";
        let scope = "";
        const scopeArgs: unknown[] = [];
        if (mine) {
          scope = mine.queues.length ? " AND (userId = ? OR queueId IN (?))" : " AND userId = ?";
          scopeArgs.push(mine.userId, ...(mine.queues.length ? [mine.queues] : []));
        }
        type Row = Record<string, unknown>;
        const [created, closed, byUser] = await Promise.all([
          select<Row>(`SELECT ${dayOf("createdAt")} AS day, connectionId, COUNT(*) AS n FROM tickets WHERE tenantId = ? AND createdAt >= ? AND createdAt < ? AND isGroup = ?${scope} GROUP BY day, connectionId`, [
            shift,
            tenantId,
            start,
            end,
            false,
            ...scopeArgs,
          ]),
          select<Row>(`SELECT ${dayOf("closedAt")} AS day, COUNT(*) AS n FROM tickets WHERE tenantId = ? AND status = 'closed' AND closedAt >= ? AND closedAt < ?${scope} GROUP BY day`, [shift, tenantId, start, end, ...scopeArgs]),
          select<Row>(`SELECT userId, COUNT(*) AS n, SUM(${seconds}) AS secs FROM tickets WHERE tenantId = ? AND status = 'closed' AND closedAt >= ? AND closedAt < ?${scope} GROUP BY userId`, [tenantId, start, end, ...scopeArgs]),
        ]);
        return {
          created: created.map((r) => ({ day: r.day, connectionId: idOrNull(r.connectionId), n: num(r.n) })),
          closed: closed.map((r) => ({ day: r.day, n: num(r.n) })),
          byUser: byUser.map((r) => ({ userId: idOrNull(r.userId), n: num(r.n), secs: num(r.secs) })),
        };
      },
    },
  };
}
