import { memo } from "react";
import { useTranslation } from "react-i18next";
import { Button, Checkbox, Dropdown, Popover, Tooltip } from "antd";
import type { MenuProps } from "antd";
import {
  CheckOutlined,
  ClockCircleOutlined,
  CopyOutlined,
  DeleteOutlined,
  EditOutlined,
  EnterOutlined,
  ExclamationCircleFilled,
  MoreOutlined,
  RedoOutlined,
  ShareAltOutlined,
  SmileOutlined,
  StopOutlined,
  CloseOutlined,
} from "@ant-design/icons";
import type { Message } from "../../stores/messages";
import { MediaView } from "./MediaView";
import { clockTime, linkify } from "./format";

export const REACTIONS = ["👍", "❤️", "😂", "😮", "😢", "🙏"];

export function StatusTicks({ m, label }: { m: Message; label: (k: string) => string }) {
  // A deleted message shows as deleted, whatever became of it on its way.
  if (!m.fromMe || m.isDeleted) return null;
  if (m.local?.state === "sending" || m.status === "pending") return <ClockCircleOutlined className="oa-tick is-pending" aria-label={label("pending")} />;
  if (m.local?.state === "failed" || m.status === "failed") return <ExclamationCircleFilled className="oa-tick is-failed" aria-label={label("failed")} />;
  if (m.status === "sent") return <CheckOutlined className="oa-tick is-sent" aria-label={label("sent")} />;
  // Played (a voice note or video) shows as read does, marked so that it can be told apart.
  const cls = m.status === "played" ? "is-read is-played" : m.status === "read" ? "is-read" : "is-delivered";
  return (
    <span className={`oa-tick oa-ticks ${cls}`} aria-label={label(m.status)} data-status={m.status}>
      <CheckOutlined />
      <CheckOutlined />
    </span>
  );
}

/** An agent's signature as the core writes it (core/src/messages/signature.ts): "*Name:*" on the first line. */
const SIGNATURE = /^\*([^*\n]{1,120}):\*\n/;

