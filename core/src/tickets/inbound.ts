import { hotQuery, sqlDateTime } from "../db/sql";
import { retryDeadlocks } from "../db/deadlock";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import { TicketRow, activeKey } from "./model";
import type { ActiveTicket, TicketsActions, TouchedTicket } from "./contract";
import { plain, view, type TicketsKit } from "./kit";
import type { LogAndNotes } from "./log-notes";
import type { Transitions } from "./transitions";
import type { ChatbotRouting } from "./chatbot-routing";

export type TouchParams = TicketsActions["tickets.touch"]["params"];

type ImportTarget = { tenantId: number; contactId: number; connectionId: number; queueId: number | null; isGroup: boolean };

/**
 * The inbound hot path (channels.inbound): find a contact's active ticket, open one, record a
 * message on it. Each is one statement where it can be, as every inbound message pays them.
 */
export function createInbound(kit: TicketsKit, transitions: Pick<Transitions, "openActive">, protocols: Pick<LogAndNotes, "setProtocol">, routing: Pick<ChatbotRouting, "forInbound">) {
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
    const made = await retryDeadlocks(decide);
    const t = (await TicketModel.findOne({ where: { id: made.id, tenantId: o.tenantId } }))!;
    if (made.created) await protocols.setProtocol(ctx, t);
    return { ticket: plain(t), created: made.created };
  }

  /**
   * Spec §6 "ticket delivery can be forced to the owners of the contact's wallet": with the
   * tenant's forceWalletDelivery, the owner a new inbound ticket goes to — the first (lowest
   * id) online owner, else the first owner — among those still active. Null when the setting
   * is off or the wallet holds nobody who can take it (the ticket then waits as usual).
   */
  async function walletOwner(ctx: Ctx, tenantId: number, contactId: number): Promise<{ id: number; online: boolean } | null> {
    const settings = await kit.settingsOf(ctx, tenantId, true);
    if (settings.forceWalletDelivery !== true) return null;
    const contact = await call(ctx, "contacts.getInternal", { tenantId, id: contactId });
    const wallet = [...(contact?.wallet ?? [])].sort((a, b) => a - b);
    if (!wallet.length) return null;
    const users = await Promise.all(wallet.map((id) => call(ctx, "users.getInternal", { id })));
    const able = users.filter((u): u is NonNullable<typeof u> => !!u && u.tenantId === tenantId && u.active && !u.deletedAt);
    const chosen = able.find((u) => u.status === "online") ?? able[0];
    return chosen ? { id: chosen.id, online: chosen.status === "online" } : null;
  }

  return {
    closedForImport,

    async openForInbound(ctx: Ctx<{ tenantId: number; contactId: number; connectionId: number; queueId?: number | null; isGroup?: boolean; closed?: boolean; fromMe?: boolean; imported?: boolean }>) {
      const p = ctx.params;
      if (p.closed) return closedForImport(ctx, { tenantId: p.tenantId, contactId: p.contactId, connectionId: p.connectionId, queueId: p.queueId ?? null, isGroup: !!p.isGroup });
      const owner = p.isGroup ? null : await walletOwner(ctx, p.tenantId, p.contactId);
      if (owner) {
        // Open and held by the owner: in their list, in nobody's waiting (pending) list.
        return transitions.openActive(ctx, {
          tenantId: p.tenantId,
          contactId: p.contactId,
          connectionId: p.connectionId,
          queueId: p.queueId ?? null,
          userId: owner.id,
          status: "open",
          deliveredBy: { type: "userDefine", data: { reason: "wallet", online: owner.online } },
        });
      }
      // A customer's new conversation on a bound connection (or in a bound queue) is its bot's;
      // a channel's history (imported) is no conversation a bot could take part in.
      const bot = p.isGroup || p.fromMe || p.imported ? null : await routing.forInbound(ctx, p.tenantId, p.connectionId, p.queueId ?? null);
      return transitions.openActive(ctx, {
        tenantId: p.tenantId,
        contactId: p.contactId,
        connectionId: p.connectionId,
        queueId: p.queueId ?? null,
        userId: null,
        status: p.isGroup ? "group" : bot ? "chatbot" : "pending",
        isGroup: !!p.isGroup,
        chatbot: bot,
      });
    },

    async findActive(ctx: Ctx<{ tenantId: number; contactId: number; connectionId: number | null }>): Promise<ActiveTicket | null> {
      const { tenantId, contactId, connectionId } = ctx.params;
      const { rows } = await hotQuery<Pick<TicketRow, "id" | "queueId" | "userId" | "status" | "isGroup" | "unreadMessages" | "chatbotPluginId" | "chatbotRef">>(
        sequelize,
        "select",
        "SELECT id, queueId, userId, status, isGroup, unreadMessages, chatbotPluginId, chatbotRef FROM tickets WHERE tenantId = ? AND activeKey = ? LIMIT 1",
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
        chatbotPluginId: r.chatbotPluginId ?? null,
        chatbotRef: r.chatbotRef ?? null,
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
      if (p.quiet) return null;
      const t = await TicketModel.findOne({ where: { id: p.ticketId, tenantId: p.tenantId } });
      return t ? view(plain(t)) : null;
    },

    async markRead(ctx: Ctx<{ tenantId: number; ticketId: number }>) {
      await TicketModel.update({ unreadMessages: 0, hasUnread: false }, { where: { id: ctx.params.ticketId, tenantId: ctx.params.tenantId } });
      return true;
    },
  };
}
