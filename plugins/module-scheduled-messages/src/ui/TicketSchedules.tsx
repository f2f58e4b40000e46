/**
 * The ticket's scheduled messages (spec §7), a section of the attendance screen's contact
 * panel: the pending messages scheduled from this ticket, soonest first, each cancelled after
 * confirming, and a button to schedule one more. A message leaves the list once sent: the
 * server pushes `scheduled.changed` with the ticket's id and the list is read again.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { Button, Empty, Popconfirm, Spin, Typography, type ButtonProps } from "antd";
import { ClockCircleOutlined, StopOutlined } from "@ant-design/icons";
import type { ContactPanelSectionProps } from "@openatende/plugin-sdk/ui";
import { formatDateTime } from "./datetime";
import { recurrenceText } from "./describe";
import ScheduleForm from "./ScheduleForm";
import { CHANGED_EVENT, type ListPage, type ScheduledMessage } from "./types";

export default function TicketSchedules({ runtime, ticket }: ContactPanelSectionProps) {
  const t = runtime.t;
  const [rows, setRows] = useState<ScheduledMessage[]>([]);
  const [loading, setLoading] = useState(true);
  const [scheduling, setScheduling] = useState(false);
  const seq = useRef(0);
  const ticketId = ticket?.id;

  const load = useCallback(async () => {
    if (!ticketId) return;
    const mine = ++seq.current;
    try {
      const r = await runtime.api.get<ListPage>("/scheduled-messages", { query: { ticketId, status: "pending", limit: 100 }, silent: true });
      if (mine === seq.current) setRows(r.rows);
    } catch (err) {
      if (mine === seq.current) runtime.notify.error(err);
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [runtime, ticketId]);

  useEffect(() => {
    setRows([]);
    setLoading(true);
    void load();
  }, [load]);
  useEffect(
    () =>
      runtime.realtime.on(CHANGED_EVENT, (payload) => {
        if ((payload as { ticketId?: number | null } | null)?.ticketId === ticketId) void load();
      }),
    [runtime, load, ticketId],
  );

  const cancel = async (m: ScheduledMessage) => {
    try {
      await runtime.api.post("/scheduled-messages/cancel", { id: m.id });
      runtime.notify.success(t("cancelled_ok"));
      await load();
    } catch (err) {
      runtime.notify.error(err);
    }
  };

  if (!ticket) return null;
  return (
    <div data-testid="ticket-schedules" style={{ display: "flex", flexDirection: "column", gap: 8 }}>
      {loading ? (
        <div style={{ display: "flex", justifyContent: "center", padding: 8 }}>
          <Spin size="small" />
        </div>
      ) : !rows.length ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span data-testid="ticket-schedules-empty">{t("panelEmpty")}</span>} style={{ margin: "4px 0" }} />
      ) : (
        rows.map((m) => (
          <div key={m.id} data-testid={`ticket-schedule-${m.id}`} style={{ borderLeft: "3px solid #0891b2", padding: "2px 0 2px 8px", display: "flex", gap: 6, alignItems: "flex-start", minWidth: 0 }}>
            <div style={{ flex: 1, minWidth: 0 }}>
              <Typography.Paragraph style={{ margin: 0, whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} ellipsis={{ rows: 3, expandable: true, symbol: "…" }}>
                {m.body}
              </Typography.Paragraph>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                <ClockCircleOutlined /> {formatDateTime(m.nextDate ?? m.scheduleDate)} · {recurrenceText(t, m)}
              </Typography.Text>
            </div>
            <Popconfirm title={t("cancelConfirm")} okText={t("yes")} cancelText={t("no")} okButtonProps={{ danger: true, "data-testid": "ticket-schedule-cancel-confirm" } as ButtonProps} onConfirm={() => cancel(m)}>
              <Button size="small" type="text" danger icon={<StopOutlined />} aria-label={t("cancel")} data-testid={`ticket-schedule-cancel-${m.id}`} />
            </Popconfirm>
          </div>
        ))
      )}
      {ticket.status !== "closed" ? (
        <Button size="small" icon={<ClockCircleOutlined />} onClick={() => setScheduling(true)} data-testid="ticket-schedule-new" style={{ alignSelf: "flex-start" }}>
          {t("panelSchedule")}
        </Button>
      ) : null}
      {scheduling ? (
        <ScheduleForm
          runtime={runtime}
          ticket={ticket}
          onClose={() => setScheduling(false)}
          onSaved={() => {
            setScheduling(false);
            void load();
          }}
        />
      ) : null}
    </div>
  );
}
