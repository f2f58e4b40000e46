import { makeAutoObservable, observableRef, runInAction } from "mobx";
import type { UiApi, UiRequestOptions } from "@openatende/plugin-sdk/ui";
import type { AttendanceFilter } from "./session";

/**
 * The attendance list (spec §2/§3): the tickets of one tab under the user's attendance filter,
 * paged as the API pages them (pinned, then unread, then last activity), and kept live from
 * the socket's `{tenant}:ticketList` and `{tenant}:appMessage` events. A live ticket is put
 * in, moved or taken out by the same visibility rules the API's list applies (spec §6), so
 * the list shows what a reload would show.
 */

export type TicketStatus = "open" | "pending" | "closed" | "group" | "chatbot";

export interface TicketContact {
  id: number;
  name: string;
  number: string | null;
  profilePicUrl: string | null;
}

export interface Ticket {
  id: number;
  protocol: string | null;
  status: TicketStatus;
  contactId: number;
  connectionId: number | null;
  queueId: number | null;
  userId: number | null;
  isGroup: boolean;
  pinned: boolean;
  unreadMessages: number;
  lastMessage: string | null;
  lastMessageAt: number;
  closedAt?: string | null;
  createdAt?: string;
  updatedAt?: string;
  contact?: TicketContact;
}

export type TabKey = "open" | "closed" | "group";

/** The statuses each tab lists: active is open (being served) plus pending (aguardando). */
export const TAB_STATUSES: Record<TabKey, TicketStatus[]> = {
  open: ["open", "pending"],
  closed: ["closed"],
  group: ["group"],
};

/** Who looks at the list: the user, their queues, and whether they see every ticket (admins and supervisors). */
export interface Viewer {
  id: number;
  queues: number[];
  supervisor: boolean;
}

/** Tenant settings that narrow what a user sees (spec §6). */
export interface VisibilitySettings {
  ticketsOwnerOnly?: boolean;
  botAndUnassignedAdminOnly?: boolean;
}

export type ListFilter = Pick<AttendanceFilter, "searchParam" | "showAll" | "queuesIds" | "withUnreadMessages" | "isNotAssignedUser" | "includeNotQueueDefined">;

/** The API's order: pinned first, then tickets with unread messages, then the latest activity. */
export function compareTickets(a: Ticket, b: Ticket): number {
  if (!!a.pinned !== !!b.pinned) return a.pinned ? -1 : 1;
  const ua = a.unreadMessages > 0;
  const ub = b.unreadMessages > 0;
  if (ua !== ub) return ua ? -1 : 1;
  if (a.lastMessageAt !== b.lastMessageAt) return (b.lastMessageAt || 0) - (a.lastMessageAt || 0);
  return b.id - a.id;
}

/**
 * Whether a ticket belongs to a tab's list under a filter, as the API decides it
 * (core/src/tickets/list-query.ts): with showAll an admin or supervisor sees every ticket
 * (narrowed by queues); otherwise the user's own tickets, their queues' tickets and the
 * tickets with no queue.
 */
export function visibleInList(t: Ticket, tab: TabKey, f: ListFilter, me: Viewer, s: VisibilitySettings = {}): boolean {
  if (!TAB_STATUSES[tab].includes(t.status)) return false;
  if (f.withUnreadMessages && !(t.unreadMessages > 0)) return false;
  if (f.isNotAssignedUser && t.userId !== null) return false;
  const wanted = f.queuesIds ?? [];
  const queueWanted = (q: number | null) => (q === null ? f.includeNotQueueDefined : wanted.length ? wanted.includes(q) : true);

  if (f.showAll && me.supervisor) return queueWanted(t.queueId);

  if (!f.isNotAssignedUser && t.userId === me.id && queueWanted(t.queueId)) return true;
  if (t.queueId !== null) {
    const queues = wanted.length ? me.queues.filter((q) => wanted.includes(q)) : me.queues;
    if (!queues.includes(t.queueId)) return false;
    if (s.ticketsOwnerOnly && !me.supervisor) return t.userId === null || t.userId === me.id;
    return true;
  }
  if (!f.includeNotQueueDefined) return false;
  if (s.botAndUnassignedAdminOnly && !me.supervisor) return false;
  return me.supervisor || t.userId === null || t.userId === me.id;
}

const fold = (x: string) => x.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** A live ticket new to a searched list joins it when its contact's name, its protocol or its id matches. */
export function matchesSearch(t: Ticket, search: string): boolean {
  const q = search.trim();
  if (q.length < 2) return true;
  if (t.protocol === q || String(t.id) === q) return true;
  return fold(t.contact?.name ?? "").includes(fold(q)) || (!!t.contact?.number && q.replace(/\D/g, "").length >= 2 && t.contact.number.includes(q.replace(/\D/g, "")));
}

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

