import { makeAutoObservable, observableRef } from "mobx";
import type { ChatCreatePayload } from "@openatende/contracts/realtime";
import { compareTickets, matchesSearch, visibleInList, type ListFilter, type TabKey, type Ticket, type TicketOrder, type Viewer, type VisibilitySettings } from "./tickets-filter";

/**
 * The loaded tickets of a tab and the live changes applied to them: a page appended, a ticket
 * merged, moved to its place, added or taken out as the tab's filter decides. No I/O here, so
 * the list's logic is testable alone.
 */

export type { ChatCreatePayload };

/** A ticket's fields updated by a partial one; a contact without a number (hidden from list rooms) keeps the one known. */
export function mergeTicket(base: Ticket, patch: Partial<Ticket>): Ticket {
  const out: Ticket = { ...base };
  for (const [k, v] of Object.entries(patch) as Array<[keyof Ticket, unknown]>) {
    if (v === undefined || k === "contact") continue;
    (out as unknown as Record<string, unknown>)[k] = v;
  }
  if (patch.contact) {
    const c = patch.contact;
    out.contact = {
      id: c.id ?? base.contact?.id ?? base.contactId,
      name: c.name ?? base.contact?.name ?? "",
      number: c.number ?? base.contact?.number ?? null,
      profilePicUrl: c.profilePicUrl ?? base.contact?.profilePicUrl ?? null,
    };
  }
  return out;
}

/** What an inbound message (`chat:create`) changes on a ticket (or the ticket it makes known). */
export function ticketFromChat(p: ChatCreatePayload, now: number): Partial<Ticket> & { id: number } {
  const t = p.ticket;
  return {
    id: t.id,
    userId: t.userId,
    queueId: t.queueId,
    contactId: t.contactId,
    isGroup: !!t.isGroup,
    status: t.status,
    unreadMessages: t.unreadMessages ?? 1,
    lastMessage: p.body ?? "",
    lastMessageAt: now,
    contact: t.contact ? { id: t.contactId, name: t.contact.name, number: null, profilePicUrl: t.contact.profilePicUrl } : undefined,
  };
}

/** A complete ticket from what is known of it (the fields a live event may leave out get their defaults). */
export function completeTicket(p: Partial<Ticket> & { id: number }): Ticket | null {
  if (p.status === undefined || p.contactId === undefined) return null;
  return {
    protocol: null,
    connectionId: null,
    queueId: null,
    userId: null,
    isGroup: false,
    pinned: false,
    unreadMessages: 0,
    lastMessage: null,
    lastMessageAt: 0,
    ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)),
  } as Ticket;
}

/** The index where a ticket goes in a list already in order (binary search). */
function placeOf(sorted: readonly Ticket[], t: Ticket, order: TicketOrder): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareTickets(sorted[mid], t, order) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The list's state changes. */
export class TicketList {
  items: Ticket[] = [];
  hasMore = false;
  /** The order the pages were asked in (the user's filter): live changes keep it. */
  order: TicketOrder = "recent";

  constructor() {
    makeAutoObservable(this, { items: observableRef }, { autoBind: true });
  }

  get ids(): Set<number> {
    return new Set(this.items.map((t) => t.id));
  }

  get(id: number): Ticket | undefined {
    return this.items.find((t) => t.id === id);
  }

  /** A page from the API: appended after what is there, without duplicates (a live insert may have shifted the pages). */
  receivePage(rows: Ticket[], hasMore: boolean, reset: boolean, order?: TicketOrder) {
    if (order) this.order = order;
    const base = reset ? [] : this.items;
    const seen = new Set(base.map((t) => t.id));
    const next = base.slice();
    for (const r of rows) if (!seen.has(r.id)) next.push(r), seen.add(r.id);
    this.items = next;
    this.hasMore = hasMore;
  }

  /**
   * A live change: the ticket is merged into what is known, then kept (moved to its place),
   * added, or taken out, as the tab's filter decides. A ticket new to the list that sorts
   * after the last loaded row while more pages exist is left to its page.
   */
  upsert(patch: Partial<Ticket> & { id: number }, ctx: { tab: TabKey; filter: ListFilter; me: Viewer; settings?: VisibilitySettings }): "added" | "updated" | "removed" | "ignored" {
    const idx = this.items.findIndex((t) => t.id === patch.id);
    const existing = idx >= 0 ? this.items[idx] : undefined;
    const merged = existing ? mergeTicket(existing, patch) : completeTicket(patch);
    if (!merged) return "ignored";
    const visible = visibleInList(merged, ctx.tab, ctx.filter, ctx.me, ctx.settings) && (!!existing || matchesSearch(merged, ctx.filter.searchParam ?? ""));
    if (!visible) {
      if (!existing) return "ignored";
      this.items = this.items.filter((t) => t.id !== patch.id);
      return "removed";
    }
    const rest = existing ? this.items.filter((t) => t.id !== patch.id) : this.items;
    if (!existing && this.hasMore && rest.length && compareTickets(merged, rest[rest.length - 1], this.order) > 0) return "ignored";
    const next = rest.slice();
    next.splice(placeOf(rest, merged, this.order), 0, merged);
    this.items = next;
    return existing ? "updated" : "added";
  }

  /** Changes fields of a listed ticket without moving it in or out (e.g. read on opening). */
  patch(id: number, patch: Partial<Ticket>) {
    const idx = this.items.findIndex((t) => t.id === id);
    if (idx < 0) return;
    const merged = mergeTicket(this.items[idx], patch);
    const rest = this.items.filter((t) => t.id !== id);
    rest.splice(placeOf(rest, merged, this.order), 0, merged);
    this.items = rest;
  }

  remove(id: number) {
    if (this.items.some((t) => t.id === id)) this.items = this.items.filter((t) => t.id !== id);
  }

  clear() {
    this.items = [];
    this.hasMore = false;
  }
}
