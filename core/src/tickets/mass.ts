import { Op } from "sequelize";
import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import type { Ticket } from "./model";
import { plain, type TicketsKit } from "./kit";
import type { Transitions } from "./transitions";

/** Admins' mass transfer and mass resolve (spec §6), and the unread counts of the tabs' badges. */
export function createMass(kit: TicketsKit, transitions: Pick<Transitions, "transfer" | "close">) {
  const { Ticket: TicketModel } = kit;

  /** The tenant's tickets of these ids, all of them or 404. */
  async function ticketsOf(ctx: Ctx, ids: number[]): Promise<Ticket[]> {
    const rows = await TicketModel.findAll({ where: { tenantId: ctx.meta.user!.tenantId, id: { [Op.in]: ids } } });
    if (rows.length !== new Set(ids).size) throw new AppError("ERR_TICKET_NOT_FOUND");
    return rows;
  }

  return {
    async massTransfer(ctx: Ctx<{ ticketIds: number[]; userId?: number; queueId?: number }>) {
      if (!ctx.params.userId && !ctx.params.queueId) throw new AppError("ERR_TRANSFER_TARGET_REQUIRED", { field: "userId" });
      const results: Array<{ id: number; ok: boolean; error?: string }> = [];
      for (const t of await ticketsOf(ctx, ctx.params.ticketIds)) {
        try {
          await transitions.transfer(ctx, t, plain(t), { userId: ctx.params.userId, queueId: ctx.params.queueId });
          results.push({ id: t.get("id") as number, ok: true });
        } catch (err) {
          results.push({ id: t.get("id") as number, ok: false, error: (err as { type?: string }).type ?? "ERR_INTERNAL" });
        }
      }
      return { results, transferred: results.filter((r) => r.ok).length };
    },

    async massResolve(ctx: Ctx<{ ticketIds: number[] }>) {
      let resolved = 0;
      for (const t of await ticketsOf(ctx, ctx.params.ticketIds)) {
        if (t.get("status") === "closed") continue;
        try {
          await transitions.close(ctx, t, "mass");
          resolved++;
        } catch (err) {
          // Closed by someone else meanwhile: nothing left to do for it.
          if ((err as { type?: string }).type !== "ERR_CONFLICT") throw err;
        }
      }
      return { resolved };
    },

    async unreadCounts(ctx: Ctx) {
      // Bounded: a page of the unread-only list per status, not a count over the table.
      const out: Record<string, number> = {};
      for (const status of ["open", "pending"] as const) {
        const r = await call(ctx, "tickets.list", { status, withUnreadMessages: true, pageSize: 100 }, { meta: ctx.meta });
        out[status] = r.hasMore ? 100 : r.tickets.length;
      }
      return { ...out, capped: 100 };
    },
  };
}
