import { memo } from "react";
import { Tooltip } from "antd";
import {
  PushpinFilled,
  TeamOutlined,
  FileImageOutlined,
  AudioOutlined,
  VideoCameraOutlined,
  PaperClipOutlined,
} from "@ant-design/icons";
import type { Ticket } from "../../stores/tickets";
import { ChannelIcon, type PluginLooks } from "../../ui/ChannelIcon";
import { avatarColor, initials } from "../../ui/person";
import type { SlaLevel } from "./sla";
import "./sla.css";

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
  /** The ticket's connection: its name, and its channel's looks from the plugin's manifest. */
  channel?: PluginLooks;
  channelName?: string;
  /** "Aguardando", "Você", the holder's name… */
  state: string;
  stateKind: "pending" | "mine" | "other" | "closed" | "group";
  preview: string;
  mediaType?: string | null;
  pinnedLabel: string;
  unreadLabel: string;
  /** The SLA chip (sla.ts): the ticket's age, coloured by the tenant's thresholds; none without a clock. */
  sla?: { level: SlaLevel; text: string; title: string };
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
        {labels.channel ? (
          <Tooltip title={labels.channelName}>
            <span className="oa-ticket-channel">
              <ChannelIcon looks={labels.channel} />
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
          {labels.sla ? (
            <Tooltip title={labels.sla.title}>
              <span className={`oa-sla-chip is-${labels.sla.level}`} data-testid="sla-chip" data-level={labels.sla.level} aria-label={labels.sla.title}>
                {labels.sla.text}
              </span>
            </Tooltip>
          ) : null}
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
