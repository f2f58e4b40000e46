import { useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Button, Modal, Select } from "antd";
import { CloseOutlined, MessageOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { ApiError } from "../../api/client";
import type { Ticket } from "../../stores/tickets";
import type { Attendance } from "./attendance";
import { ContactPicker, type ContactLite } from "./ContactPicker";
import { ContactAvatar } from "./TicketRow";

/**
 * /atendimento/contatos: the contacts in chat mode. Picking one starts a ticket with them
 * (POST /tickets); when they already have an active ticket the user is asked whether to open it.
 */
export const NewChat = observer(function NewChat({ a, onOpen, onClose }: { a: Attendance; onOpen: (id: number) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const root = useRoot();
  const [contact, setContact] = useState<ContactLite | null>(null);
  const [queueId, setQueueId] = useState<number | undefined>(a.myQueues.length === 1 ? a.myQueues[0] : undefined);
  const [busy, setBusy] = useState(false);
  const queues = root.session.isSupervisorOrAdmin ? a.queues : a.queues.filter((q) => a.myQueues.includes(q.id));

  async function start() {
    if (!contact) return;
    setBusy(true);
    try {
      const r = await root.api.post<Ticket>("/tickets", { contactId: contact.id, status: "open", ...(queueId ? { queueId } : {}) }, { silent: true });
      a.applyTicket({ ...r, contact: { id: contact.id, name: contact.name, number: contact.number, profilePicUrl: null } });
      onOpen(r.id);
    } catch (e) {
      if (e instanceof ApiError && e.code === "ERR_CONTACT_OTHER_OPEN_TICKET") {
        const other = Number(e.data.ticketId) || null;
        if (!other) {
          root.ui.notify({ kind: "error", title: e.title, detail: t("atendimento.newChat.otherUnknown") });
          return;
        }
        Modal.confirm({
          title: e.title,
          content: t("atendimento.newChat.otherOpen", { name: contact.name }),
          okText: t("atendimento.newChat.openOther"),
          cancelText: t("common.cancel"),
          onOk: () => onOpen(other),
        });
      } else root.notifyError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="oa-pane oa-newchat" data-testid="new-chat-pane">
      <header className="oa-chat-head">
        <span className="oa-newchat-icon">
          <MessageOutlined />
        </span>
        <div className="oa-chat-head-info">
          <strong>{t("atendimento.newChat.title")}</strong>
          <span className="oa-muted oa-small">{t("atendimento.newChat.subtitle")}</span>
        </div>
        <Button type="text" icon={<CloseOutlined />} onClick={onClose} aria-label={t("common.close")} />
      </header>
      <div className="oa-newchat-body">
        <ContactPicker selected={contact?.id} onPick={setContact} autoFocus pageSize={40} />
        <div className="oa-newchat-side">
          {contact ? (
            <div className="oa-newchat-card">
              <ContactAvatar id={contact.id} name={contact.name} size={56} />
              <strong>{contact.name}</strong>
              <span className="oa-muted">{contact.number || contact.email || t("atendimento.contact.noNumber")}</span>
            </div>
          ) : (
            <div className="oa-newchat-card is-empty">
              <span className="oa-muted">{t("atendimento.newChat.pick")}</span>
            </div>
          )}
          <label className="oa-field">
            <span>{t("atendimento.transfer.queue")}</span>
            <Select allowClear value={queueId} onChange={setQueueId} placeholder={t("atendimento.newChat.queuePlaceholder")} options={queues.map((q) => ({ value: q.id, label: q.name }))} />
          </label>
          <Button type="primary" block disabled={!contact} loading={busy} onClick={() => void start()} data-testid="new-chat-start">
            {t("atendimento.newChat.start")}
          </Button>
        </div>
      </div>
    </section>
  );
});
