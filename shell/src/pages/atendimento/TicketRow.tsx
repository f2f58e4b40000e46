import { memo } from "react";
import { Tooltip } from "antd";
import {
  CommentOutlined,
  InstagramOutlined,
  MailOutlined,
  MessageOutlined,
  MobileOutlined,
  PushpinFilled,
  SendOutlined,
  TeamOutlined,
  WhatsAppOutlined,
  GlobalOutlined,
  FileImageOutlined,
  AudioOutlined,
  VideoCameraOutlined,
  PaperClipOutlined,
} from "@ant-design/icons";
import type { Ticket } from "../../stores/tickets";
import { avatarColor, initials } from "../../ui/person";

/** The icon of a connection's channel type (plugin ids such as channel-webchat, or the spec's names). */
export function ChannelIcon({ type }: { type?: string }) {
  const t = (type ?? "").toLowerCase();
  if (t.includes("whats") || t.includes("waba") || t.includes("wuzapi") || t.includes("360")) return <WhatsAppOutlined />;
  if (t.includes("telegram")) return <SendOutlined />;
  if (t.includes("instagram")) return <InstagramOutlined />;
  if (t.includes("mail")) return <MailOutlined />;
  if (t.includes("sms")) return <MobileOutlined />;
  if (t.includes("webchat")) return <GlobalOutlined />;
  if (t.includes("hub")) return <CommentOutlined />;
  return <MessageOutlined />;
}

export function ContactAvatar({ id, name, size = 44, group }: { id: number; name?: string; size?: number; group?: boolean }) {
  return (
    <span className="oa-avatar" style={{ width: size, height: size, background: avatarColor(id), fontSize: Math.round(size * 0.38) }} aria-hidden>
      {group ? <TeamOutlined /> : initials(name)}
    </span>
  );
}

export interface RowLabels {
  time: string;
  queueName?: string;
  channelType?: string;
  channelName?: string;
  /** "Aguardando", "Você", the holder's name… */
  state: string;
  stateKind: "pending" | "mine" | "other" | "closed" | "group";
  preview: string;
  mediaType?: string | null;
  pinnedLabel: string;
  unreadLabel: string;
}

/** One row of the chat list (fixed height: the list is virtual). */
export const TicketRow = memo(function TicketRow({ t, active, labels, onOpen }: { t: Ticket; active: boolean; labels: RowLabels; onOpen: (id: number) => void }) {
  const unread = t.unreadMessages > 0;
  const name = t.contact?.name ?? `#${t.contactId}`;
  return (
    <div
      className={`oa-ticket-row${active ? " is-active" : ""}${unread ? " is-unread" : ""}`}
      data-testid="ticket-row"
      data-ticket-id={t.id}
      data-status={t.status}
      role="button"
      tabIndex={0}
      aria-current={active ? "true" : undefined}
      onClick={() => onOpen(t.id)}
      onKeyDown={(e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          onOpen(t.id);
        }
      }}
    >
      <div className="oa-ticket-avatar">
        <ContactAvatar id={t.contactId} name={name} group={t.isGroup} />
        {labels.channelType ? (
          <Tooltip title={labels.channelName}>
            <span className="oa-ticket-channel">
              <ChannelIcon type={labels.channelType} />
            </span>
          </Tooltip>
        ) : null}
      </div>
      <div className="oa-ticket-main">
        <div className="oa-ticket-line">
          <span className="oa-ticket-name" title={name}>
            {name}
          </span>
          <span className={`oa-ticket-time${unread ? " is-unread" : ""}`}>{labels.time}</span>
        </div>
        <div className="oa-ticket-line">
          <span className="oa-ticket-preview">
            {labels.mediaType ? <MediaGlyph type={labels.mediaType} /> : null}
            {labels.preview}
          </span>
          {unread ? (
            <span className="oa-unread-badge" aria-label={labels.unreadLabel}>
              {t.unreadMessages > 99 ? "99+" : t.unreadMessages}
            </span>
          ) : null}
        </div>
        <div className="oa-ticket-line oa-ticket-meta">
          <span className="oa-ticket-tags">
            {labels.queueName ? (
              <span className="oa-queue-chip" style={{ ["--chip" as string]: avatarColor(t.queueId ?? 0) }}>
                <i />
                {labels.queueName}
              </span>
            ) : null}
            <span className={`oa-state-chip is-${labels.stateKind}`}>{labels.state}</span>
          </span>
          {t.pinned ? (
            <Tooltip title={labels.pinnedLabel}>
              <PushpinFilled className="oa-pin" aria-label={labels.pinnedLabel} />
            </Tooltip>
          ) : null}
        </div>
      </div>
    </div>
  );
});

function MediaGlyph({ type }: { type: string }) {
  const icon = type === "image" ? <FileImageOutlined /> : type === "audio" ? <AudioOutlined /> : type === "video" ? <VideoCameraOutlined /> : <PaperClipOutlined />;
  return <span className="oa-ticket-glyph">{icon}</span>;
}
