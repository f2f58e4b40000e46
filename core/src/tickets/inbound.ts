import { hotQuery, sqlDateTime } from "../db/sql";
import type { Ctx } from "../types";
import { TicketRow, activeKey } from "./model";
import type { ActiveTicket, TicketsActions, TouchedTicket } from "./contract";
import { plain, view, type TicketsKit } from "./kit";
import type { LogAndNotes } from "./log-notes";
import type { Transitions } from "./transitions";

export type TouchParams = TicketsActions["tickets.touch"]["params"];

type ImportTarget = { tenantId: number; contactId: number; connectionId: number; queueId: number | null; isGroup: boolean };

/**
 * The inbound hot path (channels.inbound): find a contact's active ticket, open one, record a
 * message on it. Each is one statement where it can be, as every inbound message pays them.
 */
export function createInbound(kit: TicketsKit, transitions: Pick<Transitions, "openActive">, protocols: Pick<LogAndNotes, "setProtocol">) {
  const { Ticket: TicketModel, sequelize } = kit;

  /**
   * Where an imported message goes when its import closes tickets: the contact's newest
   * closed ticket on the connection, or a new one made closed (no realtime event: closed
   * tickets are in no live list). On MariaDB the contact's ticket rows are locked while
   * deciding, so two imported messages of a new contact at once make one ticket.
   */
  async function closedForImport(ctx: Ctx, o: ImportTarget): Promise<{ ticket: TicketRow; created: boolean }> {
    // Two first messages at once both find nothing and both insert: InnoDB kills one of
    // them as a deadlock, and its second look finds the ticket the other made.
    const deadlock = (err: unknown) => (err as { parent?: { errno?: number } }).parent?.errno === 1213;
    const decide = () =>
      sequelize.transaction(async (transaction) => {
        const lock = sequelize.getDialect() === "mysql" ? transaction.LOCK.UPDATE : undefined;
        const mine = await TicketModel.findAll({ where: { tenantId: o.tenantId, contactId: o.contactId }, attributes: ["id", "status", "connectionId"], transaction, lock });
        const found = mine.filter((t) => t.get("status") === "closed" && t.get("connectionId") === o.connectionId).sort((a, b) => (b.get("id") as number) - (a.get("id") as number))[0];
        if (found) return { id: found.get("id") as number, created: false };
        const row = await TicketModel.create(
          { tenantId: o.tenantId, contactId: o.contactId, connectionId: o.connectionId, queueId: o.queueId, userId: null, status: "closed", isGroup: o.isGroup, activeKey: null, closedAt: new Date(), lastMessageAt: 0 },
          { transaction },
        );
        await kit.log(o.tenantId, row.get("id") as number, null, "created", { reason: "imported" }, transaction);
        await kit.log(o.tenantId, row.get("id") as number, null, "closed", { reason: "imported" }, transaction);
        return { id: row.get("id") as number, created: true };
      });
    let made: { id: number; created: boolean } | undefined;
    for (let attempt = 1; !made; attempt++) {
      try {
        made = await decide();
      } catch (err) {
        if (!deadlock(err) || attempt >= 5) throw err;
      }
    }
    const t = (await TicketModel.findOne({ where: { id: made.id, tenantId: o.tenantId } }))!;
    if (made.created) await protocols.setProtocol(ctx, t);
    return { ticket: plain(t), created: made.created };
  }

  return {
    closedForImport,

    async openForInbound(ctx: Ctx<{ tenantId: number; contactId: number; connectionId: number; queueId?: number | null; isGroup?: boolean; closed?: boolean }>) {
      const p = ctx.params;
      if (p.closed) return closedForImport(ctx, { tenantId: p.tenantId, contactId: p.contactId, connectionId: p.connectionId, queueId: p.queueId ?? null, isGroup: !!p.isGroup });
      return transitions.openActive(ctx, {
        tenantId: p.tenantId,
        contactId: p.contactId,
        connectionId: p.connectionId,
        queueId: p.queueId ?? null,
        userId: null,
        status: p.isGroup ? "group" : "pending",
        isGroup: !!p.isGroup,
      });
    },

    async findActive(ctx: Ctx<{ tenantId: number; contactId: number; connectionId: number | null }>): Promise<ActiveTicket | null> {
      const { tenantId, contactId, connectionId } = ctx.params;
      const { rows } = await hotQuery<Pick<TicketRow, "id" | "queueId" | "userId" | "status" | "isGroup" | "unreadMessages">>(
        sequelize,
        "select",
        "SELECT id, queueId, userId, status, isGroup, unreadMessages FROM tickets WHERE tenantId = ? AND activeKey = ? LIMIT 1",
        [tenantId, activeKey(contactId, connectionId)],
      );
      const r = rows[0];
      if (!r) return null;
      return {
        id: Number(r.id),
        tenantId,
        contactId,
        connectionId,
        queueId: r.queueId === null ? null : Number(r.queueId),
        userId: r.userId === null ? null : Number(r.userId),
        status: r.status,
        isGroup: !!r.isGroup,
        unreadMessages: Number(r.unreadMessages),
      };
    },

    async touch(ctx: Ctx<TouchParams>): Promise<TouchedTicket | null> {
      const p = ctx.params;
      const last = (p.body ?? "").slice(0, 255);
      // One statement: concurrent messages never lose an unread increment, and an older
      // message arriving late does not move the ticket's activity time backwards.
      const sets = p.keepUnread ? "" : p.incoming ? "unreadMessages = unreadMessages + 1, hasUnread = 1, " : "unreadMessages = 0, hasUnread = 0, ";
      const update = `UPDATE tickets SET ${sets} lastMessage = CASE WHEN ? >= lastMessageAt THEN ? ELSE lastMessage END, lastMessageAt = CASE WHEN ? > lastMessageAt THEN ? ELSE lastMessageAt END, updatedAt = ? WHERE id = ? AND tenantId = ?`;
      const values: unknown[] = [p.timestamp, last, p.timestamp, p.timestamp, sqlDateTime(sequelize, new Date()), p.ticketId, p.tenantId];
      const e = p.expected;
      if (e) {
        const same = sequelize.getDialect() === "mysql" ? "<=>" : "IS";
        const r = await hotQuery(sequelize, "write", `${update} AND unreadMessages = ? AND status = ? AND userId ${same} ? AND queueId ${same} ?`, [...values, e.unreadMessages, e.status, e.userId, e.queueId]);
        if (r.affectedRows === 1) {
          return { id: p.ticketId, tenantId: p.tenantId, status: e.status, userId: e.userId, queueId: e.queueId, unreadMessages: p.keepUnread ? e.unreadMessages : p.incoming ? e.unreadMessages + 1 : 0 };
        }
      }
      await hotQuery(sequelize, "write", update, values);
      const t = await TicketModel.findOne({ where: { id: p.ticketId, tenantId: p.tenantId } });
      return t ? view(plain(t)) : null;
    },

    async markRead(ctx: Ctx<{ tenantId: number; ticketId: number }>) {
      await TicketModel.update({ unreadMessages: 0, hasUnread: false }, { where: { id: ctx.params.ticketId, tenantId: ctx.params.tenantId } });
      return true;
    },
  };
}
