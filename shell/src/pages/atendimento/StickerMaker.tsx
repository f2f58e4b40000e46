import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Modal, Spin, Upload } from "antd";
import { PictureOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { readBase64 } from "./media";
import "./composer-extras.css";

/**
 * A sticker from a picture: the core makes it (POST /stickers/preview: 512x512 WebP,
 * transparent padding) and shows it on a checkerboard, then sends it to the ticket (POST
 * /messages/:id/sticker). A channel without stickers answers the catalogue's error.
 */
export function StickerMaker({ ticketId, open, onClose }: { ticketId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const root = useRoot();
  const [source, setSource] = useState<{ fileName: string; mimeType: string; data: string } | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function pick(file: File) {
    setBusy(true);
    setMade(null);
    try {
      const media = { fileName: file.name, mimeType: file.type || "image/png", data: await readBase64(file) };
      setSource(media);
      const r = await root.api.post<{ mimeType: string; data: string }>("/stickers/preview", { media });
      setMade(`data:${r.mimeType};base64,${r.data}`);
    } catch {
      setSource(null);
    } finally {
      setBusy(false);
    }
  }

  async function send() {
    if (!source) return;
    setBusy(true);
    try {
      await root.api.post(`/messages/${ticketId}/sticker`, { media: source });
      close();
    } catch {
      /* shown by the client (ERR_CHANNEL_UNSUPPORTED on channels without stickers) */
    } finally {
      setBusy(false);
    }
  }

  function close() {
    setSource(null);
    setMade(null);
    onClose();
  }

  return (
    <Modal
      open={open}
      title={t("atendimento.extras.stickerTitle")}
      onCancel={close}
      okText={t("atendimento.extras.stickerSend")}
      onOk={() => void send()}
      okButtonProps={{ disabled: !made, loading: busy && !!made, "data-testid": "sticker-send" } as never}
      cancelText={t("common.cancel")}
      destroyOnHidden
    >
      <div data-testid="sticker-maker" style={{ display: "flex", flexDirection: "column", gap: 12, alignItems: "center" }}>
        <Upload
          accept="image/*"
          showUploadList={false}
          beforeUpload={(file) => {
            void pick(file);
            return false;
          }}
        >
          <Button icon={<PictureOutlined />} data-testid="sticker-pick">
            {t("atendimento.extras.stickerPick")}
          </Button>
        </Upload>
        <div className="oa-sticker-stage">{busy && !made ? <Spin tip={t("atendimento.extras.stickerMaking")} /> : made ? <img src={made} alt={t("atendimento.extras.stickerLabel")} data-testid="sticker-preview" /> : null}</div>
        <span className="oa-muted oa-small">{t("atendimento.extras.stickerHint")}</span>
      </div>
    </Modal>
  );
}
