import { Op, QueryTypes, UniqueConstraintError } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { tenantDbMixin } from "../db/tenant-db.mixin";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import { AuthUser, Ctx, isAdmin } from "../types";
import { ACTIVE_STATUSES, LogType, Ticket, TicketRow, TicketStatus, TICKET_STATUSES, activeKey, defineTicketModels } from "./model";
import { listPage, ListedRow } from "./list-query";
import { createListCache } from "./list-cache";
import { hotQuery, sqlDateTime } from "../db/sql";
import { searchText } from "../db/search";
import { formatProtocol, ProtocolFormat } from "./protocol";
import { pushRealtime, ticketRooms, visibilityOf } from "../realtime/push";

type Settings = {
  noReopenMinutes: number;
  protocol: ProtocolFormat;
  ticketsOwnerOnly: boolean;
  botAndUnassignedAdminOnly: boolean;
  hideContactInfo: boolean;
  pageSize: number;
};

interface Me {
  id: number;
  queues: number[];
  admin: boolean;
  supervisor: boolean;
}

const idParam = { id: { type: "number", integer: true, positive: true, convert: true } };
const boolQ = { type: "boolean", optional: true, convert: true };

function csvOrArray(v: unknown): string[] {
  if (v === undefined || v === null || v === "") return [];
  if (Array.isArray(v)) return v.map(String);
  return String(v).split(",").map((s) => s.trim()).filter(Boolean);
}

/**
 * Tickets (atendimentos): states and transitions of spec §4, the activity log, notes,
 * protocol numbers, visibility of spec §6 and the attendance list of spec §3.
 *
 * One active ticket per contact and connection is a database rule (tickets.activeKey), so
 * concurrent inbound messages from a new number open exactly one ticket.
 */
