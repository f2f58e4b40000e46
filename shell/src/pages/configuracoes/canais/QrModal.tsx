import { useTranslation } from "react-i18next";
import { Modal, QRCode, Typography } from "antd";
import type { ConnectionView } from "./types";

/** The QR code that links a session (an image the plugin drew, or the text to encode), live while it changes. */
export function QrModal({ connection, onClose }: { connection: ConnectionView; onClose: () => void }) {
  const { t } = useTranslation();
  const title = t("configuracoes.channels.qrTitle", { name: connection.name });
  return (
    <Modal open title={title} footer={null} onCancel={onClose} width={380} destroyOnHidden>
      <div style={{ display: "grid", placeItems: "center", gap: 12, padding: "8px 0" }}>
        {connection.qrcode ? (
          connection.qrcode.startsWith("data:image") ? (
            <img src={connection.qrcode} alt={title} width={264} height={264} />
          ) : (
            <QRCode value={connection.qrcode} size={264} />
          )
        ) : (
          <QRCode value="-" status="loading" size={264} />
        )}
        <Typography.Text type="secondary" style={{ textAlign: "center" }}>
          {t("configuracoes.channels.qrHint")}
        </Typography.Text>
      </div>
    </Modal>
  );
}