/** The payload of `chat:create` (an inbound message, spec §7). */
export interface ChatCreatePayload {
  body?: string;
  read?: boolean;
  isGroup?: boolean;
  messageId?: number;
  mediaType?: string | null;
  ticket: {
    id: number;
    userId: number | null;
    queueId: number | null;
    contactId: number;
    isGroup?: boolean;
    status: TicketStatus;
    unreadMessages?: number;
    contact?: { name: string; profilePicUrl: string | null };
  };
}

/** What an inbound message changes on a ticket (or the ticket it makes known). */
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

/** The list's state changes; no I/O here, so the store's logic is testable alone. */
export class TicketList {
  items: Ticket[] = [];
  hasMore = false;

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
  receivePage(rows: Ticket[], hasMore: boolean, reset: boolean) {
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
    if (!existing && this.hasMore && rest.length && compareTickets(merged, rest[rest.length - 1]) > 0) return "ignored";
    // Binary search for the place: the rest is already in order.
    let lo = 0;
    let hi = rest.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareTickets(rest[mid], merged) <= 0) lo = mid + 1;
      else hi = mid;
    }
    const next = rest.slice();
    next.splice(lo, 0, merged);
    this.items = next;
    return existing ? "updated" : "added";
  }

  /** Changes fields of a listed ticket without moving it in or out (e.g. read on opening). */
  patch(id: number, patch: Partial<Ticket>) {
    const idx = this.items.findIndex((t) => t.id === id);
    if (idx < 0) return;
    const merged = mergeTicket(this.items[idx], patch);
    const rest = this.items.filter((t) => t.id !== id);
    let lo = 0;
    let hi = rest.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareTickets(rest[mid], merged) <= 0) lo = mid + 1;
      else hi = mid;
    }
    rest.splice(lo, 0, merged);
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

/** What the store needs of the page's root store. */
export interface TicketsDeps {
  api: Pick<UiApi, "get">;
  viewer(): Viewer;
  filter(): AttendanceFilter;
  settings(): VisibilitySettings;
}

export const TICKETS_PAGE_SIZE = 50;

interface ListAnswer {
  tickets: Ticket[];
  hasMore: boolean;
  pageNumber: number;
}

/** The list of the open tab: loads pages and applies the socket's events to them. */
export class TicketsStore {
  tab: TabKey = "open";
  /** The search box (not saved with the filter: it is for the moment). */
  search = "";
  readonly list = new TicketList();
  loading = false;
  loadingMore = false;
  loaded = false;
  failed = false;
  /** Tickets with unread messages per status (GET /tickets/unread-count), capped by the API. */
  unread: { open: number; pending: number; capped: number } = { open: 0, pending: 0, capped: 100 };
  private pageNumber = 1;
  private request = 0;
  private abort: AbortController | null = null;
  private unreadTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Live changes heard while the first page loads: the page may have been read before them
   * (a message stored just after the query), so they are applied again on top of it.
   */
  private heardWhileLoading: Array<() => void> = [];

  constructor(private deps: TicketsDeps) {
    makeAutoObservable<TicketsStore, "deps" | "pageNumber" | "request" | "abort" | "unreadTimer" | "heardWhileLoading">(
      this,
      { deps: false, pageNumber: false, request: false, abort: false, unreadTimer: false, list: false, heardWhileLoading: false },
      { autoBind: true },
    );
  }

  get items(): Ticket[] {
    return this.list.items;
  }

  get hasMore(): boolean {
    return this.list.hasMore;
  }

  private query(pageNumber: number): UiRequestOptions["query"] {
    const f = this.deps.filter();
    const search = this.search.trim();
    return {
      status: TAB_STATUSES[this.tab].join(","),
      searchParam: search.length >= 2 ? search : undefined,
      showAll: f.showAll && this.deps.viewer().supervisor ? true : undefined,
      queuesIds: f.queuesIds.length ? f.queuesIds.join(",") : undefined,
      withUnreadMessages: f.withUnreadMessages || undefined,
      isNotAssignedUser: f.isNotAssignedUser || undefined,
      includeNotQueueDefined: f.includeNotQueueDefined,
      pageNumber,
      pageSize: TICKETS_PAGE_SIZE,
    };
  }

  setSearch(q: string) {
    if (q === this.search) return;
    this.search = q;
    if (q.trim().length === 0 || q.trim().length >= 2) void this.load();
  }

  setTab(tab: TabKey) {
    if (tab === this.tab && this.loaded) return;
    this.tab = tab;
    void this.load();
  }

  /** The first page again (tab, filter or search changed, or the socket came back). */
  async load() {
    const req = ++this.request;
    this.abort?.abort();
    const ctrl = new AbortController();
    this.abort = ctrl;
    this.loading = true;
    this.failed = false;
    this.heardWhileLoading = [];
    try {
      const r = await this.deps.api.get<ListAnswer>("/tickets", { query: this.query(1), signal: ctrl.signal });
      if (req !== this.request) return;
      runInAction(() => {
        this.pageNumber = 1;
        this.list.receivePage(r.tickets, r.hasMore, true);
        this.loaded = true;
        const again = this.heardWhileLoading;
        this.heardWhileLoading = [];
        for (const change of again) change();
      });
    } catch {
      if (req === this.request) runInAction(() => (this.failed = true));
    } finally {
      if (req === this.request) runInAction(() => (this.loading = false));
    }
    void this.refreshUnread();
  }

