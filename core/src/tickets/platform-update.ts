import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import { activeKey, type TicketRow } from "./model";
import { plain, type TicketsKit } from "./kit";
import type { Transitions } from "./transitions";
import type { TicketsActions } from "./contract";

type Params = TicketsActions["tickets.platformUpdate"]["params"];

/**
 * A plugin's change of a ticket (the core API's tickets.update): the same guarded transitions
 * an agent's PUT /tickets/:id runs (transitions.ts: row lock, fresh-state guard, log, realtime
 * to the rooms before and after, the tickets.changed event), with the plugin as the actor: no
 * user in the log, `{ plugin }` in its data. A plugin is not bound by an agent's "someone
 * else's ticket" rule (it acts for the tenant), but by everything the ticket's state says.
 */
export function platformTicketUpdate(kit: TicketsKit, transitions: Transitions) {
  const { Ticket: TicketModel } = kit;
  const { transition, close } = transitions;

  async function checkUser(ctx: Ctx, tenantId: number, userId: number) {
    const u = await call(ctx, "users.getInternal", { id: userId });
    if (!u || u.tenantId !== tenantId || u.deletedAt) throw new AppError("ERR_USER_NOT_FOUND", { field: "userId" });
    if (!u.active) throw new AppError("ERR_VALIDATION", { field: "userId", rule: "any" });
  }

  async function checkQueue(ctx: Ctx, tenantId: number, queueId: number) {
    if (!(await call(ctx, "queues.existing", { tenantId, ids: [queueId] })).length) throw new AppError("ERR_QUEUE_NOT_FOUND", { field: "queueId" });
  }

  const notClosed = (fresh: TicketRow) => {
    if (fresh.status === "closed") throw new AppError("ERR_CONFLICT", { id: fresh.id, reason: "ticket-changed" });
  };

  return async function platformUpdate(ctx: Ctx<Params>): Promise<TicketRow> {
    const p = ctx.params;
    const ticket = await TicketModel.findOne({ where: { id: p.id, tenantId: p.tenantId } });
    if (!ticket) throw new AppError("ERR_TICKET_NOT_FOUND", { id: p.id });
    const row = plain(ticket);
    const by = { plugin: p.plugin };
    if (p.status === undefined && p.userId === undefined && p.queueId === undefined) throw new AppError("ERR_NO_STATUS_SELECTED", { field: "status" });
    if (p.userId) await checkUser(ctx, row.tenantId, p.userId);
    if (p.queueId) await checkQueue(ctx, row.tenantId, p.queueId);

    // A change of user or queue without a status is a transfer (to a queue only: back to its waiting list).
    if (p.status === undefined) {
      const to = { userId: p.userId === undefined ? row.userId : p.userId, queueId: p.queueId === undefined ? row.queueId : p.queueId };
      if (to.userId === row.userId && to.queueId === row.queueId) throw new AppError("ERR_TICKET_ALREADY_ASSIGNED");
      const patch: Partial<TicketRow> = { userId: to.userId, queueId: to.queueId };
      if (!to.userId && row.status === "open") patch.status = "pending";
      const logs: Array<[ "transfered" | "receivedTransfer", number | null, unknown]> = [["transfered", null, { from: { userId: row.userId, queueId: row.queueId }, to, ...by }]];
      if (to.userId && to.userId !== row.userId) logs.push(["receivedTransfer", to.userId, by]);
      return transition(ctx, ticket, patch, logs);
    }
    if (p.status === "closed") {
      if (p.userId !== undefined || p.queueId !== undefined) throw new AppError("ERR_VALIDATION", { field: p.userId !== undefined ? "userId" : "queueId", rule: "forbidden" });
      if (row.status === "closed") return row;
      return close(ctx, ticket, "plugin", undefined, by);
    }
    if (p.status === "pending") {
      if (row.status === "closed") throw new AppError("ERR_VALIDATION", { field: "status", rule: "enumValue" });
      const patch: Partial<TicketRow> = { status: "pending", userId: null };
      if (p.queueId !== undefined) patch.queueId = p.queueId;
      return transition(ctx, ticket, patch, [["pending", null, by]], notClosed);
    }
    // open: held by the given user, else by the one who holds it; an open ticket always has one.
    const userId = p.userId === undefined ? row.userId : p.userId;
    if (!userId) throw new AppError("ERR_VALIDATION", { field: "userId", rule: "required" });
    const patch: Partial<TicketRow> = { status: "open", userId };
    if (p.queueId !== undefined) patch.queueId = p.queueId;
    if (row.status === "closed") {
      const minutes = (await kit.settingsOf(ctx, row.tenantId)).noReopenMinutes ?? 0;
      if (minutes > 0 && row.closedAt && Date.now() - new Date(row.closedAt).getTime() < minutes * 60_000) throw new AppError("ERR_TICKET_REOPEN_BLOCKED", { minutes });
      return transition(ctx, ticket, { ...patch, closedAt: null, activeKey: activeKey(row.contactId, row.connectionId) }, [["reopened", null, by]], (fresh) => {
        if (fresh.status !== "closed") throw new AppError("ERR_CONFLICT", { id: fresh.id, reason: "ticket-changed" });
      });
    }
    if (row.status === "open" && row.userId === userId && (p.queueId === undefined || p.queueId === row.queueId)) return row;
    return transition(ctx, ticket, { ...patch, unreadMessages: 0, hasUnread: false }, [["started", userId, by]], notClosed);
  };
}
