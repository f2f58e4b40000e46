import { makeAutoObservable, reaction, runInAction } from "mobx";
import type { RootStore } from "../../app/root";
import type { AttendanceFilter } from "../../stores/session";
import { ApiError } from "../../api/client";
import { REALTIME_EVENTS, type UserStatusEvent } from "@openatende/contracts/realtime";
import { TicketsStore, mergeTicket, ticketFromChat, type Ticket, type Viewer, type VisibilitySettings } from "../../stores/tickets";
import { MessagesStore } from "../../stores/messages";
import { NotificationsStore } from "../../stores/notifications";
import { failureLine } from "./format";

export interface QueueView {
  id: number;
  name: string;
  active: boolean;
}
export interface UserView {
  id: number;
  name: string;
  email: string;
  profile: string;
  active: boolean;
  queues: number[];
  image?: string | null;
  /** Online or offline (spec §4), as GET /users answered and the socket's userStatus keeps it. */
  status?: "online" | "offline";
}
export interface ConnectionView {
  id: number;
  name: string;
  type: string;
  status: string;
  queueId: number | null;
}
export interface QuickMessage {
  id: number;
  key: string;
  shortcut: string;
  message: string;
  scope: string;
}

/**
 * The attendance screen's state for one page load: the ticket list, the messages, the
 * notifications and the directory the screen shows names from (queues, users, connections,
 * tenant settings, quick messages). Made once per RootStore and kept when the user leaves
 * the screen, so the list stays live and notifications keep coming.
 */
