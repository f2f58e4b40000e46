/**
 * A bot's part of a ticket (plugin-sdk chatbot-contract.ts, "Start" and "End"), asked by the
 * core API (platform/chatbots.ts) for the calling plugin: `chatbotStart` hands a pending
 * ticket without a user to one of its bots, `chatbotHandoff` ends the bot's part. Both are the
 * guarded transitions of transitions.ts (row lock, the fresh state checked, log, realtime and
 * tickets.changed), so an agent accepting the ticket at the same moment and the bot cannot both
 * win: whoever comes second sees what the first did.
 */
import { Op } from "sequelize";
import type { ChatbotDistribution, ChatbotHandoffReason } from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import { call } from "../bus/call";
import type { Ctx } from "../types";
import type { LogType, TicketRow } from "./model";
import { plain, type TicketsKit } from "./kit";
import type { Transitions } from "./transitions";
import type { ChatbotRouting } from "./chatbot-routing";

export interface ChatbotStartParams {
  tenantId: number;
  ticketId: number;
  pluginId: string;
  ref: string;
}

export interface ChatbotHandoffParams {
  tenantId: number;
  ticketId: number;
  pluginId: string;
  queueId?: number | null;
  userId?: number | null;
  distribute?: ChatbotDistribution;
  reason?: ChatbotHandoffReason;
}

type LogEntry = [LogType, number | null, unknown?];

const notOwner = (id: number) => new AppError("ERR_CHATBOT_NOT_OWNER", { id });

export function createChatbotTickets(kit: TicketsKit, transitions: Pick<Transitions, "transition" | "botStarted">, routing: Pick<ChatbotRouting, "forQueue">) {
  const { Ticket: TicketModel } = kit;

  async function load(tenantId: number, id: number) {
    const t = await TicketModel.findOne({ where: { id, tenantId } });
    if (!t) throw new AppError("ERR_TICKET_NOT_FOUND", { id });
    return t;
  }

  /** A user a bot may hand a ticket to: of the tenant, not deleted, active. */
  async function checkUser(ctx: Ctx, tenantId: number, userId: number) {
    const u = await call(ctx, "users.getInternal", { id: userId });
    if (!u || u.tenantId !== tenantId || u.deletedAt) throw new AppError("ERR_USER_NOT_FOUND", { field: "userId", id: userId });
    if (!u.active) throw new AppError("ERR_VALIDATION", { field: "userId", rule: "any" });
  }

  async function checkQueue(ctx: Ctx, tenantId: number, queueId: number) {
    if (!(await call(ctx, "queues.existing", { tenantId, ids: [queueId] })).length) throw new AppError("ERR_QUEUE_NOT_FOUND", { field: "queueId", id: queueId });
  }

  /**
   * The queue's user a distributed hand-off picks among its online, active users: "balance" the
   * one with the fewest open tickets (ties: the lowest id), "random" any; null when none is online.
   */
  async function distributed(ctx: Ctx, tenantId: number, queueId: number, how: ChatbotDistribution): Promise<number | null> {
    if (how === "none") return null;
    const users = (await call(ctx, "users.listInternal", { tenantId }))
      .filter((u) => u.tenantId === tenantId && u.active && !u.deletedAt && u.status === "online" && (u.queues ?? []).includes(queueId))
      .map((u) => u.id)
      .sort((a, b) => a - b);
    if (!users.length) return null;
    if (how === "random") return users[Math.floor(Math.random() * users.length)];
    const counts = (await TicketModel.count({ where: { tenantId, status: "open", userId: { [Op.in]: users } }, group: ["userId"] })) as unknown as Array<{ userId: number; count: number }>;
    const open = new Map(counts.map((c) => [Number(c.userId), Number(c.count)]));
    return users.reduce((best, u) => ((open.get(u) ?? 0) < (open.get(best) ?? 0) ? u : best), users[0]);
  }

  return {
    /** A pending ticket without a user becomes the calling plugin's bot `ref`'s; the plugin then gets its start. */
    async chatbotStart(ctx: Ctx<ChatbotStartParams>): Promise<TicketRow> {
      const { tenantId, ticketId, pluginId, ref } = ctx.params;
      const t = await load(tenantId, ticketId);
      // The ticket's state decides: another bot's (not this plugin's), an agent's, or not waiting at all.
      const check = (fresh: TicketRow) => {
        if (fresh.status === "chatbot") {
          if (fresh.chatbotPluginId !== pluginId) throw notOwner(fresh.id);
          return;
        }
        if (fresh.userId || fresh.status === "open") throw new AppError("ERR_TICKET_ALREADY_ASSIGNED", { id: fresh.id });
        if (fresh.status !== "pending") throw new AppError("ERR_CONFLICT", { id: fresh.id, reason: "ticket-not-pending" });
      };
      check(plain(t));
      const after = await transitions.transition(ctx, t, { status: "chatbot", userId: null, chatbotPluginId: pluginId, chatbotRef: ref }, [["chatBot", null, { pluginId, ref, reason: "start" }]], check);
      await transitions.botStarted(ctx, after);
      return after;
    },

    /**
     * The bot's part ends: to `userId` (open), or to `queueId` (pending, or to a user of it by
     * `distribute`; a queue with a bot of its own hands it to that bot, unless it is this same
     * bot), or, with neither, pending in its queue. Only the owning plugin, while the ticket is
     * still its bot's.
     */
    async chatbotHandoff(ctx: Ctx<ChatbotHandoffParams>): Promise<TicketRow> {
      const { tenantId, ticketId, pluginId, reason } = ctx.params;
      const t = await load(tenantId, ticketId);
      const row = plain(t);
      const owns = (fresh: TicketRow) => {
        if (fresh.status !== "chatbot" || fresh.chatbotPluginId !== pluginId) throw notOwner(fresh.id);
      };
      owns(row);
      const ref = row.chatbotRef;
      if (ctx.params.userId) await checkUser(ctx, tenantId, ctx.params.userId);
      if (ctx.params.queueId) await checkQueue(ctx, tenantId, ctx.params.queueId);
      const attempts = reason === "attempts";
      const by = { pluginId, ref, reason: reason ?? "flow" };
      const queueId = ctx.params.queueId ?? row.queueId;
      const userId = ctx.params.userId ?? (ctx.params.queueId ? await distributed(ctx, tenantId, ctx.params.queueId, ctx.params.distribute ?? "none") : null);

      const logs: LogEntry[] = [];
      if (ctx.params.queueId || !userId) logs.push([attempts ? "retriesLimitQueue" : "queue", null, { ...by, queueId }]);
      if (userId) {
        logs.push([attempts ? "retriesLimitUserDefine" : "userDefine", userId, { ...by, ...(ctx.params.userId ? {} : { distribute: ctx.params.distribute }) }]);
        return transitions.transition(ctx, t, { status: "open", userId, queueId, unreadMessages: 0, hasUnread: false }, logs, owns);
      }
      // To a queue with a bot of its own (not this same bot: no loop) the ticket is that bot's.
      const next = ctx.params.queueId ? await routing.forQueue(ctx, tenantId, ctx.params.queueId) : null;
      if (next && !(next.pluginId === pluginId && next.ref === ref)) {
        logs.push(["chatBot", null, { pluginId: next.pluginId, ref: next.ref }]);
        const after = await transitions.transition(ctx, t, { status: "chatbot", userId: null, queueId, chatbotPluginId: next.pluginId, chatbotRef: next.ref }, logs, owns);
        await transitions.botStarted(ctx, after);
        return after;
      }
      return transitions.transition(ctx, t, { status: "pending", userId: null, queueId }, logs, owns);
    },
  };
}
