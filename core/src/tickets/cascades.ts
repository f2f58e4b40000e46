import { Op, UniqueConstraintError } from "sequelize";
import type { Ctx } from "../types";
import { call, emit } from "../bus/call";
import { ACTIVE_STATUSES, LogType, TicketRow, activeKey } from "./model";
import { plain, type TicketsKit } from "./kit";

/** Tickets a cascade moves per transaction (and per read of them). */
export const CASCADE_BATCH = 500;

type Moved = { before: TicketRow; after: TicketRow };

/**
 * What other services ask of tickets: reads (a ticket, whether the caller may see it,
 * counts) and the cascades of their changes (a user deleted, contacts merged, a connection's
 * tickets moved to another).
 */
export function createCascades(kit: TicketsKit) {
  const { Ticket: TicketModel, sequelize } = kit;

  /**
   * The cascades' moves told as `tickets.changed` updates with the row before, like
   * emitTicket's, so plugins' projections follow them (platform/translate.ts: a new user or
   * queue is ticket.transferred). No realtime push here: a bulk move would send the sockets one
   * list event per ticket.
   */
  function tell(ctx: Ctx, moved: Moved[]): void {
    const at = Date.now();
    for (const { before, after } of moved) void emit(ctx, "tickets.changed", { type: "ticket:update", ticket: after, before, at });
  }

  /**
   * Moves the tickets `where` matches, CASCADE_BATCH at a time: each batch read under a row lock
   * and changed by `move` in one transaction (which must take them out of `where`, or the loop
   * would not end), then told. Answers how many moved.
   */
  async function inBatches(ctx: Ctx, where: Record<string, unknown>, move: (rows: TicketRow[], transaction: unknown) => Promise<Moved[]>): Promise<number> {
    let total = 0;
    for (;;) {
      const moved = await sequelize.transaction(async (transaction) => {
        const rows = await TicketModel.findAll({ where, order: [["id", "ASC"]], limit: CASCADE_BATCH, lock: transaction.LOCK.UPDATE, transaction });
        return rows.length ? move(rows.map(plain), transaction) : [];
      });
      total += moved.length;
      tell(ctx, moved);
      if (moved.length < CASCADE_BATCH) return total;
    }
  }

  /** Reads the rows again after the batch's change (same transaction), each with its row before. */
  async function after(before: TicketRow[], transaction: unknown): Promise<Moved[]> {
    const now = new Map((await TicketModel.findAll({ where: { id: before.map((r) => r.id) }, transaction: transaction as never })).map((t) => [t.get("id") as number, plain(t)]));
    return before.filter((r) => now.has(r.id)).map((r) => ({ before: r, after: now.get(r.id)! }));
  }

  return {
    async getInternal(ctx: Ctx<{ tenantId: number; id: number }>) {
      const t = await TicketModel.findOne({ where: { id: ctx.params.id, tenantId: ctx.params.tenantId } });
      return t ? plain(t) : null;
    },

    async visible(ctx: Ctx<{ id: number; cached?: boolean }>) {
      return (await kit.loadVisible(ctx, ctx.params.id, !!ctx.params.cached)).row;
    },

    countForContact(ctx: Ctx<{ tenantId: number; contactId: number }>) {
      return TicketModel.count({ where: { tenantId: ctx.params.tenantId, contactId: ctx.params.contactId } });
    },

    countInQueue(ctx: Ctx<{ tenantId: number; queueId: number }>) {
      return TicketModel.count({ where: { tenantId: ctx.params.tenantId, queueId: ctx.params.queueId, status: { [Op.in]: ACTIVE_STATUSES } } });
    },

    /**
     * An event of a ticket that another service saw (a message of it deleted): written to the
     * ticket's log like its own transitions, so the log tells the whole story (spec §4).
     */
    async logEvent(ctx: Ctx<{ tenantId: number; ticketId: number; userId: number | null; type: LogType; data?: unknown }>) {
      const { tenantId, ticketId, userId, type, data } = ctx.params;
      if (!(await TicketModel.count({ where: { tenantId, id: ticketId } }))) return false;
      await kit.log(tenantId, ticketId, userId, type, data ?? null);
      return true;
    },

    async transferFromUser(ctx: Ctx<{ tenantId: number; fromUserId: number; toUserId: number }>) {
      const { tenantId, fromUserId, toUserId } = ctx.params;
      if (fromUserId === toUserId) return { moved: 0 };
      const moved = await inBatches(ctx, { tenantId, userId: fromUserId }, async (rows, transaction) => {
        await TicketModel.update({ userId: toUserId }, { where: { tenantId, id: rows.map((r) => r.id) }, transaction: transaction as never });
        return after(rows, transaction);
      });
      return { moved };
    },

    async moveContact(ctx: Ctx<{ tenantId: number; fromContactId: number; toContactId: number }>) {
      const { tenantId, fromContactId, toContactId } = ctx.params;
      if (fromContactId === toContactId) return { moved: 0 };
      // A contact already active on a connection keeps that ticket; the merged one's is closed.
      const moved = await inBatches(ctx, { tenantId, contactId: fromContactId }, async (rows, transaction) => {
        for (const r of rows) {
          const key = r.activeKey ? activeKey(toContactId, r.connectionId) : null;
          await moveOne(r, { contactId: toContactId, activeKey: key }, { contactId: toContactId }, "contacts-merged", transaction);
        }
        return after(rows, transaction);
      });
      await call(ctx, "messages.moveContact", { tenantId, fromContactId, toContactId });
      return { moved };
    },

    async moveConnection(ctx: Ctx<{ tenantId: number; fromConnectionId: number; toConnectionId: number }>) {
      const { tenantId, fromConnectionId, toConnectionId } = ctx.params;
      if (fromConnectionId === toConnectionId) return { moved: 0 };
      // Active tickets keep "one per contact and connection": a contact already active on
      // the destination keeps that ticket, and its ticket on the origin is closed.
      const moved = await inBatches(ctx, { tenantId, connectionId: fromConnectionId }, async (rows, transaction) => {
        for (const r of rows) {
          const patch: Partial<TicketRow> = { connectionId: toConnectionId };
          if (r.activeKey) patch.activeKey = activeKey(r.contactId, toConnectionId);
          await moveOne(r, patch, { connectionId: toConnectionId }, "connection-transfer", transaction);
        }
        return after(rows, transaction);
      });
      return { moved };
    },
  };

  /**
   * One ticket's move; when its active key is taken at the destination (the unique index), it
   * moves closed instead, and the log says why. MariaDB undoes only the refused statement, so
   * the batch's transaction goes on.
   */
  async function moveOne(r: TicketRow, patch: Partial<TicketRow>, closedPatch: Partial<TicketRow>, reason: string, transaction: unknown): Promise<void> {
    const where = { tenantId: r.tenantId, id: r.id };
    try {
      await TicketModel.update(patch, { where, transaction: transaction as never });
    } catch (err) {
      if (!(err instanceof UniqueConstraintError)) throw err;
      await TicketModel.update({ ...closedPatch, activeKey: null, status: "closed", closedAt: new Date(), closedVia: "automatic" }, { where, transaction: transaction as never });
      await kit.log(r.tenantId, r.id, null, "closed", { reason }, transaction);
    }
  }
}