export function Body({ text }: { text: string }) {
  const signed = SIGNATURE.exec(text);
  const rest = signed ? text.slice(signed[0].length) : text;
  return (
    <>
      {signed ? (
        <strong className="oa-bubble-signature" data-testid="message-signature">
          {signed[1]}:{"\n"}
        </strong>
      ) : null}
      {linkify(rest).map((p, i) =>
        p.href ? (
          <a key={i} href={p.href} target="_blank" rel="noopener noreferrer">
            {p.text}
          </a>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}

export interface BubbleProps {
  m: Message;
  quoted?: Message | null;
  quotedAuthor?: string;
  author?: string;
  locale: string;
  canEdit: boolean;
  canDelete: boolean;
  selecting: boolean;
  selected: boolean;
  highlight: boolean;
  readOnly: boolean;
  /** The failure's reason in words (the API keeps an error code). */
  failText?: string | null;
  onReply: (m: Message) => void;
  onEdit: (m: Message) => void;
  onDelete: (m: Message) => void;
  onReact: (m: Message, emoji: string) => void;
  onToggleSelect: (m: Message) => void;
  onForward: (m: Message) => void;
  onRetry: (group: string) => void;
  onDiscard: (group: string) => void;
  onJump: (id: number) => void;
}

/** One message: bubble in or out, media, reply-quote, reactions, edited/deleted/forwarded marks, time and ticks. */
export const MessageBubble = memo(function MessageBubble(p: BubbleProps) {
  const { t } = useTranslation();
  const { m } = p;
  const out = m.fromMe;
  const failed = (m.local?.state === "failed" || m.status === "failed") && !m.isDeleted;
  const local = !!m.local;
  const reactions = groupReactions(m.reactions);

  const menu: MenuProps["items"] = [
    { key: "reply", icon: <EnterOutlined />, label: t("atendimento.message.reply"), onClick: () => p.onReply(m), disabled: local || p.readOnly },
    ...(m.body ? [{ key: "copy", icon: <CopyOutlined />, label: t("atendimento.message.copy"), onClick: () => void navigator.clipboard?.writeText(m.body ?? "") }] : []),
    { key: "forward", icon: <ShareAltOutlined />, label: t("atendimento.message.forward"), onClick: () => p.onForward(m), disabled: local || m.isDeleted },
    ...(p.canEdit ? [{ key: "edit", icon: <EditOutlined />, label: t("atendimento.message.edit"), onClick: () => p.onEdit(m) }] : []),
    ...(out && !local && !m.isDeleted
      ? [
          {
            key: "delete",
            icon: <DeleteOutlined />,
            danger: true,
            disabled: !p.canDelete,
            label: p.canDelete ? t("atendimento.message.delete") : <Tooltip title={t("atendimento.message.deleteTooOld")}>{t("atendimento.message.delete")}</Tooltip>,
            onClick: () => p.canDelete && p.onDelete(m),
          },
        ]
      : []),
  ];

  return (
    <div
      className={`oa-msg-row ${out ? "is-out" : "is-in"}${p.selected ? " is-selected" : ""}${p.highlight ? " is-highlight" : ""}${p.selecting ? " is-selecting" : ""}`}
      data-testid="message"
      data-message-id={m.id}
      data-from-me={out ? "1" : "0"}
      onClick={p.selecting && !local && !m.isDeleted ? () => p.onToggleSelect(m) : undefined}
    >
      {p.selecting ? <Checkbox className="oa-msg-check" checked={p.selected} disabled={local || m.isDeleted} aria-label={t("atendimento.forward.select")} /> : null}
      <div className={`oa-bubble${failed ? " is-failed" : ""}${m.isDeleted ? " is-deleted" : ""}${m.media && !m.body ? " is-media" : ""}`}>
        {p.author ? <div className="oa-bubble-author">{p.author}</div> : null}
        {m.isForwarded ? (
          <div className="oa-bubble-forwarded">
            <ShareAltOutlined /> {t("atendimento.message.forwarded")}
          </div>
        ) : null}
        {m.quotedMsgId ? (
          <button type="button" className="oa-quote" onClick={() => p.quoted && p.onJump(p.quoted.id)} data-testid="message-quote">
            <strong>{p.quoted ? p.quotedAuthor : t("atendimento.message.quoted")}</strong>
            <span>{p.quoted ? quoteText(p.quoted, t) : t("atendimento.message.quotedNotLoaded")}</span>
          </button>
        ) : null}
        {m.isDeleted ? (
          <div className="oa-bubble-text oa-deleted">
            <StopOutlined /> {t("atendimento.message.deleted")}
          </div>
        ) : (
          <>
            {m.media ? (
              m.mediaType === "sticker" ? (
                <div className="oa-media-sticker" data-testid="media-sticker">
                  <MediaView type="image" media={m.media} />
                </div>
              ) : (
                <MediaView type={m.mediaType} media={m.media} />
              )
            ) : null}
            {m.body ? (
              <div className="oa-bubble-text" data-testid="message-body">
                <Body text={m.body} />
              </div>
            ) : null}
          </>
        )}
        <div className="oa-bubble-foot">
          {m.isEdited && !m.isDeleted ? <span className="oa-edited">{t("atendimento.message.edited")}</span> : null}
          <span className="oa-time">{clockTime(m.timestamp, p.locale)}</span>
          <StatusTicks m={m} label={(k) => t(`atendimento.message.status.${k}`)} />
        </div>
        {failed ? (
          <div className="oa-bubble-failed" data-testid="message-failed">
            <span>
              <strong>{t("atendimento.message.failed")}</strong>
              {m.local?.error || p.failText ? ` · ${m.local?.error || p.failText}` : ""}
            </span>
            {m.local ? (
              <span className="oa-bubble-failed-actions">
                <Button size="small" type="link" icon={<RedoOutlined />} onClick={() => p.onRetry(m.local!.group)}>
                  {t("atendimento.message.retry")}
                </Button>
                <Button size="small" type="link" danger icon={<CloseOutlined />} onClick={() => p.onDiscard(m.local!.group)}>
                  {t("atendimento.message.discard")}
                </Button>
              </span>
            ) : null}
          </div>
        ) : null}
        {reactions.length ? (
          <div className="oa-reactions" data-testid="message-reactions">
            {reactions.map((r) => (
              <span key={r.emoji} className="oa-reaction">
                {r.emoji}
                {r.count > 1 ? <small>{r.count}</small> : null}
              </span>
            ))}
          </div>
        ) : null}
      </div>
      {!p.selecting && !local && !m.isDeleted ? (
        <div className="oa-msg-tools">
          {!p.readOnly ? (
            <Popover
              trigger="click"
              placement={out ? "left" : "right"}
              content={
                <div className="oa-emoji-picker">
                  {REACTIONS.map((e) => (
                    <button type="button" key={e} onClick={() => p.onReact(m, e)} aria-label={e}>
                      {e}
                    </button>
                  ))}
                </div>
              }
            >
              <Button size="small" type="text" shape="circle" icon={<SmileOutlined />} aria-label={t("atendimento.message.react")} data-testid="message-react" />
            </Popover>
          ) : null}
          {!p.readOnly ? <Button size="small" type="text" shape="circle" icon={<EnterOutlined />} aria-label={t("atendimento.message.reply")} onClick={() => p.onReply(m)} data-testid="message-reply" /> : null}
          <Dropdown menu={{ items: menu }} trigger={["click"]} placement={out ? "bottomRight" : "bottomLeft"}>
            <Button size="small" type="text" shape="circle" icon={<MoreOutlined />} aria-label={t("common.actions")} data-testid="message-menu" />
          </Dropdown>
        </div>
      ) : null}
    </div>
  );
});

export function quoteText(m: Message, t: (k: string) => string): string {
  if (m.isDeleted) return t("atendimento.message.deleted");
  if (m.body) return m.body.length > 140 ? `${m.body.slice(0, 140)}…` : m.body;
  if (m.media) return `${m.mediaType === "sticker" ? t("atendimento.extras.stickerLabel") : t(`atendimento.media.${m.mediaType ?? "document"}`)} · ${m.media.fileName}`;
  return "";
}

function groupReactions(list: Message["reactions"]): Array<{ emoji: string; count: number }> {
  const map = new Map<string, number>();
  for (const r of list ?? []) map.set(r.emoji, (map.get(r.emoji) ?? 0) + 1);
  return [...map.entries()].map(([emoji, count]) => ({ emoji, count }));
}
