/**
 * A projected ticket as the report shows it (names of its queue and attendant from the core's
 * lists, its duration and SLA class at the report's clock), and as an export row.
 */
import type { PlatformQueue, PlatformUser } from "@openatende/plugin-sdk";
import { formatDateTime, formatDecimal, ticketSla, wallTime, type ExportCell, type ExportColumn, type SlaClass, type SlaThresholds } from "@openatende/report-kit";
import type { TicketRow } from "./projection";
import type { ExportTexts } from "./texts";

export interface Names {
  queues: Map<number, PlatformQueue>;
  users: Map<number, PlatformUser>;
}

export function namesOf(queues: PlatformQueue[], users: PlatformUser[]): Names {
  return { queues: new Map(queues.map((q) => [q.id, q])), users: new Map(users.map((u) => [u.id, u])) };
}

export interface TicketView {
  id: number;
  protocol: string | null;
  status: TicketRow["status"];
  contact: { id: number; name: string; number: string | null };
  queue: { id: number; name: string; color: string } | null;
  user: { id: number; name: string } | null;
  createdAt: string;
  closedAt: string | null;
  /** Creation to closing, or to now while in progress. */
  durationMs: number;
  sla: SlaClass | null;
}

export function viewOf(r: TicketRow, names: Names, sla: SlaThresholds | null, now: number): TicketView {
  const q = r.queueId === null ? undefined : names.queues.get(r.queueId);
  const u = r.userId === null ? undefined : names.users.get(r.userId);
  const closedAt = r.status === "closed" ? (r.closedAt ?? r.createdAt) : null;
  return {
    id: r.id,
    protocol: r.protocol,
    status: r.status,
    contact: { id: r.contactId, name: r.contactName, number: r.contactNumber },
    queue: q ? { id: q.id, name: q.name, color: q.color } : null,
    user: u ? { id: u.id, name: u.name } : null,
    createdAt: new Date(r.createdAt).toISOString(),
    closedAt: closedAt === null ? null : new Date(closedAt).toISOString(),
    durationMs: Math.max(0, (closedAt ?? now) - r.createdAt),
    sla: sla ? ticketSla({ createdAt: r.createdAt, closedAt }, sla, now) : null,
  };
}

/** The export's columns in the reader's language. */
export function exportColumns(t: ExportTexts): ExportColumn[] {
  // Date cells hold the reader's wall clock (exportRow), so the PDF prints them as UTC readings.
  const date = (v: ExportCell) => (v instanceof Date ? formatDateTime(v.getTime(), "UTC") : "");
  return [
    { key: "id", header: t.columns.id, width: 9, weight: 0.5 },
    { key: "protocol", header: t.columns.protocol, width: 18, weight: 1.2 },
    { key: "contact", header: t.columns.contact, width: 28, weight: 1.6 },
    { key: "number", header: t.columns.number, width: 16, weight: 1.1 },
    { key: "queue", header: t.columns.queue, width: 16, weight: 0.9 },
    { key: "user", header: t.columns.user, width: 18, weight: 1.1 },
    { key: "status", header: t.columns.status, width: 14, weight: 0.9 },
    { key: "createdAt", header: t.columns.createdAt, width: 18, weight: 1.4, numFmt: "dd/mm/yyyy hh:mm", text: date },
    { key: "closedAt", header: t.columns.closedAt, width: 18, weight: 1.4, numFmt: "dd/mm/yyyy hh:mm", text: date },
    { key: "minutes", header: t.columns.minutes, width: 12, weight: 0.8, numFmt: "#,##0.00", text: (v) => (typeof v === "number" ? formatDecimal(v) : "") },
    { key: "sla", header: t.columns.sla, width: 12, weight: 0.8 },
  ];
}

/** An export's row; its dates as the wall clock of `timeZone` (a spreadsheet cell has no zone). */
export function exportRow(v: TicketView, t: ExportTexts, timeZone: string): Record<string, ExportCell> {
  return {
    id: v.id,
    protocol: v.protocol ?? "",
    contact: v.contact.name,
    number: v.contact.number ?? "",
    queue: v.queue?.name ?? "",
    user: v.user?.name ?? "",
    status: t.status[v.status],
    createdAt: new Date(wallTime(Date.parse(v.createdAt), timeZone)),
    closedAt: v.closedAt ? new Date(wallTime(Date.parse(v.closedAt), timeZone)) : null,
    minutes: Math.round((v.durationMs / 60_000) * 1000) / 1000,
    sla: v.sla ? t.sla[v.sla] : "",
  };
}
