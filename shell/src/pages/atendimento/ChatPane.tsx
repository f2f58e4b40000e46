import { useEffect, useRef, useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Button, Result, Spin } from "antd";
import { CloseOutlined, ShareAltOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import type { Message } from "../../stores/messages";
import type { Ticket } from "../../stores/tickets";
import { FORWARD_MAX } from "../../ui/constants";
import type { Attendance } from "./attendance";
import { ChatHeader } from "./ChatHeader";
import { Composer, type Attachment } from "./Composer";
import { ContactPanel } from "./ContactPanel";
import { ForwardModal } from "./ForwardModal";
import { MessageList } from "./MessageList";
import { WatchBar, isWatching } from "./WatchBar";
import { WindowClosedBar, useNow } from "./WindowClosedBar";
import { windowNow } from "./service-window";
import { uiTicketOf, useComposerReplacement } from "../../plugins/attendance-slots";

/** The open chat: header with the ticket's actions, the messages, the composer, and the contact side panel. */
export const ChatPane = observer(function ChatPane({ a, ticketId, onClose, sideOpen, setSideOpen }: { a: Attendance; ticketId: number; onClose: () => void; sideOpen: boolean; setSideOpen: (v: boolean) => void }) {
  const { t } = useTranslation();
  const root = useRoot();
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [editing, setEditing] = useState<Message | null>(null);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [forwardIds, setForwardIds] = useState<number[] | null>(null);
  const [attachments, setAttachments] = useState<Attachment[]>([]);

  useEffect(() => {
    setReplyTo(null);
    setEditing(null);
    setSelecting(false);
    setSelected(new Set());
    setAttachments([]);
    a.messages.thread(ticketId);
    // Someone else's or a waiting ticket, as far as the list knows it: only watched, nothing is read.
    const watch = isWatching(a.tickets.list.get(ticketId) ?? (a.openTicket?.id === ticketId ? a.openTicket : null), root.session.userId);
    void Promise.all([a.openTicketById(ticketId), a.messages.load(ticketId, { watch })]).then(() => {
      // Opened by its holder: read (the API marked it when the first page was read).
      const tk = a.openTicket;
      if (tk && tk.id === ticketId && tk.userId === root.session.userId) a.tickets.patch(ticketId, { unreadMessages: 0 });
    });
  }, [ticketId]);

  const ticket: Ticket | null = a.openTicket && a.openTicket.id === ticketId ? a.openTicket : null;
  const thread = a.messages.threads.get(ticketId);

  // Watched, then taken: the new holder reads the messages now (and the customer gets the receipts).
  const watching = isWatching(ticket, root.session.userId);
  // The provider's customer-service window, moved on by new messages and the time passing.
  const now = useNow(30_000);
  const serviceWindow = ticket ? windowNow(ticket.serviceWindow, thread?.messages ?? [], now) : null;
  // A plugin's composer in place of ours when it applies (a closed 24-hour window: the template picker).
  const replacement = useComposerReplacement(ticket ? uiTicketOf({ ...ticket, channel: a.connection(ticket.connectionId)?.type, serviceWindow }) : null);
  const watched = useRef<{ id: number; watching: boolean } | null>(null);
  useEffect(() => {
    if (!ticket) return;
    const before = watched.current;
    watched.current = { id: ticket.id, watching };
    if (before?.id === ticket.id && before.watching && !watching && ticket.userId === root.session.userId) {
      void a.messages.load(ticket.id).then(() => a.tickets.patch(ticket.id, { unreadMessages: 0 }));
    }
  }, [ticket?.id, watching]);

  if (a.openTicketGone) {
    return (
      <section className="oa-pane oa-pane-empty" data-testid="chat-gone">
        <Result status="404" title={t("atendimento.pane.goneTitle")} subTitle={t("atendimento.pane.goneDetail")} extra={<Button onClick={onClose}>{t("atendimento.pane.backToList")}</Button>} />
      </section>
    );
  }
  if (!ticket) {
    return (
      <section className="oa-pane oa-pane-empty">
        <Spin />
      </section>
    );
  }

  async function update(body: Record<string, unknown>) {
    try {
      a.applyTicket(await root.api.put<Ticket>(`/tickets/${ticketId}`, body));
    } catch {
      /* shown by the client */
    }
  }

  function toggleSelect(m: Message) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(m.id)) next.delete(m.id);
      else if (next.size >= FORWARD_MAX) root.ui.notify({ kind: "warning", title: t("atendimento.forward.tooMany", { max: FORWARD_MAX }) });
      else next.add(m.id);
      return next;
    });
  }

  return (
    <div className="oa-pane-wrap">
      <section className="oa-pane" data-testid="chat-pane" data-ticket-id={ticket.id}>
        <ChatHeader
          a={a}
          ticket={ticket}
          onBack={onClose}
          sideOpen={sideOpen}
          onToggleSide={() => setSideOpen(!sideOpen)}
          selecting={selecting}
          onSelectMode={() => {
            setSelecting(!selecting);
            setSelected(new Set());
          }}
          onLeft={onClose}
        />
        <MessageList
          a={a}
          ticket={ticket}
          thread={thread}
          selecting={selecting}
          selected={selected}
          onToggleSelect={toggleSelect}
          onReply={(m) => {
            setEditing(null);
            setReplyTo(m);
          }}
          onEdit={(m) => {
            setReplyTo(null);
            setEditing(m);
          }}
          onForward={(m) => {
            setSelecting(true);
            setSelected(new Set([m.id]));
          }}
        />
        {selecting ? (
          <div className="oa-select-bar" data-testid="select-bar">
            <Button type="text" icon={<CloseOutlined />} onClick={() => (setSelecting(false), setSelected(new Set()))} aria-label={t("common.cancel")} />
            <span>
              {t("atendimento.forward.selected", { count: selected.size, max: FORWARD_MAX })}
            </span>
            <Button type="primary" icon={<ShareAltOutlined />} disabled={!selected.size} onClick={() => setForwardIds([...selected])} data-testid="forward-open">
              {t("atendimento.forward.submit")}
            </Button>
          </div>
        ) : ticket.status === "open" && watching ? (
          <WatchBar a={a} ticket={ticket} />
        ) : replacement ? (
          replacement
        ) : ticket.status === "open" && serviceWindow && !serviceWindow.open ? (
          <WindowClosedBar w={serviceWindow} />
        ) : (
          <Composer
            a={a}
            ticket={ticket}
            replyTo={replyTo}
            onCancelReply={() => setReplyTo(null)}
            editing={editing}
            onCancelEdit={() => setEditing(null)}
            attachments={attachments}
            setAttachments={(f) => setAttachments(f)}
            onAccept={() => void update({ status: "open" })}
            onReopen={() => void update({ status: "open" })}
          />
        )}
        <ForwardModal
          a={a}
          open={!!forwardIds}
          messageIds={forwardIds ?? []}
          onClose={() => setForwardIds(null)}
          onDone={() => {
            setForwardIds(null);
            setSelecting(false);
            setSelected(new Set());
          }}
        />
      </section>
      {sideOpen ? <ContactPanel a={a} ticket={ticket} onClose={() => setSideOpen(false)} /> : null}
    </div>
  );
});
