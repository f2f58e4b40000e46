/**
 * The connection's import settings (spec §3) applied to the history a newly linked device
 * receives: whether messages and group messages are imported at all, and the date range,
 * both ends inclusive, read as calendar days in the settings' time zone (UTC when none is
 * given: the dates are the admin's, so the session side passes the tenant's zone).
 */
import type { ImportSettings } from "../ports";

export type HistoryVerdict = { import: true; closeTicket: boolean } | { import: false; reason: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The calendar day (yyyy-mm-dd) of an instant in a time zone. */
export function dayOf(ms: number, timeZone = "UTC"): string {
  // en-CA formats dates as yyyy-mm-dd.
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(ms));
}

export function historyVerdict(settings: ImportSettings | undefined, isGroup: boolean, timestampMs: number): HistoryVerdict {
  if (!settings || !settings.messages) return { import: false, reason: "history-import-off" };
  if (isGroup && !settings.groupMessages) return { import: false, reason: "history-group-messages-off" };
  const day = dayOf(timestampMs, settings.timeZone);
  if (settings.from && DAY.test(settings.from) && day < settings.from) return { import: false, reason: "history-before-range" };
  if (settings.to && DAY.test(settings.to) && day > settings.to) return { import: false, reason: "history-after-range" };
  return { import: true, closeTicket: !!settings.closeTickets };
}