export class Attendance {
  readonly tickets: TicketsStore;
  readonly messages: MessagesStore;
  readonly notifications: NotificationsStore;
  queues: QueueView[] = [];
  users: UserView[] = [];
  connections: ConnectionView[] = [];
  /** The tenant's settings (the shared SettingsStore). */
  get settings(): Record<string, unknown> {
    return this.root.settings.values;
  }
  quickMessages: QuickMessage[] | null = null;
  /** The user's queues as the API knows them now (the login's copy may be older). */
  myQueues: number[];
  openTicketId: number | null = null;
  /** The ticket on screen as GET /tickets/{id} answered it, kept live by the socket. */
  openTicket: Ticket | null = null;
  /** The ticket on screen does not exist or is not visible to the user (any more). */
  openTicketGone = false;
  private unsubscribe: Array<() => void> = [];
  private directoryLoaded = false;
  private readTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private root: RootStore) {
    this.myQueues = root.session.queues;
    this.tickets = new TicketsStore({
      api: root.api,
      viewer: () => this.viewer,
      filter: () => root.session.attendanceFilter,
      settings: () => this.visibility,
    });
    this.messages = new MessagesStore(root.api, () => root.session.userId);
    this.notifications = new NotificationsStore({
      viewer: () => (root.session.userId === null ? null : { id: root.session.userId, queues: this.myQueues }),
      navigate: (p) => root.navigate(p),
      t: (k, v) => root.t(k, v),
      openTicketId: () => this.openTicketId,
    });
    makeAutoObservable<Attendance, "root" | "unsubscribe" | "directoryLoaded" | "readTimer">(
      this,
      { root: false, tickets: false, messages: false, notifications: false, unsubscribe: false, directoryLoaded: false, readTimer: false, failureText: false },
      { autoBind: true },
    );
    reaction(
      () => [root.session.tenantId, root.session.userId] as const,
      ([tenantId, userId]) => {
        this.stop();
        this.tickets.reset();
        this.directoryLoaded = false;
        if (tenantId !== null && userId !== null) this.subscribe(tenantId);
      },
      { fireImmediately: true },
    );
  }

  get viewer(): Viewer {
    const s = this.root.session;
    return { id: s.userId ?? 0, queues: this.myQueues, profile: s.profile ?? "user" };
  }

  get visibility(): VisibilitySettings {
    const yes = (v: unknown) => v === true || v === "true" || v === 1;
    return { ticketsOwnerOnly: yes(this.settings.ticketsOwnerOnly), botAndUnassignedAdminOnly: yes(this.settings.botAndUnassignedAdminOnly) };
  }

  /** Spec §6: the groups tab can be hidden for chosen users. */
  get groupsHidden(): boolean {
    const list = this.settings.groupsHiddenForUsers;
    return Array.isArray(list) && this.root.session.userId !== null && list.map(Number).includes(this.root.session.userId);
  }

  get hideContactInfo(): boolean {
    const v = this.settings.hideContactInfo;
    return !this.root.session.isAdmin && (v === true || v === "true");
  }

  private subscribe(tenantId: number) {
    const root = this.root;
    const rt = root.realtime;
    let connectedOnce = rt.status === "connected";
    this.unsubscribe = [
      rt.on(`${tenantId}:ticketList`, (e) => {
        this.tickets.onTicketList(e);
        this.notifications.onTicketList(e);
        this.onOpenTicketEvent(e);
        // The ticket on screen, held by this user: its new message is being read.
        const open = this.openTicket;
        if (e?.type === "chat:create" && open && e.payload?.ticket?.id === open.id && open.userId === root.session.userId && document.visibilityState === "visible") {
          this.tickets.patch(open.id, { unreadMessages: 0 });
        }
      }),
      rt.on(`${tenantId}:appMessage`, (e) => {
        this.messages.onAppMessage(e);
        this.tickets.onAppMessage(e);
        const tid = e?.message?.ticketId ?? e?.ticket?.id;
        if (e?.action === "create" && !e.message?.fromMe && tid === this.openTicketId) this.markOpenRead();
      }),
      rt.on(`${tenantId}:ticketNote`, (e) => this.messages.onTicketNote(e)),
      rt.on(REALTIME_EVENTS.userStatus(tenantId), (e: UserStatusEvent) => this.onUserStatus(e)),
      // The socket came back: what happened meanwhile is read again.
      rt.on("ready", () => {
        if (!connectedOnce) {
          connectedOnce = true;
          return;
        }
        if (this.tickets.loaded) void this.tickets.load();
        if (this.openTicketId) void this.messages.load(this.openTicketId);
      }),
    ];
  }

  /** A user of the team went online or offline. */
  onUserStatus(e: UserStatusEvent) {
    if (!e || !this.users.some((u) => u.id === e.id)) return;
    this.users = this.users.map((u) => (u.id === e.id ? { ...u, status: e.status } : u));
  }

  stop() {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
  }

  /** Queues, users, connections and settings: loaded when the screen first shows. */
  async loadDirectory(force = false) {
    if (this.directoryLoaded && !force) return;
    this.directoryLoaded = true;
    const api = this.root.api;
    const s = this.root.session;
    const [queues, users, connections, , me] = await Promise.all([
      // Agents list their own queues; the transfer targets (every active queue) come besides.
      Promise.all([
        api.get<QueueView[]>("/queues", { silent: true }).catch(() => [] as QueueView[]),
        s.isSupervisorOrAdmin ? Promise.resolve([] as QueueView[]) : api.get<QueueView[]>("/queues", { query: { transfer: true }, silent: true }).catch(() => [] as QueueView[]),
      ]).then(([own, targets]) => {
        const byId = new Map<number, QueueView>();
        for (const q of [...own, ...targets]) byId.set(q.id, q);
        return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
      }),
      api.get<{ users: UserView[] }>("/users", { query: { pageSize: 200 }, silent: true }).catch(() => ({ users: [] as UserView[] })),
      api.get<ConnectionView[]>("/connections", { silent: true }).catch(() => [] as ConnectionView[]),
      this.root.settings.load().then(() => this.root.settings.values),
      s.userId !== null ? api.get<{ queues: number[] }>(`/users/${s.userId}`, { silent: true }).catch(() => null) : Promise.resolve(null),
    ]);
    runInAction(() => {
      this.queues = queues;
      this.users = users.users ?? [];
      this.connections = connections;
      if (me?.queues) this.myQueues = me.queues;
    });
  }

  async loadQuickMessages(force = false) {
    if (this.quickMessages && !force) return this.quickMessages;
    const rows = await this.root.api.get<QuickMessage[]>("/quick-messages", { silent: true }).catch(() => [] as QuickMessage[]);
    runInAction(() => (this.quickMessages = rows));
    return rows;
  }

  /** A failed message's reason in the user's language: the catalogue's text for a code, the plugin's words otherwise. */
  failureText(reason: string | null): string | null {
    return failureLine(reason, (code) => this.root.errors.line(code, this.root.session.locale));
  }

  queue(id: number | null | undefined): QueueView | undefined {
    return id ? this.queues.find((q) => q.id === id) : undefined;
  }

  user(id: number | null | undefined): UserView | undefined {
    return id ? this.users.find((u) => u.id === id) : undefined;
  }

  connection(id: number | null | undefined): ConnectionView | undefined {
    return id ? this.connections.find((c) => c.id === id) : undefined;
  }

  /** Saves the attendance filter in the user's configs (filtrosAtendimento) and reloads the list. */
  async setFilter(patch: Partial<AttendanceFilter>) {
    const next = { ...this.root.session.attendanceFilter, ...patch, pageNumber: 1 };
    await this.root.saveConfigs({ filtrosAtendimento: next });
    void this.tickets.load();
  }

  /** Opens a ticket in the pane: what the list knows at once, then GET /tickets/{id} (logged as accessed). */
  async openTicketById(id: number | null) {
    this.openTicketId = id;
    this.openTicketGone = false;
    this.openTicket = id ? (this.tickets.list.get(id) ?? (this.openTicket?.id === id ? this.openTicket : null)) : null;
    if (!id) return;
    this.notifications.dismiss(id);
    try {
      const t = await this.root.api.get<Ticket>(`/tickets/${id}`, { silent: true });
      runInAction(() => {
        if (this.openTicketId !== id) return;
        this.openTicket = t;
      });
    } catch (e) {
      runInAction(() => {
        if (this.openTicketId !== id) return;
        if (e instanceof ApiError && (e.status === 404 || e.status === 400 || e.status === 422)) this.openTicketGone = true;
        else this.root.notifyError(e);
      });
    }
  }

  /** A ticket as an action of the user left it (accept, transfer, resolve, pin…). */
  applyTicket(t: Ticket) {
    if (t.id === this.openTicketId) this.openTicket = this.openTicket ? mergeTicket(this.openTicket, t) : t;
    this.tickets.applyTicket(t);
  }

  private onOpenTicketEvent(e: { type: string; payload: any }) {
    const id = this.openTicketId;
    if (!id || !e?.payload || !this.openTicket) return;
    if (e.type === "ticket:delete" && Number(e.payload.id) === id) this.openTicketGone = true;
    else if ((e.type === "ticket:update" || e.type === "ticket:create") && e.payload.id === id) this.openTicket = mergeTicket(this.openTicket, e.payload);
    else if (e.type === "chat:create" && e.payload.ticket?.id === id) {
      const { unreadMessages: _u, ...rest } = ticketFromChat(e.payload, Date.now());
      this.openTicket = mergeTicket(this.openTicket, rest);
    }
  }

  /** A message came into the ticket on screen: read it (the API marks read when its holder loads the newest page). */
  markOpenRead() {
    const id = this.openTicketId;
    const me = this.root.session.userId;
    const t = this.openTicket;
    if (!id || typeof document === "undefined" || document.visibilityState !== "visible") return;
    if (!t || t.userId !== me) return;
    if (this.readTimer) clearTimeout(this.readTimer);
    this.readTimer = setTimeout(() => {
      void this.root.api.get(`/messages/${id}`, { query: { pageNumber: 1, pageSize: 1 }, silent: true }).then(
        () => this.tickets.patch(id, { unreadMessages: 0 }),
        () => undefined,
      );
    }, 600);
  }
}

const instances = new WeakMap<RootStore, Attendance>();

export function attendanceOf(root: RootStore): Attendance {
  let a = instances.get(root);
  if (!a) {
    a = new Attendance(root);
    instances.set(root, a);
  }
  return a;
}
