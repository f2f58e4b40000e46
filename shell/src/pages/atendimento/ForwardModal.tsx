import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert, Modal } from "antd";
import { ShareAltOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { FORWARD_MAX } from "../../ui/constants";
import type { Attendance } from "./attendance";
import { ContactPicker, type ContactLite } from "./ContactPicker";

/** Forwards up to 10 selected messages to a contact (POST /forward-messages). */
export function ForwardModal({ a, open, messageIds, onClose, onDone }: { a: Attendance; open: boolean; messageIds: number[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const root = useRoot();
  const [contact, setContact] = useState<ContactLite | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) setContact(null);
  }, [open]);

  const tooMany = messageIds.length > FORWARD_MAX;

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={
        <span className="oa-modal-title">
          <ShareAltOutlined /> {t("atendimento.forward.title", { count: messageIds.length })}
        </span>
      }
      okText={t("atendimento.forward.submit")}
      cancelText={t("common.cancel")}
      okButtonProps={{ disabled: !contact || tooMany || !messageIds.length }}
      confirmLoading={busy}
      destroyOnHidden
      onOk={async () => {
        if (!contact) return;
        setBusy(true);
        try {
          await a.messages.forward(messageIds, contact.id);
          root.ui.notify({ kind: "success", title: t("atendimento.forward.done", { count: messageIds.length, name: contact.name }) });
          onDone();
        } catch {
          /* shown by the client */
        } finally {
          setBusy(false);
        }
      }}
    >
      {tooMany ? <Alert type="warning" showIcon title={t("atendimento.forward.tooMany", { max: FORWARD_MAX })} style={{ marginBottom: 12 }} /> : null}
      <p className="oa-muted">{t("atendimento.forward.pick")}</p>
      <ContactPicker selected={contact?.id} onPick={setContact} autoFocus />
    </Modal>
  );
}
