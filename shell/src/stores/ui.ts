import { makeAutoObservable } from "mobx";
import { NOTICE_MS, SPINNER_HIDE_MS, SPINNER_QUIET_MS } from "../ui/constants";

export type NoticeKind = "success" | "error" | "info" | "warning";

export interface Notice {
  id: number;
  kind: NoticeKind;
  title: string;
  detail?: string;
  /** Shown as a top banner instead of a toast (contact limit, licence). */
  banner?: boolean;
  durationMs: number;
}

/**
 * Notices, banners and the request spinner. Framework-free (no UI kit) so the login page can
 * show errors without loading the kit; <Notifier/> renders it.
 */
export class UiStore {
  notices: Notice[] = [];
  /** The last notices shown, newest last (kept for the notices history and for tests). */
  history: Array<Pick<Notice, "kind" | "title" | "detail" | "banner">> = [];
  spinner = false;
  private nextId = 1;
  private lastRequestAt = 0;
  private pending = 0;
  private hideTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    makeAutoObservable<UiStore, "nextId" | "lastRequestAt" | "pending" | "hideTimer">(this, {
      nextId: false,
      lastRequestAt: false,
      pending: false,
      hideTimer: false,
    });
  }

  notify(n: Omit<Notice, "id" | "durationMs"> & { durationMs?: number }): number {
    const id = this.nextId++;
    this.notices.push({ ...n, id, durationMs: n.durationMs ?? NOTICE_MS });
    this.history.push({ kind: n.kind, title: n.title, detail: n.detail, banner: n.banner });
    if (this.history.length > 50) this.history.shift();
    return id;
  }

  dismiss(id: number) {
    this.notices = this.notices.filter((n) => n.id !== id);
  }

  /** A request starts: the spinner shows only when the previous one started over 2 s ago. */
  requestStarted(now = Date.now()) {
    const quiet = now - this.lastRequestAt > SPINNER_QUIET_MS;
    this.lastRequestAt = now;
    this.pending++;
    if (quiet) {
      if (this.hideTimer) clearTimeout(this.hideTimer);
      this.spinner = true;
    }
  }

  /** A request ended: the spinner hides 1 s after the last one. */
  requestEnded() {
    this.pending = Math.max(0, this.pending - 1);
    if (this.pending === 0 && this.spinner) {
      if (this.hideTimer) clearTimeout(this.hideTimer);
      this.hideTimer = setTimeout(() => this.setSpinner(false), SPINNER_HIDE_MS);
    }
  }

  setSpinner(v: boolean) {
    this.spinner = v;
  }
}