export function createTicketsService(deps: CoreDeps): ServiceSchema {
  const { Ticket: TicketModel, TicketLog, TicketNote } = defineTicketModels(deps.sequelize);

  const plain = (t: Ticket) => t.get({ plain: true }) as TicketRow;
  /** The caller's queues and the tenant's settings for list calls (short TTL, dropped on change events). */
  const listCache = createListCache();

  async function settingsOf(ctx: Ctx, tenantId: number, cached = false): Promise<Settings> {
    if (cached) return listCache.settings<Settings>(ctx, tenantId);
    return (await ctx.call("settings.forTenant", { tenantId })) as Settings;
  }

  async function meOf(ctx: Ctx, cached = false): Promise<Me> {
    const u = ctx.meta.user as AuthUser;
    const row = cached ? await listCache.user(ctx, u.id) : ((await ctx.call("users.getInternal", { id: u.id })) as { queues: number[] } | null);
    return { id: u.id, queues: row?.queues ?? [], admin: isAdmin(u), supervisor: u.profile === "supervisor" || isAdmin(u) };
  }

  /** Spec §6: admins and supervisors see every ticket; others their own, their queues', and unassigned ones without a queue. */
  function canSee(me: Me, t: TicketRow, s: Settings): boolean {
    if (me.supervisor) return true;
    if (t.userId === me.id) return true;
    if (t.status === "chatbot" && s.botAndUnassignedAdminOnly) return false;
    if (t.queueId === null) return !s.botAndUnassignedAdminOnly && t.userId === null;
    if (!me.queues.includes(t.queueId)) return false;
    return !s.ticketsOwnerOnly || t.userId === null;
  }

  /** Spec §6: with hideContactInfo, non-admins do not get contacts' phone numbers (admin status, as in contacts). */
  function hidesContactInfo(ctx: Ctx, s: Settings): boolean {
    const v = s.hideContactInfo as unknown;
    return !isAdmin(ctx.meta.user) && (v === true || v === "true" || v === 1);
  }
  const fold = (x: string) => x.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

  async function summaries(ctx: Ctx, tenantId: number, contactIds: number[]) {
    if (!contactIds.length) return new Map<number, { id: number; name: string; number: string | null; profilePicUrl: string | null }>();
    const list = (await ctx.call("contacts.summaries", { tenantId, ids: [...new Set(contactIds)] })) as Array<{
      id: number;
      name: string;
      number: string | null;
      profilePicUrl: string | null;
    }>;
    return new Map(list.map((c) => [c.id, c]));
  }

  function view(t: TicketRow, contact?: { id: number; name: string; number?: string | null; profilePicUrl?: string | null }) {
    return {
      id: t.id,
      tenantId: t.tenantId,
      protocol: t.protocol,
      status: t.status,
      contactId: t.contactId,
      connectionId: t.connectionId,
      queueId: t.queueId,
      userId: t.userId,
      isGroup: !!t.isGroup,
      pinned: !!t.pinned,
      unreadMessages: t.unreadMessages,
      lastMessage: t.lastMessage,
      lastMessageAt: Number(t.lastMessageAt),
      closedAt: t.closedAt,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      contact: contact ? { id: contact.id, name: contact.name, number: contact.number ?? null, profilePicUrl: contact.profilePicUrl ?? null } : undefined,
    };
  }

  async function log(tenantId: number, ticketId: number, userId: number | null, type: LogType, data: unknown = null, transaction?: unknown) {
    await TicketLog.create({ tenantId, ticketId, userId, type, data }, { transaction: transaction as never });
  }

  async function emitTicket(ctx: Ctx, t: TicketRow, type: "ticket:update" | "ticket:delete" | "ticket:create", contact?: { id: number; name: string; profilePicUrl?: string | null }, before?: TicketRow) {
    const v = await visibilityOf(ctx, t.tenantId);
    const targets = new Set(ticketRooms(t, v));
    // Those who could see it before a transfer learn that it left them.
    if (before) for (const r of ticketRooms(before, v)) targets.add(r);
    // The list rooms hold agents too: the contact's number is not sent to them (hideContactInfo).
    const shown = contact ? { id: contact.id, name: contact.name, number: null, profilePicUrl: contact.profilePicUrl ?? null } : undefined;
    pushRealtime(ctx, { rooms: [...targets], event: `${t.tenantId}:ticketList`, payload: { type, payload: view(t, shown) } });
  }

  /** Loads a ticket of the caller's tenant that the caller may see (404 otherwise). */
  async function loadVisible(ctx: Ctx, id: number, cached = false): Promise<{ ticket: Ticket; row: TicketRow; me: Me; settings: Settings }> {
    const tenantId = ctx.meta.user!.tenantId;
    const ticket = await TicketModel.findOne({ where: { id, tenantId } });
    if (!ticket) throw new AppError("ERR_TICKET_NOT_FOUND", { id });
    const [me, settings] = await Promise.all([meOf(ctx, cached), settingsOf(ctx, tenantId, cached)]);
    const row = plain(ticket);
    if (!canSee(me, row, settings)) throw new AppError("ERR_TICKET_NOT_FOUND", { id });
    return { ticket, row, me, settings };
  }

  async function setProtocol(ctx: Ctx, t: Ticket, transaction?: unknown) {
    const r = plain(t);
    const s = await settingsOf(ctx, r.tenantId);
    const tenant = (await ctx.call("tenants.getInternal", { id: r.tenantId })) as { timezone?: string } | null;
    const protocol = formatProtocol(r.id, r.createdAt ?? new Date(), s.protocol, tenant?.timezone ?? "America/Sao_Paulo");
    await t.update({ protocol }, { transaction: transaction as never });
  }

  type Guard = (fresh: TicketRow) => void;

  /** The state a decision was taken on must still hold: otherwise another request won the race. */
  const sameState =
    (before: TicketRow): Guard =>
    (fresh) => {
      if (fresh.status !== before.status || fresh.userId !== before.userId || fresh.queueId !== before.queueId) {
        throw new AppError("ERR_CONFLICT", { id: before.id, reason: "ticket-changed" });
      }
    };
  const anyState: Guard = () => undefined;

  /**
   * Moves a ticket to a new state. The row is locked and read again inside the transaction and
   * the guard checks that fresh state, so two agents accepting (or transferring, reopening…)
   * the same ticket at once cannot both win: the second sees what the first did.
   */
  async function transition(ctx: Ctx, t: Ticket, patch: Partial<TicketRow>, logs: Array<[LogType, number | null, unknown?]>, guard?: Guard) {
    const before = plain(t);
    try {
      await deps.sequelize.transaction(async (transaction) => {
        const fresh = await TicketModel.findOne({ where: { id: before.id, tenantId: before.tenantId }, transaction, lock: transaction.LOCK.UPDATE });
        if (!fresh) throw new AppError("ERR_TICKET_NOT_FOUND", { id: before.id });
        (guard ?? sameState(before))(plain(fresh));
        await fresh.update(patch, { transaction });
        for (const [type, userId, data] of logs) await log(before.tenantId, before.id, userId, type, data ?? null, transaction);
      });
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
    const contacts = await summaries(ctx, after.tenantId, [after.contactId]);
    await emitTicket(ctx, after, "ticket:update", contacts.get(after.contactId), before);
    return after;
  }

  /** A user a ticket may be given to: of the tenant, not deleted, active. */
  async function checkUser(ctx: Ctx, tenantId: number, userId: number) {
    const u = (await ctx.call("users.getInternal", { id: userId })) as { tenantId: number; deletedAt: Date | null; active: boolean } | null;
    if (!u || u.tenantId !== tenantId || u.deletedAt) throw new AppError("ERR_USER_NOT_FOUND", { field: "userId" });
    if (!u.active) throw new AppError("ERR_VALIDATION", { field: "userId", rule: "any" });
  }

  async function transfer(ctx: Ctx, t: Ticket, row: TicketRow, to: { userId?: number | null; queueId?: number | null }) {
    const tenantId = row.tenantId;
    if (!to.userId && !to.queueId) throw new AppError("ERR_TRANSFER_TARGET_REQUIRED", { field: "userId" });
    if ((to.userId && to.userId === row.userId && !to.queueId) || (to.queueId && to.queueId === row.queueId && !to.userId)) {
      throw new AppError("ERR_TICKET_ALREADY_ASSIGNED");
    }
    if (to.userId && to.userId === row.userId && to.queueId === row.queueId) throw new AppError("ERR_TICKET_ALREADY_ASSIGNED");
    if (to.userId) await checkUser(ctx, tenantId, to.userId);
    if (to.queueId) {
      const found = (await ctx.call("queues.existing", { tenantId, ids: [to.queueId] })) as number[];
      if (!found.length) throw new AppError("ERR_QUEUE_NOT_FOUND", { field: "queueId" });
    }
    const patch: Partial<TicketRow> = {};
    if (to.queueId) patch.queueId = to.queueId;
    if (to.userId) patch.userId = to.userId;
    else patch.userId = null; // to a queue only: back to the queue's waiting list
    if (!to.userId) patch.status = row.status === "closed" ? "closed" : "pending";
    const me = ctx.meta.user!.id;
    return transition(ctx, t, patch, [
      ["transfered", me, { from: { userId: row.userId, queueId: row.queueId }, to }],
      ...(to.userId ? ([["receivedTransfer", to.userId, { from: me }]] as Array<[LogType, number | null, unknown?]>) : []),
    ]);
  }

  return {
    name: "tickets",
    mixins: [tenantDbMixin(deps.sequelize, TicketModel)],
    settings: { rest: "/" },
    events: listCache.events,
    actions: {
      list: {
        rest: "GET /tickets",
        access: "user",
        params: {
          status: { type: "any", optional: true },
          queuesIds: { type: "any", optional: true },
          searchParam: { type: "string", optional: true, max: 100 },
          showAll: boolQ,
          withUnreadMessages: boolQ,
          isNotAssignedUser: boolQ,
          includeNotQueueDefined: boolQ,
          pageNumber: { type: "number", integer: true, min: 1, max: 100000, optional: true, convert: true },
          pageSize: { type: "number", integer: true, min: 1, max: 100, optional: true, convert: true },
        },
        async handler(ctx: Ctx<Record<string, unknown>>) {
          const p = ctx.params;
          const tenantId = ctx.meta.user!.tenantId;
          const statuses = csvOrArray(p.status).length ? csvOrArray(p.status) : ["open", "pending"];
          for (const s of statuses) if (!(TICKET_STATUSES as readonly string[]).includes(s)) throw new AppError("ERR_VALIDATION", { field: "status", rule: "enumValue" });
          const queueIds = csvOrArray(p.queuesIds).map(Number);
          if (queueIds.some((q) => !Number.isInteger(q) || q <= 0)) throw new AppError("ERR_VALIDATION", { field: "queuesIds", rule: "number" });
          const [me, settings] = await Promise.all([meOf(ctx, true), settingsOf(ctx, tenantId, true)]);
          const pageSize = (p.pageSize as number | undefined) ?? settings.pageSize ?? 40;
          const pageNumber = (p.pageNumber as number | undefined) ?? 1;
          let contactIds: number[] | undefined;
          let protocolOrId: { protocol: string; id: number | null } | undefined;
          const search = (p.searchParam as string | undefined)?.trim();
          if (search) {
            if (search.length < 2) throw new AppError("ERR_SEARCH_TOO_SHORT", { field: "searchParam" });
            contactIds = (await ctx.call("contacts.searchIds", { tenantId, q: search, limit: 500 })) as number[];
            if (hidesContactInfo(ctx, settings) && contactIds.length) {
              // What the caller may not see is no search key for them: names only.
              const names = await summaries(ctx, tenantId, contactIds);
              contactIds = contactIds.filter((id) => fold(names.get(id)?.name ?? "").includes(fold(search)));
            }
            // The list's SQL takes replacements, written into its text: see searchText.
            protocolOrId = { protocol: searchText(search), id: /^\d{1,9}$/.test(search) ? Number(search) : null };
          }
          const page = await listPage({
            tenantId,
            statuses: statuses as TicketStatus[],
            queueIds,
            showAll: !!p.showAll,
            me: { id: me.id, queues: me.queues, admin: me.supervisor },
            withUnreadMessages: !!p.withUnreadMessages,
            isNotAssignedUser: !!p.isNotAssignedUser,
            includeNotQueueDefined: p.includeNotQueueDefined === undefined ? true : !!p.includeNotQueueDefined,
            contactIds,
            protocolOrId,
            settings,
            offset: (pageNumber - 1) * pageSize,
            limit: pageSize,
            datesAsText: deps.sequelize.getDialect() === "mysql",
          }, (sql, replacements) => deps.sequelize.query(sql, { replacements, type: QueryTypes.SELECT }) as Promise<ListedRow[]>);
          const contacts = await summaries(ctx, tenantId, page.rows.map((r) => Number(r.contactId)));
          if (hidesContactInfo(ctx, settings)) for (const c of contacts.values()) c.number = null;
          return {
            tickets: page.rows.map((r) => {
              const t = { ...(r as unknown as TicketRow), lastMessageAt: Number(r.lastMessageAt), isGroup: !!r.isGroup, pinned: !!r.pinned } as TicketRow;
              return view(t, contacts.get(t.contactId));
            }),
            hasMore: page.hasMore,
            pageNumber,
          };
        },
      },

      get: {
        rest: "GET /tickets/:id",
        access: "user",
        resource: "tickets",
        params: idParam,
        async handler(ctx: Ctx<{ id: number }>) {
          const { row, ticket, settings } = await loadVisible(ctx, ctx.params.id);
          await log(row.tenantId, row.id, ctx.meta.user!.id, "accessed");
          const contacts = await summaries(ctx, row.tenantId, [row.contactId]);
          if (hidesContactInfo(ctx, settings)) for (const c of contacts.values()) c.number = null;
          return view(plain(ticket), contacts.get(row.contactId));
        },
      },

      logs: {
        rest: "GET /tickets/:id/logs",
        access: "user",
        resource: "tickets",
        params: idParam,
        async handler(ctx: Ctx<{ id: number }>) {
          const { row } = await loadVisible(ctx, ctx.params.id);
          const logs = await TicketLog.findAll({ where: { tenantId: row.tenantId, ticketId: row.id }, order: [["id", "ASC"]], limit: 1000 });
          return logs.map((l) => l.get({ plain: true }));
        },
      },

      create: {
        rest: "POST /tickets",
        access: "user",
        params: {
          contactId: { type: "number", integer: true, positive: true, convert: true },
          connectionId: { type: "number", integer: true, positive: true, convert: true, optional: true },
          queueId: { type: "number", integer: true, positive: true, convert: true, optional: true },
          status: { type: "enum", values: ["open", "pending"], optional: true },
        },
        async handler(this: any, ctx: Ctx<{ contactId: number; connectionId?: number; queueId?: number; status?: "open" | "pending" }>) {
          const tenantId = this.tenantOf(ctx);
          const contact = (await ctx.call("contacts.getInternal", { tenantId, id: ctx.params.contactId })) as { id: number } | null;
          if (!contact) throw new AppError("ERR_CONTACT_NOT_FOUND", { field: "contactId" });
          let connectionId = ctx.params.connectionId ?? null;
          if (connectionId) {
            const c = (await ctx.call("connections.getInternal", { id: connectionId })) as { tenantId: number } | null;
            if (!c || c.tenantId !== tenantId) throw new AppError("ERR_CONNECTION_NOT_FOUND", { field: "connectionId" });
          } else {
            const def = (await ctx.call("connections.defaultFor", { tenantId })) as { id: number } | null;
            if (!def) throw new AppError("ERR_NO_DEFAULT_CONNECTION");
            connectionId = def.id;
          }
          if (ctx.params.queueId) {
            const found = (await ctx.call("queues.existing", { tenantId, ids: [ctx.params.queueId] })) as number[];
            if (!found.length) throw new AppError("ERR_QUEUE_NOT_FOUND", { field: "queueId" });
          }
          const status = ctx.params.status ?? "open";
          const { ticket, created } = await this.openActive(ctx, {
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
      },

      update: {
        rest: "PUT /tickets/:id",
        access: "user",
        resource: "tickets",
        params: {
          ...idParam,
          status: { type: "enum", values: ["open", "pending", "closed"], optional: true },
          userId: { type: "number", integer: true, positive: true, convert: true, optional: true, nullable: true },
          queueId: { type: "number", integer: true, positive: true, convert: true, optional: true, nullable: true },
          pinned: { type: "boolean", optional: true, convert: true },
          translation: { type: "object", optional: true },
        },
        async handler(this: any, ctx: Ctx<{ id: number; status?: TicketStatus; userId?: number | null; queueId?: number | null; pinned?: boolean; translation?: Record<string, unknown> }>) {
          const p = ctx.params;
          // Found (and visible) before anything else: another tenant's id answers 404 whatever the body.
          const { ticket, row, me, settings } = await loadVisible(ctx, p.id);
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
          if (p.status === "open") {
            if (current.status === "closed") return view(await this.reopen(ctx, ticket, current, settings));
            const target = p.userId ?? me.id;
            // Accepting a ticket someone else holds is for supervisors and admins.
            if (current.userId && current.userId !== me.id && !me.supervisor) throw new AppError("ERR_NO_PERMISSION");
            if (target !== me.id && !me.supervisor) throw new AppError("ERR_NO_PERMISSION");
            if (current.status === "open" && current.userId === target && (!p.queueId || p.queueId === current.queueId)) return view(current);
            if (target !== me.id) await checkUser(ctx, current.tenantId, target);
            if (p.queueId && p.queueId !== current.queueId) {
              const found = (await ctx.call("queues.existing", { tenantId: current.tenantId, ids: [p.queueId] })) as number[];
              if (!found.length) throw new AppError("ERR_QUEUE_NOT_FOUND", { field: "queueId" });
            }
            const patch: Partial<TicketRow> = { status: "open", userId: target, unreadMessages: 0, hasUnread: false };
            if (p.queueId) patch.queueId = p.queueId;
            return view(
              await transition(ctx, ticket, patch, [["started", target]], (fresh) => {
                if (fresh.status === "closed") throw new AppError("ERR_CONFLICT", { id: fresh.id, reason: "ticket-changed" });
                if (fresh.userId && fresh.userId !== me.id && !me.supervisor) throw new AppError("ERR_NO_PERMISSION");
              }),
            );
          }
          if (p.status === "pending") {
            if (current.status === "closed") throw new AppError("ERR_VALIDATION", { field: "status", rule: "enumValue" });
            if (current.userId && current.userId !== me.id && !me.supervisor) throw new AppError("ERR_NO_PERMISSION");
            return view(
              await transition(ctx, ticket, { status: "pending", userId: null }, [["pending", me.id]], (fresh) => {
                if (fresh.status === "closed") throw new AppError("ERR_CONFLICT", { id: fresh.id, reason: "ticket-changed" });
                if (fresh.userId && fresh.userId !== me.id && !me.supervisor) throw new AppError("ERR_NO_PERMISSION");
              }),
            );
          }
          if (p.status === "closed") {
            if (current.status === "closed") return view(current);
            if (current.userId && current.userId !== me.id && !me.supervisor) throw new AppError("ERR_NO_PERMISSION");
            return view(await this.close(ctx, ticket, "closed", me));
          }
          return view(current);
        },
      },

      remove: {
        rest: "DELETE /tickets/:id",
        access: "admin",
        resource: "tickets",
        params: idParam,
        async handler(ctx: Ctx<{ id: number }>) {
          const { ticket, row } = await loadVisible(ctx, ctx.params.id);
          await ctx.call("messages.removeForTicket", { tenantId: row.tenantId, ticketId: row.id });
          await deps.sequelize.transaction(async (transaction) => {
            await TicketNote.destroy({ where: { tenantId: row.tenantId, ticketId: row.id }, transaction });
            await TicketLog.destroy({ where: { tenantId: row.tenantId, ticketId: row.id }, transaction });
            await ticket.destroy({ transaction });
          });
          await emitTicket(ctx, row, "ticket:delete");
          return { id: row.id, deleted: true };
        },
      },

      notes: {
        rest: "GET /tickets/:id/notes",
        access: "user",
        resource: "tickets",
        params: idParam,
        async handler(ctx: Ctx<{ id: number }>) {
          const { row } = await loadVisible(ctx, ctx.params.id);
          const notes = await TicketNote.findAll({ where: { tenantId: row.tenantId, ticketId: row.id }, order: [["id", "ASC"]], limit: 500 });
          return notes.map((n) => n.get({ plain: true }));
        },
      },
      addNote: {
        rest: "POST /tickets/:id/notes",
        access: "user",
        resource: "tickets",
        params: { ...idParam, body: { type: "string", min: 1, max: 10000, trim: true } },
        async handler(ctx: Ctx<{ id: number; body: string }>) {
          const { row } = await loadVisible(ctx, ctx.params.id);
          const note = await TicketNote.create({ tenantId: row.tenantId, ticketId: row.id, userId: ctx.meta.user!.id, body: ctx.params.body });
          ctx.meta.$statusCode = 201;
          pushRealtime(ctx, { rooms: ticketRooms(row, await visibilityOf(ctx, row.tenantId)), event: `${row.tenantId}:ticketNote`, payload: { ticketId: row.id, note: note.get({ plain: true }) } });
          return note.get({ plain: true });
        },
      },

      massTransfer: {
        rest: "POST /tickets/mass-transfer",
        access: "admin",
        params: {
          ticketIds: { type: "array", items: { type: "number", integer: true, positive: true }, min: 1, max: 500 },
          userId: { type: "number", integer: true, positive: true, optional: true, convert: true },
          queueId: { type: "number", integer: true, positive: true, optional: true, convert: true },
        },
        async handler(ctx: Ctx<{ ticketIds: number[]; userId?: number; queueId?: number }>) {
          if (!ctx.params.userId && !ctx.params.queueId) throw new AppError("ERR_TRANSFER_TARGET_REQUIRED", { field: "userId" });
          const tenantId = ctx.meta.user!.tenantId;
          const rows = await TicketModel.findAll({ where: { tenantId, id: { [Op.in]: ctx.params.ticketIds } } });
          if (rows.length !== new Set(ctx.params.ticketIds).size) throw new AppError("ERR_TICKET_NOT_FOUND");
          const results: Array<{ id: number; ok: boolean; error?: string }> = [];
          for (const t of rows) {
            try {
              await transfer(ctx, t, plain(t), { userId: ctx.params.userId, queueId: ctx.params.queueId });
              results.push({ id: t.get("id") as number, ok: true });
            } catch (err) {
              results.push({ id: t.get("id") as number, ok: false, error: (err as { type?: string }).type ?? "ERR_INTERNAL" });
            }
          }
          return { results, transferred: results.filter((r) => r.ok).length };
        },
      },

      massResolve: {
        rest: "POST /tickets/mass-resolve",
        access: "admin",
        params: { ticketIds: { type: "array", items: { type: "number", integer: true, positive: true }, min: 1, max: 500 } },
        async handler(this: any, ctx: Ctx<{ ticketIds: number[] }>) {
          const tenantId = ctx.meta.user!.tenantId;
          const rows = await TicketModel.findAll({ where: { tenantId, id: { [Op.in]: ctx.params.ticketIds } } });
          if (rows.length !== new Set(ctx.params.ticketIds).size) throw new AppError("ERR_TICKET_NOT_FOUND");
          let resolved = 0;
          for (const t of rows) {
            if (t.get("status") === "closed") continue;
            try {
              await this.close(ctx, t, "closed");
              resolved++;
            } catch (err) {
              // Closed by someone else meanwhile: nothing left to do for it.
              if ((err as { type?: string }).type !== "ERR_CONFLICT") throw err;
            }
          }
          return { resolved };
        },
      },

      unreadCounts: {
        rest: "GET /tickets/unread-count",
        access: "user",
        async handler(ctx: Ctx) {
          // Bounded: a page of the unread-only list per status, not a count over the table.
          const out: Record<string, number> = {};
          for (const status of ["open", "pending"] as const) {
            const r = (await ctx.call("tickets.list", { status, withUnreadMessages: true, pageSize: 100 }, { meta: ctx.meta })) as { tickets: unknown[]; hasMore: boolean };
            out[status] = r.hasMore ? 100 : r.tickets.length;
          }
          return { ...out, capped: 100 };
        },
      },

      // --- internal ---------------------------------------------------------------------------
      /**
       * The active ticket of a contact on a connection, opened when there is none (race-safe).
       * `closed` (a channel's history import that closes its tickets): the contact's newest
       * closed ticket on the connection instead, made closed and quietly when there is none.
       */
      openForInbound: {
        visibility: "public",
        params: {
          tenantId: "number",
          contactId: "number",
          connectionId: "number",
          queueId: { type: "number", optional: true, nullable: true },
          isGroup: { type: "boolean", optional: true },
          closed: { type: "boolean", optional: true },
        },
        async handler(this: any, ctx: Ctx<{ tenantId: number; contactId: number; connectionId: number; queueId?: number | null; isGroup?: boolean; closed?: boolean }>) {
          const p = ctx.params;
          if (p.closed) return this.closedForImport(ctx, { tenantId: p.tenantId, contactId: p.contactId, connectionId: p.connectionId, queueId: p.queueId ?? null, isGroup: !!p.isGroup });
          return this.openActive(ctx, {
            tenantId: p.tenantId,
            contactId: p.contactId,
            connectionId: p.connectionId,
            queueId: p.queueId ?? null,
            userId: null,
            status: p.isGroup ? "group" : "pending",
            isGroup: !!p.isGroup,
          });
        },
      },
      /**
       * Read only: the active ticket of a contact on a connection (what an inbound message
       * needs of it), or null; one statement on the active-key index.
       */
      findActive: {
        visibility: "public",
        params: { tenantId: "number", contactId: "number", connectionId: { type: "number", nullable: true } },
        async handler(ctx: Ctx<{ tenantId: number; contactId: number; connectionId: number | null }>) {
          const { tenantId, contactId, connectionId } = ctx.params;
          const { rows } = await hotQuery<Pick<TicketRow, "id" | "queueId" | "userId" | "status" | "isGroup" | "unreadMessages">>(
            deps.sequelize,
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
      },
      /**
       * Records a new message on the ticket: last message, activity time, unread count.
       * Answers the ticket as the update left it. With `expected` (the ticket's state as the
       * caller just read it), the update applies only while the ticket is still in that state,
       * and then the answer is known without reading the row again: unread count, status,
       * user and queue. Otherwise (or without `expected`) the update applies as always and the
       * row is read back.
       */
      touch: {
        visibility: "public",
        params: {
          tenantId: "number",
          ticketId: "number",
          body: { type: "string", optional: true },
          timestamp: "number",
          incoming: "boolean",
          // An imported message (a channel's history): the unread count stays as it is.
          keepUnread: { type: "boolean", optional: true },
          expected: {
            type: "object",
            optional: true,
            props: {
              unreadMessages: "number",
              status: "string",
              userId: { type: "number", nullable: true },
              queueId: { type: "number", nullable: true },
            },
          },
        },
        async handler(ctx: Ctx<{ tenantId: number; ticketId: number; body?: string; timestamp: number; incoming: boolean; keepUnread?: boolean; expected?: { unreadMessages: number; status: TicketStatus; userId: number | null; queueId: number | null } }>) {
          const p = ctx.params;
          const last = (p.body ?? "").slice(0, 255);
          // One statement: concurrent messages never lose an unread increment, and an older
          // message arriving late does not move the ticket's activity time backwards.
          const sets = p.keepUnread ? "" : p.incoming ? "unreadMessages = unreadMessages + 1, hasUnread = 1, " : "unreadMessages = 0, hasUnread = 0, ";
          const update = `UPDATE tickets SET ${sets} lastMessage = CASE WHEN ? >= lastMessageAt THEN ? ELSE lastMessage END, lastMessageAt = CASE WHEN ? > lastMessageAt THEN ? ELSE lastMessageAt END, updatedAt = ? WHERE id = ? AND tenantId = ?`;
          const values: unknown[] = [p.timestamp, last, p.timestamp, p.timestamp, sqlDateTime(deps.sequelize, new Date()), p.ticketId, p.tenantId];
          const e = p.expected;
          if (e) {
            const same = deps.sequelize.getDialect() === "mysql" ? "<=>" : "IS";
            const r = await hotQuery(deps.sequelize, "write", `${update} AND unreadMessages = ? AND status = ? AND userId ${same} ? AND queueId ${same} ?`, [...values, e.unreadMessages, e.status, e.userId, e.queueId]);
            if (r.affectedRows === 1) {
              return { id: p.ticketId, tenantId: p.tenantId, status: e.status, userId: e.userId, queueId: e.queueId, unreadMessages: p.keepUnread ? e.unreadMessages : p.incoming ? e.unreadMessages + 1 : 0 };
            }
          }
          await hotQuery(deps.sequelize, "write", update, values);
          const t = await TicketModel.findOne({ where: { id: p.ticketId, tenantId: p.tenantId } });
          return t ? view(plain(t)) : null;
        },
      },
      markRead: {
        visibility: "public",
        params: { tenantId: "number", ticketId: "number" },
        async handler(ctx: Ctx<{ tenantId: number; ticketId: number }>) {
          await TicketModel.update({ unreadMessages: 0, hasUnread: false }, { where: { id: ctx.params.ticketId, tenantId: ctx.params.tenantId } });
          return true;
        },
      },
      getInternal: {
        visibility: "public",
        params: { tenantId: "number", id: "number" },
        async handler(ctx: Ctx<{ tenantId: number; id: number }>) {
          const t = await TicketModel.findOne({ where: { id: ctx.params.id, tenantId: ctx.params.tenantId } });
          return t ? plain(t) : null;
        },
      },
      /** For the messages service: the ticket if the caller (ctx.meta.user) may see it. */
      visible: {
        visibility: "public",
        // `cached`: the caller's queues and the settings may come from the list cache (list calls only).
        params: { id: "number", cached: { type: "boolean", optional: true } },
        async handler(ctx: Ctx<{ id: number; cached?: boolean }>) {
          return (await loadVisible(ctx, ctx.params.id, !!ctx.params.cached)).row;
        },
      },
      countForContact: {
        visibility: "public",
        params: { tenantId: "number", contactId: "number" },
        handler(ctx: Ctx<{ tenantId: number; contactId: number }>) {
          return TicketModel.count({ where: { tenantId: ctx.params.tenantId, contactId: ctx.params.contactId } });
        },
      },
      countInQueue: {
        visibility: "public",
        params: { tenantId: "number", queueId: "number" },
        handler(ctx: Ctx<{ tenantId: number; queueId: number }>) {
          return TicketModel.count({ where: { tenantId: ctx.params.tenantId, queueId: ctx.params.queueId, status: { [Op.in]: ACTIVE_STATUSES } } });
        },
      },
      transferFromUser: {
        visibility: "public",
        params: { tenantId: "number", fromUserId: "number", toUserId: "number" },
        async handler(ctx: Ctx<{ tenantId: number; fromUserId: number; toUserId: number }>) {
          const [n] = await TicketModel.update({ userId: ctx.params.toUserId }, { where: { tenantId: ctx.params.tenantId, userId: ctx.params.fromUserId } });
          return { moved: n };
        },
      },
      /** Contacts merged: their tickets follow the kept contact (an active one closes if the kept contact already has one there). */
      moveContact: {
        visibility: "public",
        params: { tenantId: "number", fromContactId: "number", toContactId: "number" },
        async handler(ctx: Ctx<{ tenantId: number; fromContactId: number; toContactId: number }>) {
          const { tenantId, fromContactId, toContactId } = ctx.params;
          let moved = 0;
          for (const t of await TicketModel.findAll({ where: { tenantId, contactId: fromContactId } })) {
            const r = plain(t);
            try {
              await t.update({ contactId: toContactId, activeKey: r.activeKey ? activeKey(toContactId, r.connectionId) : null });
            } catch (err) {
              if (!(err instanceof UniqueConstraintError)) throw err;
              await t.update({ contactId: toContactId, activeKey: null, status: "closed", closedAt: new Date() });
              await log(tenantId, r.id, null, "closed", { reason: "contacts-merged" });
            }
            moved++;
          }
          await ctx.call("messages.moveContact", { tenantId, fromContactId, toContactId });
          return { moved };
        },
      },
      moveConnection: {
        visibility: "public",
        params: { tenantId: "number", fromConnectionId: "number", toConnectionId: "number" },
        async handler(ctx: Ctx<{ tenantId: number; fromConnectionId: number; toConnectionId: number }>) {
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
              await log(tenantId, r.id, null, "closed", { reason: "connection-transfer" });
              moved++;
            }
          }
          return { moved };
        },
      },
    },
    methods: {
      /** Opens a ticket holding the contact's active slot, or answers the one that holds it. */
      async openActive(
        ctx: Ctx,
        o: { tenantId: number; contactId: number; connectionId: number | null; queueId: number | null; userId: number | null; status: TicketStatus; isGroup?: boolean },
      ): Promise<{ ticket: TicketRow; created: boolean }> {
        const key = activeKey(o.contactId, o.connectionId);
        const existing = await TicketModel.findOne({ where: { tenantId: o.tenantId, activeKey: key } });
        if (existing) return { ticket: plain(existing), created: false };
        let t: Ticket;
        try {
          t = await deps.sequelize.transaction(async (transaction) => {
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
                // An inbound ticket takes its activity time from its first message (touch);
                // one an agent opens starts now.
                lastMessageAt: o.userId ? Date.now() : 0,
              },
              { transaction },
            );
            await log(o.tenantId, row.get("id") as number, ctx.meta.user?.id ?? null, "created", null, transaction);
            if (o.userId) await log(o.tenantId, row.get("id") as number, o.userId, "started", null, transaction);
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
        await setProtocol(ctx, t);
        const row = plain(t);
        const contacts = await summaries(ctx, row.tenantId, [row.contactId]);
        await emitTicket(ctx, row, "ticket:create", contacts.get(row.contactId));
        return { ticket: row, created: true };
      },
      /**
       * Where an imported message goes when its import closes tickets: the contact's newest
       * closed ticket on the connection, or a new one made closed (no realtime event: closed
       * tickets are in no live list). On MariaDB the contact's ticket rows are locked while
       * deciding, so two imported messages of a new contact at once make one ticket.
       */
      async closedForImport(ctx: Ctx, o: { tenantId: number; contactId: number; connectionId: number; queueId: number | null; isGroup: boolean }): Promise<{ ticket: TicketRow; created: boolean }> {
        // Two first messages at once both find nothing and both insert: InnoDB kills one of
        // them as a deadlock, and its second look finds the ticket the other made.
        const deadlock = (err: unknown) => (err as { parent?: { errno?: number } }).parent?.errno === 1213;
        const decide = () => deps.sequelize.transaction(async (transaction) => {
          const lock = deps.sequelize.getDialect() === "mysql" ? transaction.LOCK.UPDATE : undefined;
          const mine = await TicketModel.findAll({ where: { tenantId: o.tenantId, contactId: o.contactId }, attributes: ["id", "status", "connectionId"], transaction, lock });
          const found = mine.filter((t) => t.get("status") === "closed" && t.get("connectionId") === o.connectionId).sort((a, b) => (b.get("id") as number) - (a.get("id") as number))[0];
          if (found) return { id: found.get("id") as number, created: false };
          const row = await TicketModel.create(
            { tenantId: o.tenantId, contactId: o.contactId, connectionId: o.connectionId, queueId: o.queueId, userId: null, status: "closed", isGroup: o.isGroup, activeKey: null, closedAt: new Date(), lastMessageAt: 0 },
            { transaction },
          );
          await log(o.tenantId, row.get("id") as number, null, "created", { reason: "imported" }, transaction);
          await log(o.tenantId, row.get("id") as number, null, "closed", { reason: "imported" }, transaction);
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
        if (made.created) await setProtocol(ctx, t);
        return { ticket: plain(t), created: made.created };
      },
      async close(this: any, ctx: Ctx, t: Ticket, how: "closed" | "autoClose", me?: Me) {
        return transition(ctx, t, { status: "closed", activeKey: null, closedAt: new Date(), unreadMessages: 0, hasUnread: false }, [[how, ctx.meta.user?.id ?? null]], (fresh) => {
          if (fresh.status === "closed") throw new AppError("ERR_CONFLICT", { id: fresh.id, reason: "ticket-changed" });
          if (me && fresh.userId && fresh.userId !== me.id && !me.supervisor) throw new AppError("ERR_NO_PERMISSION");
        });
      },
      async reopen(this: any, ctx: Ctx, t: Ticket, row: TicketRow, settings: Settings) {
        const minutes = settings.noReopenMinutes ?? 0;
        if (minutes > 0 && row.closedAt && Date.now() - new Date(row.closedAt).getTime() < minutes * 60_000) {
          throw new AppError("ERR_TICKET_REOPEN_BLOCKED", { minutes });
        }
        const me = ctx.meta.user!.id;
        return transition(ctx, t, { status: "open", userId: me, closedAt: null, activeKey: activeKey(row.contactId, row.connectionId) }, [["reopened", me]], (fresh) => {
          if (fresh.status !== "closed") throw new AppError("ERR_CONFLICT", { id: fresh.id, reason: "ticket-changed" });
        });
      },
    },
  };
}

