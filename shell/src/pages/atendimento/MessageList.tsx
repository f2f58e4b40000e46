import { Fragment, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Button, Empty, Modal, Spin } from "antd";
import { ArrowDownOutlined, MessageOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import type { Message, Thread } from "../../stores/messages";
import type { Ticket } from "../../stores/tickets";
import { MESSAGE_DELETE_WINDOW_MS } from "../../ui/constants";
import type { Attendance } from "./attendance";
import { MessageBubble } from "./MessageBubble";
import { dayKey, dayLabel, memberName } from "./format";
import { TicketLogLine, TicketTotalTime, useTicketLogs, type TicketLog } from "./TicketLogLine";
import { useWallpaper } from "./wallpaper";

/**
 * The messages of the open ticket, oldest at the top: day separators, older pages loaded
 * when scrolled to the top (the view stays where it was), and the view follows new messages
 * while it is at the bottom (otherwise a button shows how to get there).
 */
export const MessageList = observer(function MessageList({
  a,
  ticket,
  thread,
  selecting,
  selected,
  onToggleSelect,
  onReply,
  onEdit,
  onForward,
}: {
  a: Attendance;
  ticket: Ticket;
  thread: Thread | undefined;
  selecting: boolean;
  selected: ReadonlySet<number>;
  onToggleSelect: (m: Message) => void;
  onReply: (m: Message) => void;
  onEdit: (m: Message) => void;
  onForward: (m: Message) => void;
}) {
  const { t } = useTranslation();
  const root = useRoot();
  const ref = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const anchor = useRef<{ height: number; top: number; firstId: number } | null>(null);
  const [unseen, setUnseen] = useState(0);
  const [highlight, setHighlight] = useState<number | null>(null);
  const [, setTick] = useState(0);
  const wallpaper = useWallpaper(root);
  const messages = thread?.messages ?? [];
  const me = root.session.userId;
  const locale = root.session.locale;
  const lastId = messages.length ? messages[messages.length - 1].id : 0;
  const firstId = messages.length ? messages[0].id : 0;
  const readOnly = ticket.status === "closed";

  // The delete window (5 minutes) closes while the chat is open.
  useEffect(() => {
    const h = setInterval(() => setTick((x) => x + 1), 30_000);
    return () => clearInterval(h);
  }, []);

  // Opening a ticket starts at the newest message.
  useLayoutEffect(() => {
    atBottom.current = true;
    setUnseen(0);
  }, [ticket.id]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const a0 = anchor.current;
    if (a0 && a0.firstId !== firstId) {
      // Older messages came in above: keep the same message under the eyes.
      el.scrollTop = el.scrollHeight - a0.height + a0.top;
      anchor.current = null;
      return;
    }
    const last = messages[messages.length - 1];
    if (atBottom.current || (last && last.fromMe && last.userId === me)) {
      el.scrollTop = el.scrollHeight;
      setUnseen(0);
    } else if (last) setUnseen((n) => n + 1);
  }, [lastId, firstId, messages.length, thread?.loaded]);

  // Pictures and players take their height when they load: a view at the bottom stays there.
  const contentRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const inner = contentRef.current;
    const el = ref.current;
    if (!inner || !el) return;
    const ro = new ResizeObserver(() => {
      if (atBottom.current && !anchor.current) el.scrollTop = el.scrollHeight;
    });
    ro.observe(inner);
    return () => ro.disconnect();
  }, [thread?.loaded, ticket.id]);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (!el || !thread) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (atBottom.current) setUnseen(0);
    if (el.scrollTop < 120 && thread.hasMore && !thread.loadingOlder && thread.loaded) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop, firstId };
      void a.messages.loadOlder(ticket.id);
    }
  }, [thread, firstId, ticket.id]);

  const jump = useCallback((id: number) => {
    const el = ref.current?.querySelector(`[data-message-id="${id}"]`);
    if (el) {
      el.scrollIntoView({ block: "center", behavior: "smooth" });
      setHighlight(id);
      setTimeout(() => setHighlight((h) => (h === id ? null : h)), 1600);
    }
  }, []);

  // The ticket's log among the messages (spec §4): each entry before the first message newer than it.
  const logs = useTicketLogs(root, ticket, messages.filter((m) => m.isDeleted).length);
  const logWho = (l: TicketLog) => (l.userId === null ? t("atendimento.extras.log.system") : l.userId === me ? t("atendimento.message.you") : (a.user(l.userId)?.name ?? t("atendimento.message.agent")));
  // Whom a transfer went to: the agent, else the queue.
  const transferTarget = (l: TicketLog) => {
    const to = (l.data?.to ?? null) as { userId?: number | null; queueId?: number | null } | null;
    if (!to) return undefined;
    if (to.userId) return to.userId === me ? t("atendimento.message.you") : a.user(to.userId)?.name;
    return to.queueId ? a.queues.find((q) => q.id === to.queueId)?.name : undefined;
  };
  // With older pages still unloaded, entries older than the first loaded message wait for them.
  const firstShown = thread?.hasMore && messages.length ? messages[0].timestamp : -Infinity;
  const shownLogs = logs.filter((l) => l.at >= firstShown);
  let logIndex = 0;
  const logsUntil = (ts: number) => {
    const out: TicketLog[] = [];
    while (logIndex < shownLogs.length && shownLogs[logIndex].at <= ts) out.push(shownLogs[logIndex++]);
    return out.map((l) => <TicketLogLine key={`log-${l.id}`} log={l} who={logWho(l)} target={transferTarget(l)} locale={locale} />);
  };

  const byId = thread?.byId ?? new Map<number, Message>();
  const contactName = ticket.contact?.name ?? "";
  // In a group the contact is the group: each message names the member who wrote it (by name
  // only when the tenant hides contacts' phones: the core then sends a token for the address).
  const memberOf = (p: Message["participant"]) => (p?.externalId.startsWith("hidden:") ? p.name?.trim() || t("atendimento.message.member") : memberName(p));
  const authorOf = (m: Message) => (m.fromMe ? (m.userId === me ? t("atendimento.message.you") : (a.user(m.userId)?.name ?? t("atendimento.message.agent"))) : ((ticket.isGroup && memberOf(m.participant)) || contactName));

  if (!thread || (!thread.loaded && thread.loading)) {
    return (
      <div className="oa-messages oa-messages-loading" aria-busy="true">
        <Spin />
      </div>
    );
  }
  if (thread.failed && !messages.length) {
    return (
      <div className="oa-messages oa-messages-loading">
        <Empty description={t("atendimento.messages.loadFailed")}>
          <Button onClick={() => void a.messages.load(ticket.id)}>{t("atendimento.list.retry")}</Button>
        </Empty>
      </div>
    );
  }

  let prevDay = 0;
  let prevAuthor = "";
  return (
    <div
      className={`oa-messages-wrap${wallpaper ? " has-wallpaper" : ""}`}
      style={wallpaper ? { ["--oa-wallpaper" as string]: `url("${wallpaper}")` } : undefined}
      data-testid="chat-wallpaper"
      data-wallpaper={wallpaper ? "on" : "off"}
    >
      <div className="oa-messages" ref={ref} onScroll={onScroll} data-testid="message-list">
        <div className="oa-messages-inner" ref={contentRef}>
        <TicketTotalTime ticket={ticket} logs={logs} />
        {thread.hasMore ? (
          <div className="oa-older">{thread.loadingOlder ? <Spin size="small" /> : <Button size="small" type="link" onClick={() => void a.messages.loadOlder(ticket.id)}>{t("atendimento.messages.older")}</Button>}</div>
        ) : messages.length ? (
          <div className="oa-start">{t("atendimento.messages.start")}</div>
        ) : null}
        {!messages.length ? (
          <div className="oa-messages-empty">
            <MessageOutlined />
            <span>{t("atendimento.messages.empty")}</span>
          </div>
        ) : null}
        {messages.map((m) => {
          const day = dayKey(m.timestamp);
          const sep = day !== prevDay;
          prevDay = day;
          const author = authorOf(m);
          // Agents' names show on outgoing messages of another agent, and in groups.
          const showAuthor = (m.fromMe && m.userId !== me && author !== prevAuthor) || (ticket.isGroup && !m.fromMe && author !== prevAuthor);
          prevAuthor = sep ? "" : author;
          const quoted = m.quotedMsgId ? (byId.get(m.quotedMsgId) ?? null) : null;
          const mine = m.fromMe && m.userId === me;
          return (
            <Fragment key={m.id}>
              {sep ? (
                <div className="oa-day" role="separator">
                  <span>{dayLabel(m.timestamp, locale, { today: t("atendimento.time.today"), yesterday: t("atendimento.time.yesterday") })}</span>
                </div>
              ) : null}
              {logsUntil(m.timestamp)}
              <MessageBubble
                m={m}
                quoted={quoted}
                quotedAuthor={quoted ? authorOf(quoted) : undefined}
                author={showAuthor ? author : undefined}
                locale={locale}
                canEdit={mine && !m.mediaType && !m.isDeleted && m.status !== "failed" && !m.local && !readOnly}
                canDelete={m.fromMe && !m.local && Date.now() - new Date(m.createdAt).getTime() <= MESSAGE_DELETE_WINDOW_MS}
                selecting={selecting}
                selected={selected.has(m.id)}
                highlight={highlight === m.id}
                readOnly={readOnly}
                failText={m.status === "failed" ? a.failureText(m.failReason) : null}
                onReply={onReply}
                onEdit={onEdit}
                onForward={onForward}
                onDelete={(x) =>
                  Modal.confirm({
                    title: t("atendimento.message.deleteTitle"),
                    content: t("atendimento.message.deleteConfirm"),
                    okText: t("common.delete"),
                    okButtonProps: { danger: true },
                    cancelText: t("common.cancel"),
                    onOk: () => a.messages.remove(x.id).catch(() => undefined),
                  })
                }
                onReact={(x, emoji) => void a.messages.react(x.id, emoji).catch(() => undefined)}
                onToggleSelect={onToggleSelect}
                onRetry={a.messages.retry}
                onDiscard={a.messages.discard}
                onJump={jump}
              />
            </Fragment>
          );
        })}
        {logsUntil(Infinity)}
        </div>
      </div>
      {unseen > 0 ? (
        <Button
          className="oa-jump-bottom"
          shape="round"
          icon={<ArrowDownOutlined />}
          onClick={() => {
            const el = ref.current;
            if (el) el.scrollTo({ top: el.scrollHeight, behavior: "smooth" });
            setUnseen(0);
          }}
        >
          {t("atendimento.messages.newBelow", { count: unseen })}
        </Button>
      ) : null}
    </div>
  );
});
