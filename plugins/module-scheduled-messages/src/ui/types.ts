/** What the module's routes answer, as the UI reads it (src/view.ts on the server). */
export type Status = "pending" | "sent" | "failed" | "cancelled";
export type Recurrence = "daily" | "weekly" | "biweekly" | "monthly" | "custom";

export interface ScheduledMessage {
  id: number;
  body: string;
  status: Status;
  type: "single" | "recurrent";
  recurrence: Recurrence | null;
  customDays: number[] | null;
  recurrentUntil: string | null;
  timeZone: string;
  contactId: number;
  contactName: string | null;
  connectionId: number;
  userId: number;
  userName: string | null;
  ticketId: number | null;
  scheduleDate: string;
  nextDate: string | null;
  sentCount: number;
  lastSentAt: string | null;
  errorMessage: string | null;
  createdBy: number;
  createdByName: string | null;
  createdAt: string;
}

export interface ListPage {
  rows: ScheduledMessage[];
  count: number;
  hasMore: boolean;
}

export interface Named {
  id: number;
  name: string;
}

export interface Options {
  contacts: Array<Named & { number: string | null }>;
  users: Named[];
}

export const STATUSES: Status[] = ["pending", "sent", "failed", "cancelled"];
export const RECURRENCES: Recurrence[] = ["daily", "weekly", "biweekly", "monthly", "custom"];
export const STATUS_COLORS: Record<Status, string> = { pending: "processing", sent: "success", failed: "error", cancelled: "default" };

/** The realtime event the server pushes on every change. */
export const CHANGED_EVENT = "scheduled.changed";
