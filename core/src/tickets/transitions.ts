import { UniqueConstraintError } from "sequelize";
import { AppError } from "../errors/app-error";
import { retryDeadlocks } from "../db/deadlock";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import { LogType, Ticket, TicketRow, TicketStatus, activeKey, type ClosedVia } from "./model";
import { ticketOf } from "../platform/views";
import { plain, view, type Me, type Settings, type TicketsKit } from "./kit";
import type { LogAndNotes } from "./log-notes";
import type { ChatbotOwner } from "../chatbots/contract";
import type { ChatbotRouting } from "./chatbot-routing";
import { serviceWindowOf } from "./service-window";

type Guard = (fresh: TicketRow) => void;
type LogEntry = [LogType, number | null, unknown?];

/** The state a decision was taken on must still hold: otherwise another request won the race. */
const sameState =
  (before: TicketRow): Guard =>
  (fresh) => {
    if (fresh.status !== before.status || fresh.userId !== before.userId || fresh.queueId !== before.queueId) {
      throw new AppError("ERR_CONFLICT", { id: before.id, reason: "ticket-changed" });
    }
  };
const anyState: Guard = () => undefined;
const conflict = (fresh: TicketRow) => new AppError("ERR_CONFLICT", { id: fresh.id, reason: "ticket-changed" });

export interface OpenActive {
  tenantId: number;
  contactId: number;
  connectionId: number | null;
  queueId: number | null;
  userId: number | null;
  status: TicketStatus;
  isGroup?: boolean;
  /**
   * An inbound ticket a rule hands to `userId` (wallet delivery, inbound.ts): logged with this
   * entry rather than "started", and its activity time still comes from its first message.
   */
  deliveredBy?: { type: LogType; data: unknown };
  /** A customer's new ticket a binding hands to a bot (status chatbot): logged "chatBot" { pluginId, ref }. */
  chatbot?: ChatbotOwner | null;
}

/**
 * Tickets' CRUD and their states (spec §4): open, accept, set pending, transfer, close and
 * reopen, each a guarded transition that logs what happened and tells the rooms that see the
 * ticket (before and after) about it.
 */
