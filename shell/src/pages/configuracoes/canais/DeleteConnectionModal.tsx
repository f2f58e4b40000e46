import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert, Input, Modal, Typography } from "antd";
import { confirmsDeletion } from "@openatende/contracts/connections";
import { useRoot } from "../../../app/context";
import type { ConnectionView } from "./types";

/** Deleting a connection: typed confirmation (its name, or the word of the user's language the API also accepts). */
export function DeleteConnectionModal({ connection, onClose, onDeleted }: { connection: ConnectionView; onClose: () => void; onDeleted: () => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const v = typed.trim();
  const ok = confirmsDeletion(v, connection.name);
  const submit = async () => {
    if (!ok) return;
    setBusy(true);
    try {
      await root.api.delete(`/connections/${connection.id}`, { query: { confirmation: v }, successNotice: true });
      onDeleted();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t("configuracoes.channels.deleteTitle", { name: connection.name })}
      okText={t("common.delete")}
      okButtonProps={{ danger: true, disabled: !ok }}
      cancelText={t("common.cancel")}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t("configuracoes.channels.deleteDetail")} />
      <Typography.Paragraph>
        {t("configuracoes.channels.deleteType", { word: t("configuracoes.channels.deleteWord") })} <Typography.Text code>{connection.name}</Typography.Text>
      </Typography.Paragraph>
      <Input
        autoFocus
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        onPressEnter={submit}
        placeholder={t("configuracoes.channels.deleteWord")}
        data-testid="channel-delete-confirm"
        status={v && !ok ? "error" : undefined}
      />
    </Modal>
  );
}
