import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ClockCircleOutlined, HistoryOutlined } from "@ant-design/icons";
import type { RootStore } from "../../app/root";
import type { Ticket } from "../../stores/tickets";
import { clockTime } from "./format";
import "./composer-extras.css";

/** One entry of a ticket's activity log (GET /tickets/:id/logs, spec §4). */
export interface TicketLog {
  id: number;
  ticketId: number;
  userId: number | null;
  type: string;
  data: Record<string, unknown> | null;
  createdAt: string;
  /** ms since the epoch, for ordering among messages. */
  at: number;
}

const KNOWN = new Set(["created", "accessed", "started", "pending", "transfered", "receivedTransfer", "closed", "reopened", "deleted", "queue", "userDefine", "retriesLimitQueue", "retriesLimitUserDefine", "chatBot", "autoClose"]);

/** An automatic close says why (core/src/automation: log data { reason }). */
const AUTO_CLOSE_REASONS: Record<string, string> = { inactivity: "autoCloseInactivity", smartClose: "autoCloseSmartClose" };

/**
 * The ticket's log, read again whenever the ticket changes hands or state (its realtime
 * update carries a new updatedAt) or a message is deleted; "accessed" entries are left out of
 * the chat (every open of the chat writes one: the log would drown the conversation).
 */
export function useTicketLogs(root: RootStore, ticket: Ticket, deletedCount: number): TicketLog[] {
  const [logs, setLogs] = useState<TicketLog[]>([]);
  const key = `${ticket.id}|${ticket.status}|${ticket.userId}|${ticket.queueId}|${String(ticket.updatedAt ?? "")}|${deletedCount}`;
  useEffect(() => {
    let live = true;
    root.api
      .get<Array<Omit<TicketLog, "at">>>(`/tickets/${ticket.id}/logs`, { silent: true })
      .then((rows) => {
        if (live) setLogs(rows.filter((l) => l.type !== "accessed").map((l) => ({ ...l, at: new Date(l.createdAt).getTime() })));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [key]);
  useEffect(() => setLogs([]), [ticket.id]);
  return logs;
}

/** "2 h 05 min", "3 d 4 h", "45 s". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${String(m).padStart(2, "0")} min`;
  if (m) return `${m} min`;
  return `${s} s`;
}

/** A ticket's total time (spec §3): from its creation to its close, or to now while it is open. */
export function totalTime(ticket: Ticket, logs: TicketLog[], now = Date.now()): { ms: number; closed: boolean } | null {
  const created = ticket.createdAt ? new Date(ticket.createdAt).getTime() : logs.find((l) => l.type === "created")?.at;
  if (!created) return null;
  const closed = ticket.status === "closed";
  const lastClose = [...logs].reverse().find((l) => l.type === "closed" || l.type === "autoClose")?.at;
  const end = closed ? (ticket.closedAt ? new Date(ticket.closedAt).getTime() : (lastClose ?? now)) : now;
  return { ms: end - created, closed };
}

/** The total time, shown at the top of the chat; ticks every 30 s while the ticket is open. */
export function TicketTotalTime({ ticket, logs }: { ticket: Ticket; logs: TicketLog[] }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (ticket.status === "closed") return;
    const h = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(h);
  }, [ticket.status]);
  const total = totalTime(ticket, logs, now);
  if (!total) return null;
  return (
    <div className="oa-total-time" data-testid="ticket-total-time">
      <ClockCircleOutlined /> {total.closed ? t("atendimento.extras.total", { time: duration(total.ms) }) : t("atendimento.extras.totalOpen", { time: duration(total.ms) })}
    </div>
  );
}

/** A small system line among the messages: who did what, when. */
export function TicketLogLine({ log, who, target, locale }: { log: TicketLog; who: string; target?: string; locale: string }) {
  const { t } = useTranslation();
  const reason =
    log.type === "autoClose" && typeof log.data?.reason === "string"
      ? AUTO_CLOSE_REASONS[log.data.reason]
      : log.type === "userDefine" && log.data?.reason === "wallet"
        ? "userDefineWallet" // spec §6 forced wallet delivery (core/src/tickets/inbound.ts), not a bot's choice
        : undefined;
  const type = log.type === "deleted" && !log.data?.messageId ? "deletedTicket" : log.type === "transfered" && target ? "transferedTo" : (reason ?? log.type);
  const text = KNOWN.has(log.type) ? t(`atendimento.extras.log.${type}`, { who, target }) : t("atendimento.extras.log.other", { who, type: log.type });
  return (
    <div className="oa-log-line" role="note" data-testid="ticket-log-line" data-log-type={log.type}>
      <span>
        <HistoryOutlined /> {text} · <time dateTime={log.createdAt}>{clockTime(log.at, locale)}</time>
      </span>
    </div>
  );
}
