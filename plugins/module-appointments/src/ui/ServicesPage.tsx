/**
 * /configuracoes/servicos (PREMIUM, admins): the service catalogue — name, description,
 * duration in minutes, price (not negative) and the users who provide it — in a table, created
 * and edited in a dialog, deleted after confirming. The server checks every rule again.
 */
import { useCallback, useEffect, useState } from "react";
import { Button, Card, Empty, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Table, Typography, type ButtonProps } from "antd";
import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import type { Named, Options, Service } from "./types";

interface Draft {
  id?: number;
  name: string;
  description: string;
  duration: number | null;
  price: number | null;
  users: number[];
}
const EMPTY: Draft = { name: "", description: "", duration: 30, price: 0, users: [] };

export default function ServicesPage({ runtime }: { runtime: ShellRuntime }) {
  const t = runtime.t;
  const [rows, setRows] = useState<Service[]>([]);
  const [users, setUsers] = useState<Named[]>([]);
  const [loading, setLoading] = useState(true);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  const load = useCallback(async () => {
    try {
      setRows(await runtime.api.get<Service[]>("/appointments/services"));
    } catch (err) {
      runtime.notify.error(err);
    } finally {
      setLoading(false);
    }
  }, [runtime]);
  useEffect(() => {
    void load();
    runtime.api
      .get<Options>("/appointments/options", { silent: true })
      .then((o) => setUsers(o.users))
      .catch(() => undefined);
  }, [runtime, load]);

  const name = (id: number) => users.find((u) => u.id === id)?.name ?? `#${id}`;
  const money = (v: number) => new Intl.NumberFormat(runtime.locale, { style: "currency", currency: "BRL" }).format(v);

  const save = async () => {
    if (!draft) return;
    setTouched(true);
    if (!draft.name.trim() || !draft.duration || draft.price === null || draft.price < 0 || !draft.users.length) return;
    setSaving(true);
    const body = { name: draft.name, description: draft.description, duration: draft.duration, price: draft.price, users: draft.users };
    try {
      if (draft.id) await runtime.api.patch("/appointments/services", { id: draft.id, ...body });
      else await runtime.api.post("/appointments/services", body);
      runtime.notify.success();
      setDraft(null);
      void load();
    } catch (err) {
      runtime.notify.error(err);
    } finally {
      setSaving(false);
    }
  };

  const remove = async (s: Service) => {
    try {
      await runtime.api.post("/appointments/services/delete", { id: s.id });
      runtime.notify.success();
      void load();
    } catch (err) {
      runtime.notify.error(err);
    }
  };

  const bad = (cond: boolean, text = t("required")) => (touched && cond ? { validateStatus: "error" as const, help: text } : {});

  return (
    <div data-testid="services-page">
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 12 }}>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t("servicesTitle")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("servicesSubtitle")}</Typography.Text>
        </div>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => {
            setTouched(false);
            setDraft({ ...EMPTY });
          }}
          data-testid="service-new"
        >
          {t("serviceNew")}
        </Button>
      </Space>
      <Card size="small">
        <Table<Service>
          rowKey="id"
          loading={loading}
          dataSource={rows}
          pagination={false}
          locale={{ emptyText: <Empty description={t("servicesEmpty")} data-testid="services-empty" /> }}
          data-testid="services-table"
          columns={[
            { title: t("name"), dataIndex: "name" },
            { title: t("description"), dataIndex: "description" },
            { title: t("duration"), dataIndex: "duration", width: 150 },
            { title: t("price"), dataIndex: "price", render: (v: number) => money(v), width: 120 },
            { title: t("users"), dataIndex: "users", render: (ids: number[]) => ids.map(name).join(", ") },
            {
              title: t("actions"),
              width: 120,
              render: (_: unknown, s: Service) => (
                <Space>
                  <Button
                    size="small"
                    icon={<EditOutlined />}
                    onClick={() => {
                      setTouched(false);
                      setDraft({ id: s.id, name: s.name, description: s.description, duration: s.duration, price: s.price, users: s.users });
                    }}
                    data-testid={`service-edit-${s.id}`}
                  />
                  <Popconfirm title={t("serviceDeleteConfirm")} okText={t("yes")} cancelText={t("no")} onConfirm={() => void remove(s)} okButtonProps={{ "data-testid": "service-delete-confirm" } as ButtonProps}>
                    <Button size="small" danger icon={<DeleteOutlined />} data-testid={`service-delete-${s.id}`} />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      {draft ? (
        <Modal
          open
          title={draft.id ? t("serviceEdit") : t("serviceNew")}
          okText={t("save")}
          cancelText={t("close")}
          onOk={() => void save()}
          onCancel={() => setDraft(null)}
          confirmLoading={saving}
          destroyOnHidden
          okButtonProps={{ "data-testid": "service-save" } as ButtonProps}
        >
          <Form layout="vertical" component="div" data-testid="service-form">
            <Form.Item label={t("name")} required {...bad(!draft.name.trim())}>
              <Input maxLength={120} value={draft.name} onChange={(e) => set({ name: e.target.value })} data-testid="service-name" />
            </Form.Item>
            <Form.Item label={t("description")}>
              <Input.TextArea rows={2} maxLength={2000} value={draft.description} onChange={(e) => set({ description: e.target.value })} data-testid="service-description" />
            </Form.Item>
            <Space align="start">
              <Form.Item label={t("duration")} required {...bad(!draft.duration)}>
                <InputNumber min={1} max={1440} precision={0} value={draft.duration} onChange={(v) => set({ duration: v })} data-testid="service-duration" />
              </Form.Item>
              <Form.Item label={t("price")} required {...bad(draft.price === null || draft.price < 0, draft.price !== null && draft.price < 0 ? t("priceNegative") : t("required"))}>
                <InputNumber step={0.01} precision={2} value={draft.price} onChange={(v) => set({ price: v })} data-testid="service-price" />
              </Form.Item>
            </Space>
            <Form.Item label={t("users")} required {...bad(!draft.users.length)}>
              <Select mode="multiple" optionFilterProp="label" value={draft.users} onChange={(v: number[]) => set({ users: v })} options={users.map((u) => ({ value: u.id, label: u.name }))} data-testid="service-users" />
            </Form.Item>
          </Form>
        </Modal>
      ) : null}
    </div>
  );
}
