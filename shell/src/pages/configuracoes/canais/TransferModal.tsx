import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Modal, Select, Typography } from "antd";
import { useRoot } from "../../../app/context";
import type { ConnectionView } from "./types";

/** Moves every conversation of one connection to another (POST /connections/transfer). */
export function TransferModal({ connections, onClose }: { connections: ConnectionView[]; onClose: () => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [from, setFrom] = useState<number | undefined>();
  const [to, setTo] = useState<number | undefined>();
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const same = from !== undefined && from === to;
  const submit = async () => {
    setTouched(true);
    if (!from || !to || same) return;
    setBusy(true);
    try {
      const r = await root.api.post<{ moved: number }>("/connections/transfer", { fromConnectionId: from, toConnectionId: to });
      root.ui.notify({ kind: "success", title: t("configuracoes.channels.transferDone", { count: r.moved }) });
      onClose();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  const options = connections.map((c) => ({ value: c.id, label: c.name }));
  return (
    <Modal open title={t("configuracoes.channels.transferTitle")} okText={t("configuracoes.channels.transferOk")} cancelText={t("common.cancel")} onOk={submit} onCancel={onClose} confirmLoading={busy} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t("configuracoes.channels.transferHint")}</Typography.Paragraph>
      <Form layout="vertical" component="div">
        <Form.Item label={t("configuracoes.channels.transferFrom")} required validateStatus={touched && !from ? "error" : undefined} help={touched && !from ? t("common.required") : undefined}>
          <Select value={from} onChange={setFrom} options={options} placeholder={t("configuracoes.channels.pick")} data-testid="transfer-from" />
        </Form.Item>
        <Form.Item
          label={t("configuracoes.channels.transferTo")}
          required
          validateStatus={(touched && !to) || same ? "error" : undefined}
          help={same ? t("configuracoes.channels.transferSame") : touched && !to ? t("common.required") : undefined}
        >
          <Select value={to} onChange={setTo} options={options} placeholder={t("configuracoes.channels.pick")} data-testid="transfer-to" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
