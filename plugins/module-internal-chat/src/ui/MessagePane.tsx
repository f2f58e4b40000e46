import { useEffect, useLayoutEffect, useRef } from "react";
import { Alert, Avatar, Button, Spin, Typography } from "antd";
import { useRuntime } from "./runtime";
import { useFileUrl } from "./media";
import { Composer } from "./Composer";
import type { ChatMessage, Target } from "./types";

function Media({ m }: { m: ChatMessage }) {
  const runtime = useRuntime();
  const src = useFileUrl(m.mediaUrl, m.mimeType);
  if (m.kind === "image")
    return src ? (
      <a href={src} target="_blank" rel="noreferrer noopener">
        <img data-testid="ic-image" src={src} alt={m.fileName ?? runtime.t("image")} style={{ maxWidth: 260, maxHeight: 260, borderRadius: 6, display: "block" }} referrerPolicy="no-referrer" />
      </a>
    ) : (
      <Typography.Text type="secondary">{runtime.t("image")}</Typography.Text>
    );
  return src ? <audio data-testid="ic-audio" controls src={src} style={{ maxWidth: 260 }} /> : <Typography.Text type="secondary">{runtime.t("audio")}</Typography.Text>;
}

const time = (iso: string, locale: string) => new Date(iso).toLocaleString(locale, { hour: "2-digit", minute: "2-digit", day: "2-digit", month: "2-digit" });

function Bubble({ m, mine, author, showAuthor }: { m: ChatMessage; mine: boolean; author: string; showAuthor: boolean }) {
  const runtime = useRuntime();
  return (
    <div data-testid="ic-message" data-seq={m.seq} data-mine={mine ? "1" : "0"} style={{ display: "flex", justifyContent: mine ? "flex-end" : "flex-start", margin: "4px 0" }}>
      <div style={{ maxWidth: "70%", background: mine ? "rgba(19,168,168,0.15)" : "rgba(128,128,128,0.12)", borderRadius: 8, padding: "6px 10px" }}>
        {showAuthor && (
          <Typography.Text strong style={{ fontSize: 12, display: "block" }}>
            {author}
          </Typography.Text>
        )}
        {m.kind !== "text" && <Media m={m} />}
        {m.body && (
          <div data-testid="ic-message-body" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
            {m.body}
          </div>
        )}
        <Typography.Text type="secondary" style={{ fontSize: 11, display: "block", textAlign: "right" }}>
          {time(m.createdAt, runtime.locale)}
        </Typography.Text>
      </div>
    </div>
  );
}

interface Props {
  target: Target;
  title: string;
  subtitle: string;
  inactive: boolean;
  messages: ChatMessage[];
  hasMore: boolean;
  loading: boolean;
  names: Map<number, string>;
  onOlder(): Promise<void>;
  onSent(m: ChatMessage): void;
}

/** The open conversation: its header, its messages (older pages on demand, kept in place), and the composer. */
export function MessagePane({ target, title, subtitle, inactive, messages, hasMore, loading, names, onOlder, onSent }: Props) {
  const runtime = useRuntime();
  const t = runtime.t;
  const box = useRef<HTMLDivElement>(null);
  const lastSeq = messages.length ? messages[messages.length - 1].seq : 0;
  const keep = useRef<number | null>(null);

  // A new last message scrolls to the bottom; an older page keeps what was on screen where it was.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (keep.current !== null) {
      el.scrollTop = el.scrollHeight - keep.current;
      keep.current = null;
    } else el.scrollTop = el.scrollHeight;
  }, [lastSeq, messages.length]);
  useEffect(() => {
    keep.current = null;
  }, [target]);

  const older = async () => {
    if (box.current) keep.current = box.current.scrollHeight - box.current.scrollTop;
    await onOlder().catch((err) => runtime.notify.error(err));
  };

  return (
    <>
      <div style={{ padding: "10px 16px", borderBottom: "1px solid rgba(128,128,128,0.25)", display: "flex", alignItems: "center", gap: 10 }}>
        <Avatar style={{ background: "#13a8a8" }}>{title.slice(0, 1).toUpperCase()}</Avatar>
        <div>
          <div data-testid="ic-pane-title" style={{ fontWeight: 600 }}>
            {title}
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {subtitle}
          </Typography.Text>
        </div>
      </div>
      <div ref={box} data-testid="ic-messages" style={{ flex: 1, overflowY: "auto", padding: "8px 16px" }}>
        {hasMore && (
          <div style={{ textAlign: "center", margin: 8 }}>
            <Button size="small" onClick={() => void older()} data-testid="ic-older">
              {t("older")}
            </Button>
          </div>
        )}
        {loading && <Spin style={{ display: "block", margin: 16 }} />}
        {!loading && !messages.length && <Typography.Text type="secondary">{t("empty")}</Typography.Text>}
        {messages.map((m, i) => (
          <Bubble key={m.seq} m={m} mine={m.userId === runtime.user.id} author={names.get(m.userId) ?? `#${m.userId}`} showAuthor={"groupId" in target && m.userId !== runtime.user.id && messages[i - 1]?.userId !== m.userId} />
        ))}
      </div>
      {inactive ? <Alert type="warning" showIcon message={t("inactive")} style={{ margin: 8 }} /> : <Composer target={target} onSent={onSent} />}
    </>
  );
}
