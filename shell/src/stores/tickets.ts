import { makeAutoObservable, runInAction } from "mobx";
import type { UiApi, UiRequestOptions } from "@openatende/plugin-sdk/ui";
import { seesEveryTicket } from "@openatende/contracts/visibility";
import type { AppMessageEvent, TicketListEvent } from "@openatende/contracts/realtime";
import type { AttendanceFilter } from "./session";
import { TAB_STATUSES, type TabKey, type Ticket, type Viewer, type VisibilitySettings } from "./tickets-filter";
import { TicketList, ticketFromChat } from "./ticket-list";

/**
 * The attendance list (spec §2/§3): the tickets of one tab under the user's attendance filter,
 * paged as the API pages them (pinned, then unread, then last activity), and kept live from
 * the socket's `{tenant}:ticketList` and `{tenant}:appMessage` events. Which tickets a tab
 * holds is tickets-filter.ts (the visibility rule of spec §6 the API applies); how a live
 * change moves them is ticket-list.ts; this file loads the pages and routes the events.
 */

export * from "./tickets-filter";
export * from "./ticket-list";

/** What the store needs of the page's root store. */
export interface TicketsDeps {
  api: Pick<UiApi, "get">;
  viewer(): Viewer;
  filter(): AttendanceFilter;
  settings(): VisibilitySettings;
}

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
      showAll: f.showAll && seesEveryTicket(this.deps.viewer()) ? true : undefined,
      queuesIds: f.queuesIds.length ? f.queuesIds.join(",") : undefined,
      withUnreadMessages: f.withUnreadMessages || undefined,
      isNotAssignedUser: f.isNotAssignedUser || undefined,
      includeNotQueueDefined: f.includeNotQueueDefined,
      orderBy: f.orderBy === "oldest" ? "oldest" : undefined,
      pageNumber,
      // No pageSize: a page is the tenant's ticket list limit (spec §3, the API's default).
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
      const order = this.deps.filter().orderBy === "oldest" ? "oldest" : "recent";
      const r = await this.deps.api.get<ListAnswer>("/tickets", { query: this.query(1), signal: ctrl.signal });
      if (req !== this.request) return;
      runInAction(() => {
        this.pageNumber = 1;
        this.list.receivePage(r.tickets, r.hasMore, true, order);
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
  onTicketList(e: TicketListEvent) {
    if (!e || !e.payload) return;
    if (e.type === "chat:create") {
      const patch = ticketFromChat(e.payload, Date.now());
      this.track(patch.id, () => this.list.upsert(patch, this.ctx()));
    } else if (e.type === "ticket:delete") this.track(Number(e.payload.id), () => this.list.remove(Number(e.payload.id)));
    else if (e.type === "ticket:create" || e.type === "ticket:update") this.track(Number(e.payload.id), () => this.list.upsert(e.payload, this.ctx()));
    else return;
    this.refreshUnread(800);
  }

  /** A `{tenant}:appMessage` event: the last message of a listed ticket. */
  onAppMessage(e: AppMessageEvent) {
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