export function createTransitions(kit: TicketsKit, protocols: Pick<LogAndNotes, "setProtocol">, routing: Pick<ChatbotRouting, "forQueue">) {
  const { Ticket: TicketModel, TicketNote, sequelize } = kit;

  /**
   * Moves a ticket to a new state. The row is locked and read again inside the transaction and
   * the guard checks that fresh state, so two agents accepting (or transferring, reopening…)
   * the same ticket at once cannot both win: the second sees what the first did.
   */
  async function transition(ctx: Ctx, t: Ticket, patch: Partial<TicketRow>, logs: LogEntry[], guard?: Guard) {
    const before = plain(t);
    try {
      // An inbound message on the ticket at the same moment (its message row holds a shared
      // lock on the ticket, then updates it) can make this the deadlock's victim: run it again.
      await retryDeadlocks(() =>
        sequelize.transaction(async (transaction) => {
          const fresh = await TicketModel.findOne({ where: { id: before.id, tenantId: before.tenantId }, transaction, lock: transaction.LOCK.UPDATE });
          if (!fresh) throw new AppError("ERR_TICKET_NOT_FOUND", { id: before.id });
          const now = plain(fresh);
          (guard ?? sameState(before))(now);
          // Out of status chatbot (an agent accepts, transfers, closes it…): its bot's part ends.
          const ownerGoes = !!now.chatbotPluginId && (patch.status ?? now.status) !== "chatbot";
          await fresh.update(ownerGoes ? { ...patch, chatbotPluginId: null, chatbotRef: null } : patch, { transaction });
          for (const [type, userId, data] of logs) await kit.log(before.tenantId, before.id, userId, type, data ?? null, transaction);
        }),
      );
    } catch (err) {
      if (err instanceof UniqueConstraintError) {
        // Reopening while the contact already has another active ticket on this connection.
        const other = await TicketModel.findOne({ where: { tenantId: before.tenantId, activeKey: activeKey(before.contactId, before.connectionId) } });
        throw new AppError("ERR_CONTACT_OTHER_OPEN_TICKET", { ticketId: other?.get("id") ?? null });
      }
      throw err;
    }
    await t.reload();
    const after = plain(t);
    const contacts = await kit.summaries(ctx, after.tenantId, [after.contactId]);
    await kit.emitTicket(ctx, after, "ticket:update", contacts.get(after.contactId), before);
    return after;
  }

  /** A user a ticket may be given to: of the tenant, not deleted, active. */
  async function checkUser(ctx: Ctx, tenantId: number, userId: number) {
    const u = await call(ctx, "users.getInternal", { id: userId });
    if (!u || u.tenantId !== tenantId || u.deletedAt) throw new AppError("ERR_USER_NOT_FOUND", { field: "userId" });
    if (!u.active) throw new AppError("ERR_VALIDATION", { field: "userId", rule: "any" });
  }

  async function checkQueue(ctx: Ctx, tenantId: number, queueId: number) {
    const found = await call(ctx, "queues.existing", { tenantId, ids: [queueId] });
    if (!found.length) throw new AppError("ERR_QUEUE_NOT_FOUND", { field: "queueId" });
  }

  async function transfer(ctx: Ctx, t: Ticket, row: TicketRow, to: { userId?: number | null; queueId?: number | null }) {
    const tenantId = row.tenantId;
    if (!to.userId && !to.queueId) throw new AppError("ERR_TRANSFER_TARGET_REQUIRED", { field: "userId" });
    if ((to.userId && to.userId === row.userId && !to.queueId) || (to.queueId && to.queueId === row.queueId && !to.userId)) {
      throw new AppError("ERR_TICKET_ALREADY_ASSIGNED");
    }
    if (to.userId && to.userId === row.userId && to.queueId === row.queueId) throw new AppError("ERR_TICKET_ALREADY_ASSIGNED");
    if (to.userId) await checkUser(ctx, tenantId, to.userId);
    if (to.queueId) await checkQueue(ctx, tenantId, to.queueId);
    const patch: Partial<TicketRow> = {};
    if (to.queueId) patch.queueId = to.queueId;
    if (to.userId) patch.userId = to.userId;
    else patch.userId = null; // to a queue only: back to the queue's waiting list
    if (!to.userId) patch.status = row.status === "closed" ? "closed" : "pending";
    // A bot's ticket given to an agent is theirs, open.
    else if (row.status === "chatbot") patch.status = "open";
    const me = ctx.meta.user!.id;
    const logs: LogEntry[] = [["transfered", me, { from: { userId: row.userId, queueId: row.queueId }, to }], ...(to.userId ? ([["receivedTransfer", to.userId, { from: me }]] as LogEntry[]) : [])];
    // To a queue whose bot takes its tickets: the bot's now.
    const bot = patch.status === "pending" && to.queueId ? await routing.forQueue(ctx, tenantId, to.queueId) : null;
    if (bot) {
      Object.assign(patch, { status: "chatbot", chatbotPluginId: bot.pluginId, chatbotRef: bot.ref });
      logs.push(["chatBot", null, { pluginId: bot.pluginId, ref: bot.ref }]);
    }
    const after = await transition(ctx, t, patch, logs);
    if (bot) await botStarted(ctx, after);
    return after;
  }

  /**
   * A ticket just handed to a bot without a message (a transfer, a hand-off, a start): its
   * plugin gets the start (reason "started", no message), told apart by the chatBot log entry.
   */
  async function botStarted(ctx: Ctx, row: TicketRow): Promise<void> {
    if (row.status !== "chatbot" || !row.chatbotPluginId || !row.chatbotRef) return;
    const startId = Number(await kit.TicketLog.max("id", { where: { tenantId: row.tenantId, ticketId: row.id, type: "chatBot" } }));
    await call(ctx, "chatbots.deliver", { tenantId: row.tenantId, ticketId: row.id, contactId: row.contactId, pluginId: row.chatbotPluginId, ref: row.chatbotRef, reason: "started", message: null, startId });
  }

  /**
   * `via`: who closes (kept as the ticket's closedVia, told with ticket.closed): an agent, an
   * admin's mass resolve, the automation ("autoClose" in the log), or a plugin. `data`: what the
   * log entry says besides who (an automatic close: why, see autoClose).
   */
  async function close(ctx: Ctx, t: Ticket, via: ClosedVia, me?: Me, data?: unknown) {
    const how = via === "automatic" ? "autoClose" : "closed";
    const by = how === "autoClose" ? null : (ctx.meta.user?.id ?? null);
    const logData = via === "mass" ? { ...(data as object | undefined), via } : data;
    return transition(ctx, t, { status: "closed", activeKey: null, closedAt: new Date(), closedVia: via, unreadMessages: 0, hasUnread: false }, [[how, by, logData]], (fresh) => {
      if (fresh.status === "closed") throw conflict(fresh);
      if (me && fresh.userId && fresh.userId !== me.id && !me.supervisor) throw new AppError("ERR_NO_PERMISSION");
    });
  }

  async function reopen(ctx: Ctx, t: Ticket, row: TicketRow, settings: Settings) {
    const minutes = settings.noReopenMinutes ?? 0;
    if (minutes > 0 && row.closedAt && Date.now() - new Date(row.closedAt).getTime() < minutes * 60_000) {
      throw new AppError("ERR_TICKET_REOPEN_BLOCKED", { minutes });
    }
    const me = ctx.meta.user!.id;
    return transition(ctx, t, { status: "open", userId: me, closedAt: null, activeKey: activeKey(row.contactId, row.connectionId) }, [["reopened", me]], (fresh) => {
      if (fresh.status !== "closed") throw conflict(fresh);
    });
  }

  /** Opens a ticket holding the contact's active slot, or answers the one that holds it. */
  async function openActive(ctx: Ctx, o: OpenActive): Promise<{ ticket: TicketRow; created: boolean }> {
    const key = activeKey(o.contactId, o.connectionId);
    const existing = await TicketModel.findOne({ where: { tenantId: o.tenantId, activeKey: key } });
    if (existing) return { ticket: plain(existing), created: false };
    let t: Ticket;
    try {
      t = await sequelize.transaction(async (transaction) => {
        const row = await TicketModel.create(
          {
            tenantId: o.tenantId,
            contactId: o.contactId,
            connectionId: o.connectionId,
            queueId: o.queueId,
            userId: o.userId,
            status: o.status,
            isGroup: !!o.isGroup,
            activeKey: key,
            chatbotPluginId: o.chatbot?.pluginId ?? null,
            chatbotRef: o.chatbot?.ref ?? null,
            // An inbound ticket takes its activity time from its first message (touch);
            // one an agent opens starts now.
            lastMessageAt: o.userId && !o.deliveredBy ? Date.now() : 0,
          },
          { transaction },
        );
        await kit.log(o.tenantId, row.get("id") as number, ctx.meta.user?.id ?? null, "created", null, transaction);
        if (o.userId && o.deliveredBy) await kit.log(o.tenantId, row.get("id") as number, o.userId, o.deliveredBy.type, o.deliveredBy.data, transaction);
        else if (o.userId) await kit.log(o.tenantId, row.get("id") as number, o.userId, "started", null, transaction);
        if (o.chatbot) await kit.log(o.tenantId, row.get("id") as number, null, "chatBot", { pluginId: o.chatbot.pluginId, ref: o.chatbot.ref }, transaction);
        return row;
      });
    } catch (err) {
      if (err instanceof UniqueConstraintError) {
        // Another delivery opened it first: the database kept exactly one.
        const winner = await TicketModel.findOne({ where: { tenantId: o.tenantId, activeKey: key } });
        if (winner) return { ticket: plain(winner), created: false };
      }
      throw err;
    }
    await protocols.setProtocol(ctx, t);
    const row = plain(t);
    const contacts = await kit.summaries(ctx, row.tenantId, [row.contactId]);
    await kit.emitTicket(ctx, row, "ticket:create", contacts.get(row.contactId));
    return { ticket: row, created: true };
  }

  return {
    transition,
    transfer,
    botStarted,
    close,
    openActive,

    /**
     * tickets.autoClose: the automation's close (core/src/automation), by nobody, logged
     * "autoClose" with its reason ({ reason: "inactivity" | "smartClose" }). Null when the
     * ticket is gone or no longer active (closed meanwhile: nothing to do).
     */
    async autoClose(ctx: Ctx<{ tenantId: number; id: number; reason: "inactivity" | "smartClose" }>): Promise<TicketRow | null> {
      const { tenantId, id, reason } = ctx.params;
      const t = await TicketModel.findOne({ where: { id, tenantId } });
      if (!t || t.get("status") === "closed") return null;
      try {
        return await close(ctx, t, "automatic", undefined, { reason });
      } catch (err) {
        if ((err as { type?: string }).type === "ERR_CONFLICT") return null;
        throw err;
      }
    },

    async get(ctx: Ctx<{ id: number }>) {
      const { row, ticket, settings } = await kit.loadVisible(ctx, ctx.params.id);
      await kit.log(row.tenantId, row.id, ctx.meta.user!.id, "accessed");
      const [contacts, serviceWindow] = await Promise.all([kit.summaries(ctx, row.tenantId, [row.contactId]), serviceWindowOf(ctx, kit.Ticket, row, kit.deps.clock.now())]);
      if (kit.hidesContactInfo(ctx, settings)) for (const c of contacts.values()) c.number = null;
      // The provider's customer-service window, on channels that have one (service-window.ts): the composer offers templates once it closed.
      return { ...view(plain(ticket), contacts.get(row.contactId)), ...(serviceWindow ? { serviceWindow } : {}) };
    },

    async create(ctx: Ctx<{ contactId: number; connectionId?: number; queueId?: number; status?: "open" | "pending" }>) {
      const tenantId = ctx.meta.user?.tenantId;
      if (!tenantId) throw new AppError("ERR_SESSION_REQUIRED");
      const contact = await call(ctx, "contacts.getInternal", { tenantId, id: ctx.params.contactId });
      if (!contact) throw new AppError("ERR_CONTACT_NOT_FOUND", { field: "contactId" });
      let connectionId = ctx.params.connectionId ?? null;
      if (connectionId) {
        const c = await call(ctx, "connections.getInternal", { id: connectionId });
        if (!c || c.tenantId !== tenantId) throw new AppError("ERR_CONNECTION_NOT_FOUND", { field: "connectionId" });
      } else {
        const def = await call(ctx, "connections.defaultFor", { tenantId });
        if (!def) throw new AppError("ERR_NO_DEFAULT_CONNECTION");
        connectionId = def.id;
      }
      if (ctx.params.queueId) await checkQueue(ctx, tenantId, ctx.params.queueId);
      const status = ctx.params.status ?? "open";
      const { ticket, created } = await openActive(ctx, {
        tenantId,
        contactId: contact.id,
        connectionId,
        queueId: ctx.params.queueId ?? null,
        userId: status === "open" ? ctx.meta.user!.id : null,
        status,
      });
      if (!created) throw new AppError("ERR_CONTACT_OTHER_OPEN_TICKET", { ticketId: ticket.id, userId: ticket.userId });
      ctx.meta.$statusCode = 201;
      return view(ticket);
    },

    async update(ctx: Ctx<{ id: number; status?: TicketStatus; userId?: number | null; queueId?: number | null; pinned?: boolean; translation?: Record<string, unknown> }>) {
      const p = ctx.params;
      // Found (and visible) before anything else: another tenant's id answers 404 whatever the body.
      const { ticket, row, me, settings } = await kit.loadVisible(ctx, p.id);
      if (p.status === undefined && p.userId === undefined && p.queueId === undefined && p.pinned === undefined && p.translation === undefined) {
        throw new AppError("ERR_NO_STATUS_SELECTED", { field: "status" });
      }
      let current = row;
      if (p.pinned !== undefined && p.pinned !== !!row.pinned) current = await transition(ctx, ticket, { pinned: p.pinned }, [], anyState);
      if (p.translation !== undefined) current = await transition(ctx, ticket, { translation: p.translation }, [], anyState);
      // A change of user or queue without a status is a transfer.
      if (p.status === undefined && (p.userId !== undefined || p.queueId !== undefined)) {
        return view(await transfer(ctx, ticket, current, { userId: p.userId ?? undefined, queueId: p.queueId ?? undefined }));
      }
      // Someone else's ticket is for supervisors and admins to take, hand back or close.
      const mayTouch = (t: TicketRow) => !t.userId || t.userId === me.id || me.supervisor;
      if (p.status === "open") {
        if (current.status === "closed") return view(await reopen(ctx, ticket, current, settings));
        const target = p.userId ?? me.id;
        if (!mayTouch(current)) throw new AppError("ERR_NO_PERMISSION");
        if (target !== me.id && !me.supervisor) throw new AppError("ERR_NO_PERMISSION");
        if (current.status === "open" && current.userId === target && (!p.queueId || p.queueId === current.queueId)) return view(current);
        if (target !== me.id) await checkUser(ctx, current.tenantId, target);
        if (p.queueId && p.queueId !== current.queueId) await checkQueue(ctx, current.tenantId, p.queueId);
        const patch: Partial<TicketRow> = { status: "open", userId: target, unreadMessages: 0, hasUnread: false };
        if (p.queueId) patch.queueId = p.queueId;
        return view(
          await transition(ctx, ticket, patch, [["started", target]], (fresh) => {
            if (fresh.status === "closed") throw conflict(fresh);
            if (!mayTouch(fresh)) throw new AppError("ERR_NO_PERMISSION");
          }),
        );
      }
      if (p.status === "pending") {
        if (current.status === "closed") throw new AppError("ERR_VALIDATION", { field: "status", rule: "enumValue" });
        if (!mayTouch(current)) throw new AppError("ERR_NO_PERMISSION");
        return view(
          await transition(ctx, ticket, { status: "pending", userId: null }, [["pending", me.id]], (fresh) => {
            if (fresh.status === "closed") throw conflict(fresh);
            if (!mayTouch(fresh)) throw new AppError("ERR_NO_PERMISSION");
          }),
        );
      }
      if (p.status === "closed") {
        if (current.status === "closed") return view(current);
        if (!mayTouch(current)) throw new AppError("ERR_NO_PERMISSION");
        // The plugins' close guards (a closure questionnaire's required answers) may refuse.
        await call(ctx, "hooks.beforeClose", { tenantId: current.tenantId, ticket: ticketOf(current), userId: me.id });
        return view(await close(ctx, ticket, "agent", me));
      }
      return view(current);
    },

    async remove(ctx: Ctx<{ id: number }>) {
      const { ticket, row } = await kit.loadVisible(ctx, ctx.params.id);
      await call(ctx, "messages.removeForTicket", { tenantId: row.tenantId, ticketId: row.id });
      // The ticket goes, its log stays for audit: "deleted" (who, when) is its last entry.
      await sequelize.transaction(async (transaction) => {
        await TicketNote.destroy({ where: { tenantId: row.tenantId, ticketId: row.id }, transaction });
        await kit.log(row.tenantId, row.id, ctx.meta.user!.id, "deleted", { protocol: row.protocol ?? null, contactId: row.contactId }, transaction);
        await ticket.destroy({ transaction });
      });
      await kit.emitTicket(ctx, row, "ticket:delete");
      return { id: row.id, deleted: true };
    },
  };
}

export type Transitions = ReturnType<typeof createTransitions>;
