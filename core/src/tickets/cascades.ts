import { Op, UniqueConstraintError } from "sequelize";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import { ACTIVE_STATUSES, TicketRow, activeKey } from "./model";
import { plain, type TicketsKit } from "./kit";

/**
 * What other services ask of tickets: reads (a ticket, whether the caller may see it,
 * counts) and the cascades of their changes (a user deleted, contacts merged, a connection's
 * tickets moved to another).
 */
export function createCascades(kit: TicketsKit) {
  const { Ticket: TicketModel } = kit;

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

    async transferFromUser(ctx: Ctx<{ tenantId: number; fromUserId: number; toUserId: number }>) {
      const [n] = await TicketModel.update({ userId: ctx.params.toUserId }, { where: { tenantId: ctx.params.tenantId, userId: ctx.params.fromUserId } });
      return { moved: n };
    },

    async moveContact(ctx: Ctx<{ tenantId: number; fromContactId: number; toContactId: number }>) {
      const { tenantId, fromContactId, toContactId } = ctx.params;
      let moved = 0;
      for (const t of await TicketModel.findAll({ where: { tenantId, contactId: fromContactId } })) {
        const r = plain(t);
        try {
          await t.update({ contactId: toContactId, activeKey: r.activeKey ? activeKey(toContactId, r.connectionId) : null });
        } catch (err) {
          if (!(err instanceof UniqueConstraintError)) throw err;
          await t.update({ contactId: toContactId, activeKey: null, status: "closed", closedAt: new Date() });
          await kit.log(tenantId, r.id, null, "closed", { reason: "contacts-merged" });
        }
        moved++;
      }
      await call(ctx, "messages.moveContact", { tenantId, fromContactId, toContactId });
      return { moved };
    },

    async moveConnection(ctx: Ctx<{ tenantId: number; fromConnectionId: number; toConnectionId: number }>) {
      const { tenantId, fromConnectionId, toConnectionId } = ctx.params;
      // Active tickets keep "one per contact and connection": a contact already active on
      // the destination keeps that ticket, and its ticket on the origin is closed.
      let moved = 0;
      const rows = await TicketModel.findAll({ where: { tenantId, connectionId: fromConnectionId } });
      for (const t of rows) {
        const r = plain(t);
        const patch: Partial<TicketRow> = { connectionId: toConnectionId };
        if (r.activeKey) patch.activeKey = activeKey(r.contactId, toConnectionId);
        try {
          await t.update(patch);
          moved++;
        } catch (err) {
          if (!(err instanceof UniqueConstraintError)) throw err;
          await t.update({ connectionId: toConnectionId, activeKey: null, status: "closed", closedAt: new Date() });
          await kit.log(tenantId, r.id, null, "closed", { reason: "connection-transfer" });
          moved++;
        }
      }
      return { moved };
    },
  };
}
