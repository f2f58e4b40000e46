import type { CoreDeps } from "../deps";
import { AppError } from "../errors/app-error";
import { Ctx, isAdmin } from "../types";
import { call, emit } from "../bus/call";
import type { ContactSummary } from "../contacts/contract";
import { pushRealtime, ticketAudience } from "../realtime/push";
import { REALTIME_EVENTS, ticketChanged, type TicketChange, type TicketView } from "@openatende/contracts/realtime";
import { LogType, Ticket, TicketRow, defineTicketModels } from "./model";
import { createListCache, ListCache } from "./list-cache";
import type { ProtocolFormat } from "@openatende/contracts/protocol";
import { canSee, groupsHiddenFor, seesEveryTicket, viewerOf, type Viewer } from "./visibility";

/** The tenant settings the tickets service reads (settings.forTenant, with defaults). */
export type Settings = {
  noReopenMinutes: number;
  protocol: ProtocolFormat;
  ticketsOwnerOnly: boolean;
  botAndUnassignedAdminOnly: boolean;
  hideContactInfo: boolean;
  /** The attendance list's page (list.ts), when the caller names none. */
  ticketListLimit: number;
  pageSize: number;
  /** Users who get no group tickets (spec §6 "groups tab hidden for chosen users"). */
  groupsHiddenForUsers: number[];
  /** A new inbound ticket goes to an owner of the contact's wallet (inbound.ts). */
  forceWalletDelivery: boolean;
};

/** The caller: who they are for visibility, and whether they act as a supervisor (admins too). */
export interface Me extends Viewer {
  supervisor: boolean;
}

export type { ContactSummary };

/**
 * The tenant's settings as the tickets read them. settings.forTenant answers the store's
 * values over its defaults (its schema checks each key's type when it is saved), so these
 * keys hold these types: this is the one place that says so.
 */
export function ticketSettings(stored: Record<string, unknown>): Settings {
  return stored as Settings;
}

/** A ticket as the API and the realtime events show it (@openatende/contracts/realtime). */
export function view(t: TicketRow, contact?: { id: number; name: string; number?: string | null; profilePicUrl?: string | null }): TicketView<Date> {
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

export const plain = (t: Ticket) => t.get({ plain: true }) as TicketRow;

/**
 * What every part of the tickets service shares: its models, the caller and the tenant's
 * settings, contact summaries, the activity log, the realtime event of a changed ticket and
 * the visible-ticket load. One per service instance.
 */
export function createTicketsKit(deps: CoreDeps) {
  const models = defineTicketModels(deps.sequelize);
  const { Ticket: TicketModel, TicketLog } = models;
  /** The caller's queues and the tenant's settings for list calls (short TTL, dropped on change events). */
  const listCache: ListCache = createListCache();

  async function settingsOf(ctx: Ctx, tenantId: number, cached = false): Promise<Settings> {
    return ticketSettings(cached ? await listCache.settings(ctx, tenantId) : await call(ctx, "settings.forTenant", { tenantId }));
  }

  async function meOf(ctx: Ctx, cached = false): Promise<Me> {
    const u = ctx.meta.user!;
    const row = cached ? await listCache.user(ctx, u.id) : await call(ctx, "users.getInternal", { id: u.id });
    const viewer = viewerOf(u, row?.queues ?? []);
    return { ...viewer, supervisor: seesEveryTicket(viewer) };
  }

  /** Spec §6: with hideContactInfo, non-admins do not get contacts' phone numbers (admin status, as in contacts). */
  function hidesContactInfo(ctx: Ctx, s: Settings): boolean {
    const v = s.hideContactInfo as unknown;
    return !isAdmin(ctx.meta.user) && (v === true || v === "true" || v === 1);
  }

  async function summaries(ctx: Ctx, tenantId: number, contactIds: number[]): Promise<Map<number, ContactSummary>> {
    if (!contactIds.length) return new Map();
    const list = await call(ctx, "contacts.summaries", { tenantId, ids: [...new Set(contactIds)] });
    return new Map(list.map((c) => [c.id, c]));
  }

  async function log(tenantId: number, ticketId: number, userId: number | null, type: LogType, data: unknown = null, transaction?: unknown) {
    await TicketLog.create({ tenantId, ticketId, userId, type, data }, { transaction: transaction as never });
  }

  async function emitTicket(ctx: Ctx, t: TicketRow, type: TicketChange, contact?: { id: number; name: string; profilePicUrl?: string | null }, before?: TicketRow) {
    const now = await ticketAudience(ctx, t);
    const targets = new Set(now.rooms);
    // Those who could see it before a transfer learn that it left them.
    if (before) for (const r of (await ticketAudience(ctx, before)).rooms) targets.add(r);
    pushRealtime(ctx, { rooms: [...targets], except: now.except, event: REALTIME_EVENTS.ticketList(t.tenantId), payload: ticketChanged(type, view(t, contact)) });
    void emit(ctx, "tickets.changed", { type, ticket: t, before: before ?? null, contact: contact && { id: contact.id, name: contact.name, profilePicUrl: contact.profilePicUrl ?? null }, at: Date.now() });
  }

  /** Loads a ticket of the caller's tenant that the caller may see (404 otherwise). */
  async function loadVisible(ctx: Ctx, id: number, cached = false): Promise<{ ticket: Ticket; row: TicketRow; me: Me; settings: Settings }> {
    const tenantId = ctx.meta.user!.tenantId;
    const ticket = await TicketModel.findOne({ where: { id, tenantId } });
    if (!ticket) throw new AppError("ERR_TICKET_NOT_FOUND", { id });
    const [me, settings] = await Promise.all([meOf(ctx, cached), settingsOf(ctx, tenantId, cached)]);
    const row = plain(ticket);
    if (!canSee(me, row, settings) || (row.isGroup && groupsHiddenFor(me.id, settings))) throw new AppError("ERR_TICKET_NOT_FOUND", { id });
    return { ticket, row, me, settings };
  }

  return { deps, sequelize: deps.sequelize, ...models, listCache, settingsOf, meOf, hidesContactInfo, summaries, log, emitTicket, loadVisible };
}

export type TicketsKit = ReturnType<typeof createTicketsKit>;
