import { makeAutoObservable } from "mobx";
import type { ChatCreatePayload } from "./tickets";

/**
 * Browser notifications of new messages (spec §6): raised only for new, unread incoming
 * messages (never for one written on the account's own phone) on tickets that are unassigned or assigned to the current user and whose queue is
 * among the user's queues. Clicking one opens /atendimento/{ticketId}.
 */

export type PermissionState = "default" | "granted" | "denied" | "unsupported";

/**
 * The rule of spec §6, on a `chat:create` payload. A message written on the account's own
 * phone (`fromMe`) is the business speaking, not a customer: nobody is told of it.
 */
export function shouldNotify(p: ChatCreatePayload & { fromMe?: boolean }, me: { id: number; queues: number[] }): boolean {
  if (!p?.ticket || p.read || p.fromMe) return false;
  const t = p.ticket;
  if (t.userId !== null && t.userId !== undefined && t.userId !== me.id) return false;
  if (t.queueId === null || t.queueId === undefined) return false;
  return me.queues.includes(t.queueId);
}

export interface NotificationsDeps {
  viewer(): { id: number; queues: number[] } | null;
  navigate(path: string): void;
  t(key: string, vars?: Record<string, unknown>): string;
  /** The ticket open on screen now (no notice for it while the page has the focus). */
  openTicketId(): number | null;
}

type NotificationCtor = typeof Notification;

function notificationApi(): NotificationCtor | null {
  return typeof window !== "undefined" && "Notification" in window ? window.Notification : null;
}

export class NotificationsStore {
  permission: PermissionState = "unsupported";
  /** Notices raised since the page loaded, newest first (for a counter). */
  recent: Array<{ ticketId: number; title: string; body: string; at: number }> = [];
  private shown = new Map<number, Notification>();

  constructor(private deps: NotificationsDeps) {
    makeAutoObservable<NotificationsStore, "deps" | "shown">(this, { deps: false, shown: false }, { autoBind: true });
    const N = notificationApi();
    if (N) this.permission = N.permission as PermissionState;
  }

  /** Asks the browser for permission (from a click: browsers ignore it otherwise). */
  async requestPermission() {
    const N = notificationApi();
    if (!N) return;
    try {
      const p = await N.requestPermission();
      this.setPermission(p as PermissionState);
    } catch {
      this.setPermission(N.permission as PermissionState);
    }
  }

  setPermission(p: PermissionState) {
    this.permission = p;
  }

  /** A `{tenant}:ticketList` event. */
  onTicketList(e: { type: string; payload: any }) {
    if (e?.type !== "chat:create") return;
    const p = e.payload as ChatCreatePayload;
    const me = this.deps.viewer();
    if (!me || !shouldNotify(p, me)) return;
    const focused = typeof document !== "undefined" && document.visibilityState === "visible" && document.hasFocus();
    if (focused && this.deps.openTicketId() === p.ticket.id) return;
    const title = p.ticket.contact?.name || this.deps.t("atendimento.notifications.newMessage");
    const body = p.body || (p.mediaType ? this.deps.t(`atendimento.media.${p.mediaType}`) : "");
    this.recent = [{ ticketId: p.ticket.id, title, body, at: Date.now() }, ...this.recent].slice(0, 50);
    this.show(p.ticket.id, title, body);
  }

  private show(ticketId: number, title: string, body: string) {
    const N = notificationApi();
    if (!N || N.permission !== "granted") return;
    try {
      this.shown.get(ticketId)?.close();
      const n = new N(title, { body, tag: `ticket-${ticketId}` });
      n.onclick = () => {
        window.focus();
        this.deps.navigate(`/atendimento/${ticketId}`);
        n.close();
      };
      n.onclose = () => {
        if (this.shown.get(ticketId) === n) this.shown.delete(ticketId);
      };
      this.shown.set(ticketId, n);
    } catch {
      /* some browsers allow notifications only from a service worker */
    }
  }

  /** The user opened the ticket: its notice goes. */
  dismiss(ticketId: number) {
    this.shown.get(ticketId)?.close();
    this.shown.delete(ticketId);
    this.recent = this.recent.filter((r) => r.ticketId !== ticketId);
  }
}
