/**
 * The board as an agent sees it: the store's rows joined with what the core knows of each
 * card's ticket or contact (asked through the SDK's core API, never read from core tables),
 * narrowed by the filters, with each column's count and total of lead values over the cards
 * shown. Filters: a ticket card shows when its ticket is in one of the queues, held by one of
 * the users and its contact carries one of the tags asked for (each filter only when given);
 * a contact card has no queue or user, so it shows only when neither of those filters is set,
 * and with a tag filter when the contact carries one of the tags.
 *
 * Who sees which ticket (spec §6): admins and supervisors see every ticket card; an agent
 * (profile user) sees the ticket cards of the queues they belong to and of the tickets they
 * hold. The tenant's finer settings (others' tickets only for their owner, tickets without a
 * queue only for admins) are not applied: the core API has no "as this user" listing yet.
 */
import type { CoreApi, PlatformContact, PlatformQueue, PlatformTag, PlatformTicket, PlatformUser } from "@openatende/plugin-sdk";
import { fromCents, totals, type CardKind } from "./board";
import type { BoardRows, CardRow } from "./store";

export interface BoardFilters {
  queueIds?: number[];
  userIds?: number[];
  tagIds?: number[];
}

export interface CardView {
  id: number;
  kind: CardKind;
  targetId: number;
  columnId: number;
  position: number;
  leadValue: number;
  /** The contact's name (a ticket card: its ticket's contact). */
  name: string;
  contactId: number;
  tags: PlatformTag[];
  ticket?: { id: number; protocol: string | null; status: PlatformTicket["status"]; queueId: number | null; userId: number | null; lastMessage: string | null };
  contact?: { number: string | null; email: string | null };
}

export interface ColumnView {
  id: number;
  name: string;
  color: string;
  position: number;
  count: number;
  leadValue: number;
  cards: CardView[];
}

export interface BoardView {
  version: number;
  filtered: boolean;
  columns: ColumnView[];
  queues: PlatformQueue[];
  users: Array<Pick<PlatformUser, "id" | "name">>;
  tags: PlatformTag[];
}

/** The core API's pages hold at most 100: ids are asked in slices of that size. */
const SLICE = 100;

async function inSlices<T>(ids: number[], fetch: (ids: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += SLICE) out.push(...(await fetch(ids.slice(i, i + SLICE))));
  return out;
}

const some = (xs: number[] | undefined): xs is number[] => !!xs && xs.length > 0;

export function isFiltered(f: BoardFilters): boolean {
  return some(f.queueIds) || some(f.userIds) || some(f.tagIds);
}

/** Who is looking: their id and profile (ctx.meta.user). */
export interface Viewer {
  id: number;
  profile: string;
}

/** Whether `viewer` may see ticket `t` on the board, given the queues they belong to. */
export function seesTicket(viewer: Viewer, queueIds: readonly number[], t: Pick<PlatformTicket, "queueId" | "userId">): boolean {
  if (viewer.profile !== "user") return true;
  return t.userId === viewer.id || (t.queueId !== null && queueIds.includes(t.queueId));
}

export async function boardView(api: CoreApi, tenantId: number, rows: BoardRows, filters: BoardFilters, viewer: Viewer): Promise<BoardView> {
  const cards = rows.columns.flatMap((c) => c.cards);
  const ids = (kind: CardKind) => [...new Set(cards.filter((c) => c.kind === kind).map((c) => c.targetId))];
  const ticketFilter = { ...(some(filters.queueIds) ? { queueIds: filters.queueIds } : {}), ...(some(filters.userIds) ? { userIds: filters.userIds } : {}), ...(some(filters.tagIds) ? { tagIds: filters.tagIds } : {}) };
  const contactsShown = !some(filters.queueIds) && !some(filters.userIds);
  const [tickets, contacts, queues, users, tags] = await Promise.all([
    inSlices(ids("ticket"), async (slice) => (await api.tickets.list({ tenantId, ids: slice, limit: SLICE, ...ticketFilter })).rows),
    contactsShown ? inSlices(ids("contact"), async (slice) => (await api.contacts.list({ tenantId, ids: slice, limit: SLICE, ...(some(filters.tagIds) ? { tagIds: filters.tagIds } : {}) })).rows) : Promise.resolve([] as PlatformContact[]),
    api.queues.list({ tenantId }),
    api.users.list({ tenantId }),
    api.tags.list({ tenantId }),
  ]);
  const viewerQueues = users.find((u) => u.id === viewer.id)?.queueIds ?? [];
  const ticketById = new Map(tickets.filter((t) => seesTicket(viewer, viewerQueues, t)).map((t) => [t.id, t]));
  const contactById = new Map(contacts.map((c) => [c.id, c]));

  const view = (card: CardRow): CardView | null => {
    const base = { id: card.id, kind: card.kind, targetId: card.targetId, columnId: card.columnId, position: card.position, leadValue: fromCents(card.leadValueCents) };
    if (card.kind === "ticket") {
      const t = ticketById.get(card.targetId);
      if (!t) return null;
      return {
        ...base,
        name: t.contact?.name ?? `#${t.id}`,
        contactId: t.contactId,
        tags: t.tags ?? [],
        ticket: { id: t.id, protocol: t.protocol, status: t.status, queueId: t.queueId, userId: t.userId, lastMessage: t.lastMessage },
      };
    }
    const c = contactById.get(card.targetId);
    if (!c) return null;
    return { ...base, name: c.name, contactId: c.id, tags: c.tags ?? [], contact: { number: c.number, email: c.email } };
  };

  return {
    version: rows.version,
    filtered: isFiltered(filters),
    columns: rows.columns.map((col) => {
      const shown = col.cards.map(view).filter((c): c is CardView => c !== null);
      const sum = totals(col.cards.filter((c) => shown.some((s) => s.id === c.id)));
      return { id: col.id, name: col.name, color: col.color, position: col.position, count: sum.count, leadValue: fromCents(sum.leadValueCents), cards: shown };
    }),
    queues,
    users: users.map((u) => ({ id: u.id, name: u.name })),
    tags,
  };
}
