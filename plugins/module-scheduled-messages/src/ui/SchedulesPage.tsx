/**
 * /mensagem-agendadas: the tenant's scheduled messages, soonest first, filtered by status,
 * contact, connection, user and a date range; create and edit in a dialog, cancel a pending
 * one after confirming. The list follows the server's `scheduled.changed` pushes (a message
 * sent by the scheduler changes status here without reloading).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Button, Card, Empty, Input, Popconfirm, Select, Space, Table, Tooltip, Typography, type ButtonProps } from "antd";
import type { ColumnsType } from "antd/es/table";
import { EditOutlined, PlusOutlined, StopOutlined } from "@ant-design/icons";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { formatDateTime, maskDateTime, parseDateEnd, parseDateTime } from "./datetime";
import { errorText, recurrenceText, StatusTag } from "./describe";
import ScheduleForm from "./ScheduleForm";
import { CHANGED_EVENT, STATUSES, type ListPage, type Named, type Options, type ScheduledMessage, type Status } from "./types";

interface Filters {
  status: Status[];
  contactId: number | null;
  connectionId: number | null;
  userId: number | null;
  from: string;
  to: string;
  page: number;
  pageSize: number;
}

const INITIAL: Filters = { status: [], contactId: null, connectionId: null, userId: null, from: "", to: "", page: 1, pageSize: 20 };

export default function SchedulesPage({ runtime }: { runtime: ShellRuntime }) {
  const t = runtime.t;
  const [f, setF] = useState<Filters>(INITIAL);
  const [data, setData] = useState<ListPage>({ rows: [], count: 0, hasMore: false });
  const [loading, setLoading] = useState(true);
  const [options, setOptions] = useState<Options>({ contacts: [], users: [] });
  const [connections, setConnections] = useState<Named[]>([]);
  const [contactSearch, setContactSearch] = useState("");
  const [form, setForm] = useState<{ editing: ScheduledMessage | null } | null>(null);
  const seq = useRef(0);
  const set = (patch: Partial<Filters>) => setF((s) => ({ ...s, page: 1, ...patch }));

  useEffect(() => {
    runtime.api
      .get<Named[]>("/connections", { silent: true })
      .then((rows) => setConnections(Array.isArray(rows) ? rows : []))
      .catch(() => undefined);
  }, [runtime]);
  useEffect(() => {
    const h = setTimeout(() => {
      runtime.api
        .get<Options>("/scheduled-messages/options", { query: { q: contactSearch || undefined }, silent: true })
        .then(setOptions)
        .catch(() => undefined);
    }, 250);
    return () => clearTimeout(h);
  }, [runtime, contactSearch]);

  const from = f.from ? parseDateTime(`${f.from} 00:00`) : null;
  const to = f.to ? parseDateEnd(f.to) : null;
  const badRange = from !== null && to !== null && to < from;

  const load = useCallback(async () => {
    if (badRange) return;
    const mine = ++seq.current;
    setLoading(true);
    try {
      const r = await runtime.api.get<ListPage>("/scheduled-messages", {
        query: {
          status: f.status.length ? f.status.join(",") : undefined,
          contactId: f.contactId ?? undefined,
          connectionId: f.connectionId ?? undefined,
          userId: f.userId ?? undefined,
          from: from !== null ? new Date(from).toISOString() : undefined,
          to: to !== null ? new Date(to + 59_999).toISOString() : undefined,
          page: f.page,
          limit: f.pageSize,
        },
      });
      if (mine === seq.current) setData(r);
    } catch (err) {
      if (mine === seq.current) runtime.notify.error(err);
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [runtime, f, from, to, badRange]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => runtime.realtime.on(CHANGED_EVENT, () => void load()), [runtime, load]);

  const cancel = async (m: ScheduledMessage) => {
    try {
      await runtime.api.post("/scheduled-messages/cancel", { id: m.id });
      runtime.notify.success(t("cancelled_ok"));
      await load();
    } catch (err) {
      runtime.notify.error(err);
    }
  };

  const connectionName = useMemo(() => new Map(connections.map((c) => [c.id, c.name])), [connections]);

  const columns: ColumnsType<ScheduledMessage> = [
    { key: "contact", title: t("colContact"), width: 180, ellipsis: true, render: (_, m) => <Typography.Text strong>{m.contactName ?? `#${m.contactId}`}</Typography.Text> },
    {
      key: "body",
      title: t("colBody"),
      width: 300,
      render: (_, m) => (
        <div style={{ minWidth: 0 }}>
          <Typography.Paragraph style={{ margin: 0 }} ellipsis={{ rows: 2, tooltip: m.body }}>
            {m.body}
          </Typography.Paragraph>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {connectionName.get(m.connectionId) ?? `#${m.connectionId}`}
          </Typography.Text>
          {m.errorMessage ? (
            <div>
              <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid={`schedule-error-${m.id}`}>
                {t("failedWith", { error: errorText(t, m.errorMessage) })}
              </Typography.Text>
            </div>
          ) : null}
        </div>
      ),
    },
    { key: "date", title: t("colDate"), width: 150, render: (_, m) => formatDateTime(m.nextDate ?? m.scheduleDate) },
    { key: "recurrence", title: t("colRecurrence"), width: 170, render: (_, m) => recurrenceText(t, m) },
    { key: "status", title: t("colStatus"), width: 110, render: (_, m) => <StatusTag runtime={runtime} m={m} /> },
    { key: "sent", title: t("colSent"), width: 80, align: "right", render: (_, m) => <span data-testid={`schedule-sent-${m.id}`}>{m.sentCount}</span> },
    { key: "last", title: t("colLastSent"), width: 150, render: (_, m) => (m.lastSentAt ? formatDateTime(m.lastSentAt) : "—") },
    { key: "user", title: t("colUser"), width: 140, ellipsis: true, render: (_, m) => m.userName ?? `#${m.userId}` },
    {
      key: "actions",
      title: t("colActions"),
      width: 100,
      render: (_, m) =>
        m.status === "pending" ? (
          <Space size={0}>
            <Tooltip title={t("edit")}>
              <Button type="text" icon={<EditOutlined />} aria-label={t("edit")} onClick={() => setForm({ editing: m })} data-testid={`schedule-edit-${m.id}`} />
            </Tooltip>
            <Popconfirm title={t("cancelConfirm")} okText={t("yes")} cancelText={t("no")} okButtonProps={{ danger: true, "data-testid": "schedule-cancel-confirm" } as ButtonProps} onConfirm={() => cancel(m)}>
              <Button type="text" danger icon={<StopOutlined />} aria-label={t("cancel")} data-testid={`schedule-cancel-${m.id}`} />
            </Popconfirm>
          </Space>
        ) : null,
    },
  ];

  const filtered = f.status.length || f.contactId || f.connectionId || f.userId || f.from || f.to;

  return (
    <div data-page="SchedulesPage" data-testid="schedules-page" style={{ padding: "24px 28px 32px", minWidth: 0, display: "flex", flexDirection: "column", gap: 16 }}>
      <div style={{ display: "flex", alignItems: "flex-start", justifyContent: "space-between", gap: 12, flexWrap: "wrap" }}>
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t("title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("subtitle")}</Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ editing: null })} data-testid="schedule-new">
          {t("new")}
        </Button>
      </div>
      <Card variant="borderless">
        <div style={{ display: "flex", flexWrap: "wrap", gap: 8, marginBottom: 12 }}>
          <Select mode="multiple" allowClear maxTagCount="responsive" style={{ minWidth: 180 }} placeholder={t("anyStatus")} aria-label={t("status")} value={f.status} onChange={(v: Status[]) => set({ status: v })} options={STATUSES.map((s) => ({ value: s, label: t(s) }))} data-testid="schedules-status" />
          <Select
            allowClear
            showSearch
            filterOption={false}
            onSearch={setContactSearch}
            style={{ minWidth: 200 }}
            placeholder={t("anyContact")}
            aria-label={t("contact")}
            value={f.contactId ?? undefined}
            onChange={(v?: number) => set({ contactId: v ?? null })}
            options={options.contacts.map((c) => ({ value: c.id, label: c.name }))}
            data-testid="schedules-contact"
          />
          <Select allowClear style={{ minWidth: 180 }} placeholder={t("anyConnection")} aria-label={t("connection")} value={f.connectionId ?? undefined} onChange={(v?: number) => set({ connectionId: v ?? null })} options={connections.map((c) => ({ value: c.id, label: c.name }))} data-testid="schedules-connection" />
          <Select allowClear showSearch optionFilterProp="label" style={{ minWidth: 180 }} placeholder={t("anyUser")} aria-label={t("user")} value={f.userId ?? undefined} onChange={(v?: number) => set({ userId: v ?? null })} options={options.users.map((u) => ({ value: u.id, label: u.name }))} data-testid="schedules-user" />
          <Tooltip open={badRange} title={t("rangeInvalid")} placement="bottom">
            <Space.Compact>
              <Input addonBefore={t("from")} placeholder={t("untilPlaceholder")} style={{ width: 190 }} value={f.from} onChange={(e) => set({ from: maskDateTime(e.target.value, false) })} status={badRange ? "error" : undefined} data-testid="schedules-from" />
              <Input addonBefore={t("to")} placeholder={t("untilPlaceholder")} style={{ width: 190 }} value={f.to} onChange={(e) => set({ to: maskDateTime(e.target.value, false) })} status={badRange ? "error" : undefined} data-testid="schedules-to" />
            </Space.Compact>
          </Tooltip>
          {filtered ? (
            <Button type="link" onClick={() => setF(INITIAL)} data-testid="schedules-clear">
              {t("clear")}
            </Button>
          ) : null}
        </div>
        <Table<ScheduledMessage>
          rowKey="id"
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={data.rows}
          // Wider than the card on a laptop: the table scrolls sideways instead of squeezing the text column to nothing.
          scroll={{ x: 1380 }}
          data-testid="schedules-table"
          onRow={(m) => ({ "data-testid": `schedule-row-${m.id}` }) as React.HTMLAttributes<HTMLElement>}
          locale={{ emptyText: <Empty description={<span data-testid="schedules-empty">{t("empty")}</span>}>{<Typography.Text type="secondary">{t("emptyHint")}</Typography.Text>}</Empty> }}
          pagination={{
            current: f.page,
            pageSize: f.pageSize,
            total: data.count,
            showSizeChanger: true,
            pageSizeOptions: [20, 50, 100],
            showTotal: (count) => <span data-testid="schedules-total">{t("total", { count })}</span>,
            onChange: (page, pageSize) => setF((s) => ({ ...s, page: pageSize !== s.pageSize ? 1 : page, pageSize })),
          }}
        />
      </Card>
      {form ? (
        <ScheduleForm
          runtime={runtime}
          editing={form.editing}
          onClose={() => setForm(null)}
          onSaved={() => {
            setForm(null);
            void load();
          }}
        />
      ) : null}
    </div>
  );
}
