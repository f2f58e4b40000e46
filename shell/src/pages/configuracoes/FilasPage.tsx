import { useState } from "react";
import { useFormSections } from "../../plugins/form-sections";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Alert, Form, Input, Modal, Space, Switch, Tag } from "antd";
import { PartitionOutlined, SearchOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { SettingsList } from "../../ui/SettingsList";
import { EditDeleteActions } from "../../ui/EditDeleteActions";
import { applyFieldErrors } from "../../ui/api-errors";
import { formatDateTime } from "../../ui/format";
import { useNamedRows } from "../../ui/named-rows";

export interface QueueView {
  id: number;
  name: string;
  active: boolean;
  createdAt?: string;
  updatedAt?: string;
}

/** Settings › Filas: the tenant's queues (name, active); the free plan allows one active queue. */
export default observer(function FilasPage() {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const { rows, loading, filter, setFilter, shown, busy, toggle, saved, removed } = useNamedRows<QueueView>(root.api, "/queues");
  const [editing, setEditing] = useState<QueueView | null | undefined>(undefined);

  const remove = async (q: QueueView) => {
    try {
      await root.api.delete(`/queues/${q.id}`, { successNotice: true });
      removed(q.id);
    } catch {
      /* shown by the client (queue with tickets…) */
    }
  };

  const free = root.session.tier === "FREE";
  const activeCount = rows.filter((r) => r.active).length;

  return (
    <SettingsList<QueueView>
      testId="queues-page"
      title={t("configuracoes.queues.title")}
      description={t("configuracoes.queues.description")}
      newLabel={t("configuracoes.queues.new")}
      newTestId="queue-new"
      onNew={() => setEditing(null)}
      notice={
        free ? (
          <Alert
            style={{ marginBottom: 16 }}
            type="info"
            showIcon
            title={
              <span>
                <strong>{t("configuracoes.queues.freePlan")}</strong> — {t("configuracoes.queues.freePlanDetail", { count: activeCount })}
              </span>
            }
          />
        ) : null
      }
      toolbar={<Input allowClear prefix={<SearchOutlined />} placeholder={t("configuracoes.queues.search")} style={{ maxWidth: 320 }} value={filter} onChange={(e) => setFilter(e.target.value)} />}
      icon={<PartitionOutlined />}
      emptyText={t("configuracoes.queues.empty")}
      noMatchText={t("configuracoes.noMatch")}
      filtered={!!filter}
      rows={shown}
      loading={loading}
      columns={[
        {
          title: t("configuracoes.queues.name"),
          dataIndex: "name",
          render: (_: unknown, q) => (
            <span className="oa-cell-main">
              <PartitionOutlined style={{ opacity: 0.55 }} />
              <strong>{q.name}</strong>
            </span>
          ),
        },
        {
          title: t("configuracoes.queues.status"),
          dataIndex: "active",
          width: 160,
          render: (_: unknown, q) => (
            <Space>
              <Switch size="small" checked={q.active} loading={busy === q.id} onChange={(v) => void toggle(q, v)} aria-label={t("configuracoes.queues.active")} data-testid={`queue-active-${q.id}`} />
              <Tag color={q.active ? "green" : "default"} variant="filled">
                {q.active ? t("configuracoes.active") : t("configuracoes.inactive")}
              </Tag>
            </Space>
          ),
        },
        {
          title: t("configuracoes.updatedAt"),
          dataIndex: "updatedAt",
          width: 180,
          responsive: ["md"],
          render: (v: string) => <span className="oa-nowrap">{formatDateTime(v, i18n.language)}</span>,
        },
        {
          title: t("common.actions"),
          key: "actions",
          width: 110,
          align: "right",
          fixed: "right",
          render: (_: unknown, q) => (
            <EditDeleteActions
              t={t}
              onEdit={() => setEditing(q)}
              onDelete={() => remove(q)}
              deleteTitle={t("configuracoes.queues.deleteTitle")}
              deleteDetail={t("configuracoes.queues.deleteDetail", { name: q.name })}
            />
          ),
        },
      ]}
    >
      {editing !== undefined ? (
        <QueueModal
          queue={editing}
          onClose={() => setEditing(undefined)}
          onSaved={(q) => {
            saved(q);
            setEditing(undefined);
          }}
        />
      ) : null}
    </SettingsList>
  );
});

function QueueModal({ queue, onClose, onSaved }: { queue: QueueView | null; onClose: () => void; onSaved: (q: QueueView) => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; active: boolean }>();
  const [saving, setSaving] = useState(false);
  const sections = useFormSections("queueForm", queue?.id);
  const submit = async () => {
    // Invalid fields show their messages; nothing is sent.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    try {
      const body = { name: v.name.trim(), active: v.active };
      const saved = queue
        ? await root.api.put<QueueView>(`/queues/${queue.id}`, body, { silent: true, successNotice: true })
        : await root.api.post<QueueView>("/queues", body, { silent: true, successNotice: true });
      // The plugins' sections (a chatbot's settings of the queue), saved by each plugin once the queue exists.
      await sections.saveAll(saved.id);
      onSaved(saved);
    } catch (e) {
      if (!applyFieldErrors(form, e, t, ["name", "active"])) root.notifyError(e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={queue ? t("configuracoes.queues.edit") : t("configuracoes.queues.new")}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      data-testid="queue-modal"
    >
      <Form form={form} layout="vertical" initialValues={{ name: queue?.name ?? "", active: queue?.active ?? true }} onFinish={submit}>
        <Form.Item name="name" label={t("configuracoes.queues.name")} rules={[{ required: true, whitespace: true, message: t("common.required") }, { max: 100, message: t("configuracoes.rules.stringMax", { expected: 100 }) }]}>
          <Input autoFocus maxLength={100} placeholder={t("configuracoes.queues.namePlaceholder")} data-testid="queue-name" />
        </Form.Item>
        <Form.Item name="active" label={t("configuracoes.queues.active")} valuePropName="checked" extra={t("configuracoes.queues.activeHint")}>
          <Switch />
        </Form.Item>
        <button type="submit" hidden />
      </Form>
      {sections.parts}
    </Modal>
  );
}
