import { useEffect, useState } from "react";
import { Empty, Modal, Spin, Typography } from "antd";
import { useRuntime } from "./runtime";
import { dateTime } from "./format";

interface Message {
  id: number;
  fromMe: boolean;
  body: string | null;
  mediaType: string | null;
  createdAt: string;
}

/** The chat view of a ticket of the report: its messages, read through the plugin's route (the core's messages). */
export function ChatModal({ ticketId, title, onClose }: { ticketId: number; title: string; onClose(): void }) {
  const runtime = useRuntime();
  const t = runtime.t;
  const [messages, setMessages] = useState<Message[] | null>(null);
  useEffect(() => {
    let live = true;
    runtime.api
      .get<{ rows: Message[] }>("/relatorios/tickets/messages", { query: { ticketId } })
      .then((r) => live && setMessages([...r.rows].sort((a, b) => a.createdAt.localeCompare(b.createdAt))))
      .catch((err) => {
        runtime.notify.error(err);
        if (live) setMessages([]);
      });
    return () => {
      live = false;
    };
  }, [runtime, ticketId]);
  return (
    <Modal open title={title} onCancel={onClose} footer={null} width={640} data-testid="chat-modal">
      {messages === null ? (
        <Spin />
      ) : messages.length === 0 ? (
        <Empty description={t("noMessages")} />
      ) : (
        <div style={{ maxHeight: 480, overflowY: "auto", display: "flex", flexDirection: "column", gap: 8 }}>
          {messages.map((m) => (
            <div key={m.id} style={{ alignSelf: m.fromMe ? "flex-end" : "flex-start", maxWidth: "80%", background: m.fromMe ? "#dcf8c6" : "#f0f2f5", borderRadius: 8, padding: "6px 10px" }}>
              <Typography.Text type="secondary" style={{ fontSize: 11 }}>
                {m.fromMe ? t("me") : t("customer")} · {dateTime(m.createdAt)}
              </Typography.Text>
              <div style={{ whiteSpace: "pre-wrap" }}>{m.body ?? (m.mediaType ? `[${m.mediaType}]` : "")}</div>
            </div>
          ))}
        </div>
      )}
    </Modal>
  );
}