  /** The next page, appended (the list's end came into view). */
  async loadMore() {
    if (this.loading || this.loadingMore || !this.list.hasMore) return;
    const req = this.request;
    this.loadingMore = true;
    try {
      const r = await this.deps.api.get<ListAnswer>("/tickets", { query: this.query(this.pageNumber + 1), signal: this.abort?.signal });
      if (req !== this.request) return;
      runInAction(() => {
        this.pageNumber += 1;
        this.list.receivePage(r.tickets, r.hasMore, false);
      });
    } catch {
      /* the notice is shown; scrolling again retries */
    } finally {
      runInAction(() => (this.loadingMore = false));
    }
  }

  /** Counts of the tabs' badges; debounced, as live events come in bursts. */
  refreshUnread(delayMs = 0) {
    if (this.unreadTimer) clearTimeout(this.unreadTimer);
    this.unreadTimer = setTimeout(async () => {
      try {
        const r = await this.deps.api.get<{ open: number; pending: number; capped: number }>("/tickets/unread-count", { silent: true });
        runInAction(() => (this.unread = { open: Number(r.open) || 0, pending: Number(r.pending) || 0, capped: Number(r.capped) || 100 }));
      } catch {
        /* badges stay as they were */
      }
    }, delayMs);
  }

  private ctx() {
    return { tab: this.tab, filter: { ...this.deps.filter(), searchParam: this.search }, me: this.deps.viewer(), settings: this.deps.settings() };
  }

  /**
   * The active tab's badge follows the list at once (a ticket read, a new unread one); the
   * API's count, read shortly after, corrects what the loaded pages cannot know.
   */
  private track(id: number, change: () => void) {
    if (this.loading) this.heardWhileLoading.push(change);
    const before = this.list.get(id);
    change();
    if (this.tab !== "open") return;
    const after = this.list.get(id);
    const key = (t?: Ticket) => (t && t.unreadMessages > 0 && (t.status === "open" || t.status === "pending") ? t.status : null);
    const b = key(before);
    const a = key(after);
    if (b === a) return;
    const next = { ...this.unread };
    if (b) next[b] = Math.max(0, next[b] - 1);
    if (a) next[a] = next[a] + 1;
    this.unread = next;
  }

  /** A `{tenant}:ticketList` event. */
  onTicketList(e: { type: string; payload: any }) {
    if (!e || !e.payload) return;
    if (e.type === "ticket:delete") this.track(Number(e.payload.id), () => this.list.remove(Number(e.payload.id)));
    else if (e.type === "ticket:create" || e.type === "ticket:update") this.track(Number(e.payload.id), () => this.list.upsert(e.payload as Ticket, this.ctx()));
    else if (e.type === "chat:create") {
      const patch = ticketFromChat(e.payload as ChatCreatePayload, Date.now());
      this.track(patch.id, () => this.list.upsert(patch, this.ctx()));
    } else return;
    this.refreshUnread(800);
  }

  /** A `{tenant}:appMessage` event: the last message of a listed ticket. */
  onAppMessage(e: { action: string; message: any; ticket?: { id: number; status: TicketStatus; userId: number | null; queueId: number | null } }) {
    if (!e?.ticket || e.action !== "create" || !e.message) return;
    const m = e.message;
    // Inbound messages come with chat:create; an agent's message resets the unread count (the API's touch).
    if (!m.fromMe) return;
    const preview = m.body || m.media?.fileName || "";
    const patch = { id: e.ticket.id, status: e.ticket.status, userId: e.ticket.userId, queueId: e.ticket.queueId, lastMessage: preview, lastMessageAt: Number(m.timestamp) || Date.now(), unreadMessages: 0 };
    this.track(patch.id, () => this.list.upsert(patch, this.ctx()));
    this.refreshUnread(800);
  }

  /** A ticket the user changed (accept, transfer, resolve…), as the API answered it. */
  applyTicket(t: Ticket) {
    this.track(t.id, () => this.list.upsert(t, this.ctx()));
    this.refreshUnread(300);
  }

  patch(id: number, patch: Partial<Ticket>) {
    this.track(id, () => this.list.patch(id, patch));
    if (patch.unreadMessages === 0) this.refreshUnread(500);
  }

  remove(id: number) {
    this.track(id, () => this.list.remove(id));
  }

  reset() {
    this.request++;
    this.abort?.abort();
    this.list.clear();
    this.loaded = false;
    this.loading = false;
  }
}
