import { Op, Sequelize, WhereOptions } from "sequelize";
import type { ActionSchema } from "moleculer";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import { containsCI } from "../db/search";
import { TICKET_STATUSES } from "./model";
import { plain, type TicketsKit } from "./kit";
import type { Transitions } from "./transitions";
import { platformTicketUpdate } from "./platform-update";
import type { TicketNotesQueryParams, TicketQueryParams, TicketsAfterParams } from "./contract";

const id = { type: "number", integer: true, positive: true };
const ids = (max = 1000) => ({ type: "array", items: id, max, optional: true });
const tenantId = { tenantId: id };
const page = { offset: { type: "number", integer: true, min: 0, max: 1_000_000 }, limit: { type: "number", integer: true, min: 1, max: 10_000 } };

/** Integers only go into the literal sub-selects (validated above, forced again here). */
const intList = (xs: number[]) => xs.map((x) => Math.trunc(Number(x))).join(",");

/**
 * What the core API of plugins (the platform service, core/src/platform) asks of tickets: a
 * filtered page of a tenant's tickets, its tickets' notes, and a change of status, queue or
 * user made by a plugin (platform-update.ts). Read by tenant and ids, never by a caller's
 * visibility: the platform service has checked that the calling plugin acts for the tenant.
 */
export function platformTicketActions(kit: TicketsKit, transitions: Transitions): Record<string, ActionSchema> {
  const { Ticket: TicketModel, TicketNote } = kit;

  return {
    /** tickets.query: newest activity first; `count` of every match. */
    query: {
      visibility: "public",
      params: {
        ...tenantId,
        status: { type: "array", items: { type: "enum", values: [...TICKET_STATUSES] }, optional: true },
        queueIds: ids(),
        userIds: ids(),
        ids: ids(),
        contactIds: ids(100_000),
        search: { type: "string", max: 120, optional: true },
        ...page,
      },
      async handler(ctx: Ctx<TicketQueryParams>) {
        const p = ctx.params;
        const and: WhereOptions[] = [{ tenantId: p.tenantId }];
        if (p.status) and.push({ status: { [Op.in]: p.status } });
        if (p.queueIds) and.push({ queueId: { [Op.in]: p.queueIds } });
        if (p.userIds) and.push({ userId: { [Op.in]: p.userIds } });
        if (p.ids) and.push({ id: { [Op.in]: p.ids } });
        if (p.contactIds) and.push({ contactId: { [Op.in]: p.contactIds } });
        const q = p.search?.trim();
        if (q) {
          const contacts = await call(ctx, "contacts.searchIds", { tenantId: p.tenantId, q, limit: 1000 });
          and.push({ [Op.or]: [containsCI("protocol", q), ...(contacts.length ? [{ contactId: { [Op.in]: contacts } }] : [])] });
        }
        const where = { [Op.and]: and };
        const [count, rows] = await Promise.all([
          TicketModel.count({ where }),
          TicketModel.findAll({ where, order: [["lastMessageAt", "DESC"], ["id", "DESC"]], offset: p.offset, limit: p.limit }),
        ]);
        return { rows: rows.map(plain), count, hasMore: p.offset + rows.length < count };
      },
    },

    /**
     * tickets.afterId: the next `limit` tickets by id after `afterId` (keyset: one index range a
     * page, no COUNT, no OFFSET), for a plugin reading every ticket (a report's backfill). A
     * ticket that changes meanwhile keeps its place (ids do not move, as activity order does),
     * so none is skipped or read twice; `total` (asked with `withTotal`, on the first page) is
     * how many there were then, for a progress figure.
     */
    afterId: {
      visibility: "public",
      params: { ...tenantId, afterId: { type: "number", integer: true, min: 0 }, limit: page.limit, status: { type: "array", items: { type: "enum", values: [...TICKET_STATUSES] }, optional: true }, withTotal: { type: "boolean", optional: true } },
      async handler(ctx: Ctx<TicketsAfterParams>) {
        const p = ctx.params;
        const where = { tenantId: p.tenantId, id: { [Op.gt]: p.afterId }, ...(p.status ? { status: { [Op.in]: p.status } } : {}) };
        const [rows, total] = await Promise.all([
          TicketModel.findAll({ where, order: [["id", "ASC"]], limit: p.limit }),
          p.withTotal ? TicketModel.count({ where: { tenantId: p.tenantId, ...(p.status ? { status: { [Op.in]: p.status } } : {}) } }) : Promise.resolve(undefined),
        ]);
        return { rows: rows.map(plain), ...(total === undefined ? {} : { total }) };
      },
    },

    /** tickets.notesQuery: the first `limit` notes of the tenant's tickets, newest first, with each ticket's contact. */
    notesQuery: {
      visibility: "public",
      params: {
        ...tenantId,
        contactIds: ids(100_000),
        ticketIds: ids(),
        userIds: ids(),
        from: { type: "date", convert: true, optional: true },
        to: { type: "date", convert: true, optional: true },
        search: { type: "string", max: 120, optional: true },
        limit: page.limit,
      },
      async handler(ctx: Ctx<TicketNotesQueryParams>) {
        const p = ctx.params;
        const and: WhereOptions[] = [{ tenantId: p.tenantId }];
        if (p.userIds) and.push({ userId: { [Op.in]: p.userIds } });
        // Notes carry their ticket's tenant (tenantId above), so another tenant's ticket id selects nothing.
        if (p.ticketIds) and.push({ ticketId: { [Op.in]: p.ticketIds } });
        if (p.from) and.push({ createdAt: { [Op.gte]: p.from } });
        if (p.to) and.push({ createdAt: { [Op.lte]: p.to } });
        if (p.search?.trim()) and.push(containsCI("body", p.search.trim()));
        if (p.contactIds) {
          if (!p.contactIds.length) return { rows: [], count: 0 };
          and.push({ ticketId: { [Op.in]: Sequelize.literal(`(SELECT id FROM tickets WHERE tenantId = ${Number(p.tenantId)} AND contactId IN (${intList(p.contactIds)}))`) } });
        }
        const where = { [Op.and]: and };
        const [count, rows] = await Promise.all([
          TicketNote.count({ where }),
          TicketNote.findAll({ where, order: [["createdAt", "DESC"], ["id", "DESC"]], limit: p.limit }),
        ]);
        const notes = rows.map((r) => r.get({ plain: true }) as { id: number; ticketId: number; userId: number | null; body: string; createdAt: Date });
        const tickets = notes.length ? await TicketModel.findAll({ where: { tenantId: p.tenantId, id: { [Op.in]: [...new Set(notes.map((n) => n.ticketId))] } }, attributes: ["id", "contactId"] }) : [];
        const contactOf = new Map(tickets.map((t) => [t.get("id") as number, t.get("contactId") as number]));
        return { rows: notes.map((n) => ({ ...n, contactId: contactOf.get(n.ticketId) ?? 0 })), count };
      },
    },

    /** tickets.platformUpdate: a plugin changes a ticket's status, queue or user (platform-update.ts). */
    platformUpdate: {
      visibility: "public",
      params: {
        ...tenantId,
        id,
        status: { type: "enum", values: ["open", "pending", "closed"], optional: true },
        queueId: { ...id, optional: true, nullable: true },
        userId: { ...id, optional: true, nullable: true },
        plugin: { type: "string", min: 1, max: 64 },
      },
      handler: platformTicketUpdate(kit, transitions),
    },
  };
}
