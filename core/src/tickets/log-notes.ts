import type { Ctx } from "../types";
import { call } from "../bus/call";
import { pushRealtime, ticketAudience } from "../realtime/push";
import { REALTIME_EVENTS, ticketNoteAdded, type TicketNoteView } from "@openatende/contracts/realtime";
import type { Ticket } from "./model";
import { formatProtocol } from "@openatende/contracts/protocol";
import { plain, type TicketsKit } from "./kit";

/**
 * A ticket's activity log and notes (spec §4), and its protocol number, given once the
 * ticket exists (the number is made of its id and creation date in the tenant's format).
 */
export function createLogAndNotes(kit: TicketsKit) {
  const { TicketLog, TicketNote } = kit;

  return {
    async setProtocol(ctx: Ctx, t: Ticket, transaction?: unknown) {
      const r = plain(t);
      const s = await kit.settingsOf(ctx, r.tenantId);
      const tenant = await call(ctx, "tenants.getInternal", { id: r.tenantId });
      const protocol = formatProtocol(r.id, r.createdAt ?? new Date(), s.protocol, tenant?.timezone ?? "America/Sao_Paulo");
      await t.update({ protocol }, { transaction: transaction as never });
    },

    async logs(ctx: Ctx<{ id: number }>) {
      const { row } = await kit.loadVisible(ctx, ctx.params.id);
      const logs = await TicketLog.findAll({ where: { tenantId: row.tenantId, ticketId: row.id }, order: [["id", "ASC"]], limit: 1000 });
      return logs.map((l) => l.get({ plain: true }));
    },

    async notes(ctx: Ctx<{ id: number }>) {
      const { row } = await kit.loadVisible(ctx, ctx.params.id);
      const notes = await TicketNote.findAll({ where: { tenantId: row.tenantId, ticketId: row.id }, order: [["id", "ASC"]], limit: 500 });
      return notes.map((n) => n.get({ plain: true }));
    },

    async addNote(ctx: Ctx<{ id: number; body: string }>) {
      const { row } = await kit.loadVisible(ctx, ctx.params.id);
      const note = (await TicketNote.create({ tenantId: row.tenantId, ticketId: row.id, userId: ctx.meta.user!.id, body: ctx.params.body })).get({ plain: true }) as TicketNoteView<Date>;
      ctx.meta.$statusCode = 201;
      pushRealtime(ctx, { ...(await ticketAudience(ctx, row)), event: REALTIME_EVENTS.ticketNote(row.tenantId), payload: ticketNoteAdded(note) });
      return note;
    },
  };
}

export type LogAndNotes = ReturnType<typeof createLogAndNotes>;
