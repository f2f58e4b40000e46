import { useState } from "react";
import { closingDialogs, uiTicketOf } from "../../plugins/attendance-slots";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Button, Dropdown, Modal, Tooltip } from "antd";
import type { MenuProps } from "antd";
import {
  ArrowLeftOutlined,
  CheckCircleOutlined,
  CheckSquareOutlined,
  DeleteOutlined,
  MoreOutlined,
  PushpinOutlined,
  PushpinFilled,
  RollbackOutlined,
  SwapOutlined,
  UndoOutlined,
  UserOutlined,
  PlayCircleOutlined,
  IdcardOutlined,
  EyeOutlined,
} from "@ant-design/icons";
import { useRoot } from "../../app/context";
import type { Ticket } from "../../stores/tickets";
import type { Attendance } from "./attendance";
import { ContactAvatar } from "./TicketRow";
import { ChannelIcon } from "../../ui/ChannelIcon";
import { TransferModal } from "./TransferModal";
import { avatarColor } from "../../ui/person";
import { isWatching } from "./WatchBar";

/**
 * The pane's header: who the contact is, the ticket's protocol, queue and holder, and the
 * ticket actions of spec §4 — accept, return to the queue, transfer, resolve, reopen, pin,
 * delete (admins).
 */
export const ChatHeader = observer(function ChatHeader({
  a,
  ticket,
  onBack,
  onToggleSide,
  sideOpen,
  selecting,
  onSelectMode,
  onLeft,
}: {
  a: Attendance;
  ticket: Ticket;
  onBack: () => void;
  onToggleSide: () => void;
  sideOpen: boolean;
  selecting: boolean;
  onSelectMode: () => void;
  /** The ticket left the user's view (transferred away, deleted). */
  onLeft: () => void;
}) {
  const { t } = useTranslation();
  const root = useRoot();
  const s = root.session;
  const [busy, setBusy] = useState<string | null>(null);
  const [transferOpen, setTransferOpen] = useState(false);
  const mine = ticket.userId === s.userId;
  const canManage = mine || s.isSupervisorOrAdmin || !ticket.userId;
  const holder = a.user(ticket.userId);
  const queue = a.queue(ticket.queueId);
  const conn = a.connection(ticket.connectionId);
  const name = ticket.contact?.name ?? `#${ticket.contactId}`;

  async function update(action: string, body: Record<string, unknown>, success?: string) {
    setBusy(action);
    try {
      const r = await root.api.put<Ticket>(`/tickets/${ticket.id}`, body);
      a.applyTicket(r);
      if (success) root.ui.notify({ kind: "success", title: success });
      return r;
    } catch {
      return null;
    } finally {
      setBusy(null);
    }
  }

  async function confirmResolve() {
    // The plugins' closing dialogs first (a questionnaire): any one cancelled keeps it open.
    if (!(await closingDialogs.ask(root, uiTicketOf({ ...ticket, channel: conn?.type })))) return;
    void update("resolve", { status: "closed" }, t("atendimento.actions.resolved"));
  }

  function confirmDelete() {
    Modal.confirm({
      title: t("atendimento.actions.deleteTitle"),
      content: t("atendimento.actions.deleteConfirm", { protocol: ticket.protocol ?? ticket.id }),
      okText: t("common.delete"),
      okButtonProps: { danger: true },
      cancelText: t("common.cancel"),
      onOk: async () => {
        try {
          await root.api.delete(`/tickets/${ticket.id}`);
          a.tickets.remove(ticket.id);
          root.ui.notify({ kind: "success", title: t("atendimento.actions.deleted") });
          onLeft();
        } catch {
          /* shown by the client */
        }
      },
    });
  }

  const menu: MenuProps["items"] = [
    {
      key: "pin",
      icon: ticket.pinned ? <PushpinFilled /> : <PushpinOutlined />,
      label: ticket.pinned ? t("atendimento.actions.unpin") : t("atendimento.actions.pin"),
      onClick: () => void update("pin", { pinned: !ticket.pinned }),
    },
    { key: "select", icon: <CheckSquareOutlined />, label: selecting ? t("atendimento.forward.cancelSelect") : t("atendimento.forward.select"), onClick: onSelectMode },
    ...(ticket.status === "open" && canManage
      ? [{ key: "return", icon: <RollbackOutlined />, label: t("atendimento.actions.return"), onClick: () => void update("return", { status: "pending" }, t("atendimento.actions.returned")) }]
      : []),
    ...(s.isAdmin ? [{ type: "divider" as const }, { key: "delete", icon: <DeleteOutlined />, danger: true, label: t("atendimento.actions.delete"), onClick: confirmDelete }] : []),
  ];

  return (
    <header className="oa-chat-head" data-testid="chat-header">
      <Button className="oa-only-narrow" type="text" icon={<ArrowLeftOutlined />} onClick={onBack} aria-label={t("common.back")} />
      <ContactAvatar id={ticket.contactId} name={name} size={40} group={ticket.isGroup} />
      <div className="oa-chat-head-info">
        <div className="oa-chat-head-name">
          <strong data-testid="chat-contact-name">{name}</strong>
          {ticket.pinned ? <PushpinFilled className="oa-pin" /> : null}
        </div>
        <div className="oa-chat-head-meta">
          <span className={`oa-state-chip is-${ticket.status === "open" ? (mine ? "mine" : "other") : ticket.status}`} data-testid="chat-status">
            {ticket.status === "open"
              ? mine
                ? t("atendimento.status.mine")
                : t("atendimento.status.with", { name: holder?.name ?? "—" })
              : t(`atendimento.status.${ticket.status}`)}
          </span>
          {isWatching(ticket, s.userId) ? (
            <span className="oa-watch-chip" title={t("atendimento.watch.hint")} data-testid="watching-chip">
              <EyeOutlined /> {t("atendimento.watch.chip")}
            </span>
          ) : null}
          {queue ? (
            <span className="oa-queue-chip" style={{ ["--chip" as string]: avatarColor(queue.id) }}>
              <i />
              {queue.name}
            </span>
          ) : null}
          <span className="oa-meta-item">#{ticket.protocol ?? ticket.id}</span>
          {conn ? (
            <span className="oa-meta-item oa-meta-channel" title={conn.name}>
              <ChannelIcon looks={root.plugins.channelPlugin(conn.type)} /> {conn.name}
            </span>
          ) : null}
        </div>
      </div>
      <div className="oa-chat-head-actions">
        {ticket.status === "pending" ? (
          <Button type="primary" icon={<PlayCircleOutlined />} loading={busy === "accept"} onClick={() => void update("accept", { status: "open" })} data-testid="action-accept">
            {t("atendimento.actions.accept")}
          </Button>
        ) : null}
        {ticket.status === "open" && !mine && s.isSupervisorOrAdmin ? (
          <Tooltip title={t("atendimento.actions.takeOverHint")}>
            <Button icon={<UserOutlined />} loading={busy === "accept"} onClick={() => void update("accept", { status: "open" })} data-testid="action-take-over">
              {t("atendimento.actions.takeOver")}
            </Button>
          </Tooltip>
        ) : null}
        {ticket.status !== "closed" && ticket.status !== "group" ? (
          <Tooltip title={t("atendimento.actions.transfer")}>
            <Button icon={<SwapOutlined />} onClick={() => setTransferOpen(true)} disabled={!canManage} data-testid="action-transfer" aria-label={t("atendimento.actions.transfer")}>
              <span className="oa-hide-narrow">{t("atendimento.actions.transfer")}</span>
            </Button>
          </Tooltip>
        ) : null}
        {ticket.status === "open" || ticket.status === "pending" ? (
          <Button icon={<CheckCircleOutlined />} className="oa-resolve-btn" loading={busy === "resolve"} onClick={() => void confirmResolve()} disabled={!canManage} data-testid="action-resolve" aria-label={t("atendimento.actions.resolve")}>
            <span className="oa-hide-narrow">{t("atendimento.actions.resolve")}</span>
          </Button>
        ) : null}
        {ticket.status === "closed" ? (
          <Button type="primary" ghost icon={<UndoOutlined />} loading={busy === "reopen"} onClick={() => void update("reopen", { status: "open" }, t("atendimento.actions.reopened"))} data-testid="action-reopen" aria-label={t("atendimento.actions.reopen")}>
            <span className="oa-hide-narrow">{t("atendimento.actions.reopen")}</span>
          </Button>
        ) : null}
        <Tooltip title={sideOpen ? t("atendimento.contact.hide") : t("atendimento.contact.show")}>
          <Button type={sideOpen ? "default" : "text"} icon={<IdcardOutlined />} onClick={onToggleSide} aria-label={t("atendimento.contact.show")} aria-pressed={sideOpen} data-testid="toggle-contact" />
        </Tooltip>
        <Dropdown menu={{ items: menu }} trigger={["click"]} placement="bottomRight">
          <Button type="text" icon={<MoreOutlined />} aria-label={t("common.actions")} data-testid="chat-more" loading={busy === "pin" || busy === "return"} />
        </Dropdown>
      </div>
      <TransferModal
        a={a}
        ticket={ticket}
        open={transferOpen}
        onClose={() => setTransferOpen(false)}
        onDone={(r) => {
          setTransferOpen(false);
          a.applyTicket(r);
          // Transferred to a queue the user is not in, or to someone else: it leaves their view.
          const stillMine = r.userId === s.userId || s.isSupervisorOrAdmin || (r.queueId !== null && a.myQueues.includes(r.queueId) && !r.userId);
          if (!stillMine) onLeft();
        }}
      />
    </header>
  );
});
