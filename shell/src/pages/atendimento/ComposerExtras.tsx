import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Popover, Switch, Tooltip } from "antd";
import { FileImageOutlined, GifOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import type { Ticket } from "../../stores/tickets";
import { GifPicker } from "./GifPicker";
import { StickerMaker } from "./StickerMaker";
import "./composer-extras.css";

/** The composer's GIF and sticker buttons (spec §2). */
export function ComposerExtraButtons({ ticket, disabled }: { ticket: Ticket; disabled: boolean }) {
  const { t } = useTranslation();
  const root = useRoot();
  const [gifOpen, setGifOpen] = useState(false);
  const [sending, setSending] = useState(false);
  const [stickerOpen, setStickerOpen] = useState(false);
  return (
    <span className="oa-extras">
      <Popover
        trigger="click"
        placement="topLeft"
        open={gifOpen}
        onOpenChange={setGifOpen}
        destroyOnHidden
        content={
          <GifPicker
            busy={sending}
            onPick={async (g) => {
              setSending(true);
              try {
                await root.api.post(`/messages/${ticket.id}/gif`, { gifId: g.id });
                setGifOpen(false);
              } catch {
                /* shown by the client */
              } finally {
                setSending(false);
              }
            }}
          />
        }
      >
        <Button type="text" shape="circle" icon={<GifOutlined />} disabled={disabled} aria-label={t("atendimento.extras.gif")} data-testid="composer-gif" />
      </Popover>
      <Tooltip title={t("atendimento.extras.sticker")}>
        <Button type="text" shape="circle" icon={<FileImageOutlined />} disabled={disabled} onClick={() => setStickerOpen(true)} aria-label={t("atendimento.extras.sticker")} data-testid="composer-sticker" />
      </Tooltip>
      <StickerMaker ticketId={ticket.id} open={stickerOpen} onClose={() => setStickerOpen(false)} />
    </span>
  );
}

/**
 * The agent's signature switch (spec §6), saved in their configs; hidden when the tenant's
 * admins force it on or off (GET /signature tells the mode). The core signs: this only says
 * whether the agent wants it.
 */
export function SignatureToggle() {
  const { t } = useTranslation();
  const root = useRoot();
  const [state, setState] = useState<{ mode: "user" | "on" | "off"; enabled: boolean } | null>(null);
  useEffect(() => {
    root.api
      .get<{ mode: "user" | "on" | "off"; enabled: boolean }>("/signature", { silent: true })
      .then(setState)
      .catch(() => undefined);
  }, []);
  if (!state || state.mode !== "user") return null;
  return (
    <label className="oa-signature" title={t("atendimento.extras.signatureHint")}>
      <Switch
        size="small"
        checked={state.enabled}
        onChange={(on) => {
          setState({ ...state, enabled: on });
          void root.saveConfigs({ signature: on });
        }}
        data-testid="signature-toggle"
      />
      {t("atendimento.extras.signature")}
    </label>
  );
}
