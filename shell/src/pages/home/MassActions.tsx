import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Avatar, Button, Card, Empty, Form, Modal, Popconfirm, Select, Space, Table, Tag, Typography } from "antd";
import { CheckCircleOutlined, SwapOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { avatarColor, initials } from "../../ui/person";
import { STATUS_COLORS } from "./charts";

interface TicketRow {
  id: number;
  protocol: string | null;
  status: string;
  queueId: number | null;
  userId: number | null;
  lastMessage: string | null;
  lastMessageAt: number;
  contact?: { id: number; name: string; profilePicUrl?: string | null };
}

export interface Named {
  id: number;
  name: string;
}

const PAGE = 100;

/**
 * Mass transfer and mass resolve of spec §2 /home (admins only, spec §6): the open and
 * waiting tickets, newest activity first, selectable; POST /tickets/mass-transfer and
 * /tickets/mass-resolve; the dashboard reloads after each.
 */
export function MassActions({ users, queues, onChanged, version }: { users: Named[]; queues: Named[]; onChanged: () => void; version: number }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [rows, setRows] = useState<TicketRow[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [selected, setSelected] = useState<number[]>([]);
  const [transferOpen, setTransferOpen] = useState(false);
  const [target, setTarget] = useState<{ userId?: number; queueId?: number }>({});
  const [busy, setBusy] = useState(false);
  const [targetError, setTargetError] = useState(false);

  const userName = new Map(users.map((u) => [u.id, u.name]));
  const queueName = new Map(queues.map((q) => [q.id, q.name]));

  const load = async () => {
    setLoading(true);
    try {
      const r = await root.api.get<{ tickets: TicketRow[]; hasMore: boolean }>("/tickets", { query: { status: "open,pending", showAll: true, pageSize: PAGE } });
      setRows(r.tickets);
      setHasMore(r.hasMore);
      setSelected((s) => s.filter((id) => r.tickets.some((x) => x.id === id)));
    } catch {
      /* the client showed the notice */
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    void load();
  }, [version]);

  const resolve = async () => {
    setBusy(true);
    try {
      const r = await root.api.post<{ resolved: number }>("/tickets/mass-resolve", { ticketIds: selected });
      root.ui.notify({ kind: "success", title: t("home.mass.resolved", { count: r.resolved }) });
      setSelected([]);
      onChanged();
    } catch {
      /* notice shown */
    } finally {
      setBusy(false);
    }
  };

  const transfer = async () => {
    if (!target.userId && !target.queueId) return setTargetError(true);
    setBusy(true);
    try {
      const r = await root.api.post<{ transferred: number; results: Array<{ ok: boolean }> }>("/tickets/mass-transfer", { ticketIds: selected, ...target });
      const failed = r.results.filter((x) => !x.ok).length;
      root.ui.notify({
        kind: failed ? "warning" : "success",
        title: t("home.mass.transferred", { ok: r.transferred, total: r.results.length }),
        detail: failed ? t("home.mass.someFailed", { count: failed }) : undefined,
        durationMs: failed ? 6000 : undefined,
      });
      setTransferOpen(false);
      setTarget({});
      setSelected([]);
      onChanged();
    } catch {
      /* notice shown */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      className="oa-dash-card"
      title={
        <div className="oa-card-title">
          <span>{t("home.mass.title")}</span>
          <Typography.Text type="secondary">{t("home.mass.hint")}</Typography.Text>
        </div>
      }
      extra={
        <Space wrap>
          {selected.length ? <Tag bordered={false}>{t("home.mass.selected", { count: selected.length })}</Tag> : null}
          <Button icon={<SwapOutlined />} disabled={!selected.length} onClick={() => setTransferOpen(true)} data-testid="mass-transfer">
            {t("home.mass.transfer")}
          </Button>
          <Popconfirm
            title={t("home.mass.resolveConfirm", { count: selected.length })}
            description={t("home.mass.resolveDetail")}
            okText={t("home.mass.resolve")}
            cancelText={t("common.cancel")}
            onConfirm={resolve}
            disabled={!selected.length}
          >
            <Button type="primary" icon={<CheckCircleOutlined />} disabled={!selected.length} loading={busy && !transferOpen} data-testid="mass-resolve">
              {t("home.mass.resolve")}
            </Button>
          </Popconfirm>
        </Space>
      }
      data-testid="mass-actions"
    >
      <Table<TicketRow>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={rows}
        pagination={rows.length > 10 ? { pageSize: 10, showSizeChanger: false, size: "small" } : false}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("home.mass.empty")} /> }}
        scroll={{ x: 640 }}
        footer={hasMore ? () => <Typography.Text type="secondary">{t("home.mass.more", { count: PAGE })}</Typography.Text> : undefined}
        columns={[
          {
            title: t("home.mass.contact"),
            key: "contact",
            render: (_, r) => {
              const name = r.contact?.name ?? `#${r.id}`;
              return (
                <span className="oa-person">
                  <Avatar size={30} src={r.contact?.profilePicUrl || undefined} style={{ background: avatarColor(r.contact?.id ?? name) }}>
                    {initials(name)}
                  </Avatar>
                  <span className="oa-person-text">
                    <strong>{name}</strong>
                    <span>{r.lastMessage || r.protocol || `#${r.id}`}</span>
                  </span>
                </span>
              );
            },
          },
          {
            title: t("home.mass.status"),
            dataIndex: "status",
            width: 150,
            render: (s: string) => (
              <Tag color={STATUS_COLORS[s]} bordered={false}>
                {t(`home.status.${s}`)}
              </Tag>
            ),
          },
          { title: t("home.mass.queue"), key: "queue", width: 150, render: (_, r) => (r.queueId ? (queueName.get(r.queueId) ?? `#${r.queueId}`) : <Typography.Text type="secondary">{t("home.mass.noQueue")}</Typography.Text>) },
          { title: t("home.mass.user"), key: "user", width: 160, render: (_, r) => (r.userId ? (userName.get(r.userId) ?? `#${r.userId}`) : <Typography.Text type="secondary">{t("home.mass.nobody")}</Typography.Text>) },
          {
            title: t("home.mass.lastActivity"),
            key: "at",
            width: 150,
            render: (_, r) => (r.lastMessageAt ? new Date(r.lastMessageAt).toLocaleString(root.session.locale, { day: "2-digit", month: "2-digit", hour: "2-digit", minute: "2-digit" }) : "—"),
          },
        ]}
      />
      <Modal
        open={transferOpen}
        title={t("home.mass.transferTitle", { count: selected.length })}
        okText={t("home.mass.transfer")}
        cancelText={t("common.cancel")}
        confirmLoading={busy}
        onOk={transfer}
        onCancel={() => {
          setTransferOpen(false);
          setTargetError(false);
        }}
        destroyOnHidden
      >
        <Form layout="vertical" className="oa-transfer-form">
          <Form.Item label={t("home.mass.toUser")}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: "label" }}
              value={target.userId}
              onChange={(v) => {
                setTarget((x) => ({ ...x, userId: v }));
                setTargetError(false);
              }}
              options={users.map((u) => ({ value: u.id, label: u.name }))}
              data-testid="transfer-user"
            />
          </Form.Item>
          <Form.Item label={t("home.mass.toQueue")} validateStatus={targetError ? "error" : undefined} help={targetError ? t("home.mass.chooseTarget") : undefined}>
            <Select
              allowClear
              value={target.queueId}
              onChange={(v) => {
                setTarget((x) => ({ ...x, queueId: v }));
                setTargetError(false);
              }}
              options={queues.map((q) => ({ value: q.id, label: q.name }))}
              data-testid="transfer-queue"
            />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
