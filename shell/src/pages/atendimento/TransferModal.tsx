import { useEffect, useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Alert, Badge, Modal, Select } from "antd";
import { SwapOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { ApiError } from "../../api/client";
import type { Ticket } from "../../stores/tickets";
import type { Attendance } from "./attendance";
import { avatarColor } from "../../ui/person";

/**
 * Transfer to a queue and/or a user (spec §4). A user or a queue must be chosen; the API
 * refuses a transfer to the ticket's own user or queue, and its message is shown here.
 */
export const TransferModal = observer(function TransferModal({ a, ticket, open, onClose, onDone }: { a: Attendance; ticket: Ticket; open: boolean; onClose: () => void; onDone: (t: Ticket) => void }) {
  const { t } = useTranslation();
  const root = useRoot();
  const [queueId, setQueueId] = useState<number | undefined>();
  const [userId, setUserId] = useState<number | undefined>();
  const [error, setError] = useState<{ title: string; detail?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) {
      setQueueId(undefined);
      setUserId(undefined);
      setError(null);
      void a.loadDirectory(true);
    }
  }, [open]);

  // Users of the chosen queue first; everyone active otherwise.
  const users = a.users
    .filter((u) => u.active)
    .filter((u) => !queueId || u.queues.includes(queueId))
    .sort((x, y) => x.name.localeCompare(y.name));

  async function submit() {
    if (!queueId && !userId) {
      setError({ title: t("atendimento.transfer.required") });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const body: Record<string, number> = {};
      if (queueId) body.queueId = queueId;
      if (userId) body.userId = userId;
      const r = await root.api.put<Ticket>(`/tickets/${ticket.id}`, body, { silent: true });
      root.ui.notify({ kind: "success", title: t("atendimento.transfer.done") });
      onDone(r);
    } catch (e) {
      if (e instanceof ApiError) {
        setError({ title: e.title, detail: e.detail });
        root.notifyError(e);
      } else root.notifyError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t("atendimento.transfer.submit")}
      cancelText={t("common.cancel")}
      confirmLoading={busy}
      title={
        <span className="oa-modal-title">
          <SwapOutlined /> {t("atendimento.transfer.title")}
        </span>
      }
      destroyOnHidden
      okButtonProps={{ "data-testid": "transfer-submit" } as never}
      width={460}
    >
      <div className="oa-transfer" data-testid="transfer-modal">
        <p className="oa-muted">{t("atendimento.transfer.intro")}</p>
        <label className="oa-field">
          <span>{t("atendimento.transfer.queue")}</span>
          <Select
            allowClear
            showSearch={{ optionFilterProp: "label" }}
            placeholder={t("atendimento.transfer.queuePlaceholder")}
            value={queueId}
            onChange={(v) => {
              setQueueId(v);
              if (v && userId && !a.user(userId)?.queues.includes(v)) setUserId(undefined);
            }}
            options={a.queues.filter((q) => q.active).map((q) => ({
              value: q.id,
              label: q.name,
              title: q.name,
            }))}
            optionRender={(o) => (
              <span>
                <span className="oa-queue-dot" style={{ background: avatarColor(Number(o.value)) }} />
                {o.label}
                {o.value === ticket.queueId ? <em className="oa-muted"> · {t("atendimento.transfer.current")}</em> : null}
              </span>
            )}
            data-testid="transfer-queue"
          />
        </label>
        <label className="oa-field">
          <span>{t("atendimento.transfer.user")}</span>
          <Select
            allowClear
            showSearch={{ optionFilterProp: "label" }}
            placeholder={queueId ? t("atendimento.transfer.userOfQueue") : t("atendimento.transfer.userPlaceholder")}
            value={userId}
            onChange={setUserId}
            options={users.map((u) => ({ value: u.id, label: u.name }))}
            // Who is online now (spec §4), kept live by the socket.
            optionRender={(o) => {
              const online = a.user(Number(o.value))?.status === "online";
              return (
                <span className="oa-user-option" data-testid="transfer-user-option" data-status={online ? "online" : "offline"}>
                  <Badge status={online ? "success" : "default"} />
                  {o.label}
                  <em className="oa-muted"> · {online ? t("layout.presence.online") : t("layout.presence.offline")}</em>
                </span>
              );
            }}
            notFoundContent={t("atendimento.transfer.noUsers")}
            data-testid="transfer-user"
          />
        </label>
        <p className="oa-muted oa-small">{userId ? t("atendimento.transfer.toUserHint") : t("atendimento.transfer.toQueueHint")}</p>
        {error ? <Alert type="error" showIcon title={error.title} description={error.detail} data-testid="transfer-error" /> : null}
      </div>
    </Modal>
  );
});
