/** What the report's routes answer (src/view.ts and src/query.ts on the server), as the page reads it. */
export type Status = "open" | "pending" | "closed" | "group" | "chatbot";
export type Sla = "onTime" | "attention" | "overdue";

export interface ReportRow {
  id: number;
  protocol: string | null;
  status: Status;
  contact: { id: number; name: string; number: string | null };
  queue: { id: number; name: string; color: string } | null;
  user: { id: number; name: string } | null;
  createdAt: string;
  closedAt: string | null;
  durationMs: number;
  sla: Sla | null;
}

export interface Summary {
  total: number;
  open: number;
  pending: number;
  inProgress: number;
  closed: number;
  resolutionRate: number | null;
  sla: { green: number; yellow: number; red: number } | null;
  closedSla: Record<Sla, number>;
  inProgressSla: Record<Sla, number>;
  avgResolutionMs: number | null;
  nextChangeAt: number | null;
  period: { from: string; to: string };
}

export interface Options {
  statuses: Status[];
  queues: Array<{ id: number; name: string; color: string }>;
  users: Array<{ id: number; name: string }>;
}

export interface Filters {
  search: string;
  status: Status[];
  queueIds: number[];
  userIds: number[];
  from: string;
  to: string;
}
