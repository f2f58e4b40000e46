import { useCallback, useEffect, useMemo, useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Form, Input, Modal, Segmented, Select, Tag, Typography } from "antd";
import { GlobalOutlined, MessageOutlined, PartitionOutlined, SearchOutlined, UserOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { SettingsList } from "../../ui/SettingsList";
import { EditDeleteActions } from "../../ui/EditDeleteActions";
import { applyFieldErrors } from "../../ui/api-errors";
import type { QueueView } from "./FilasPage";

type Scope = "global" | "queue" | "personal";

export interface QuickMessageView {
  id: number;
  key: string;
  shortcut: string;
  message: string;
  scope: Scope;
  global: boolean;
  queueIds: number[];
  userId: number | null;
}

const SCOPE_ICON = { global: <GlobalOutlined />, queue: <PartitionOutlined />, personal: <UserOutlined /> } as const;
const SCOPE_COLOR = { global: "green", queue: "blue", personal: "default" } as const;
/** The API's key rule: no spaces, not starting with "/", up to 100 characters (a leading "/" typed is dropped). */
const KEY_RE = /^\/?[^\s/][^\s]{0,99}$/u;

/**
 * Settings › Mensagens rápidas: "/key" shortcuts. Admins manage the global and queue-scoped
 * ones and their own personal ones (spec §6); a key is unique within its scope.
 */
export default observer(function MensagensRapidasPage() {
  const root = useRoot();
  const { t } = useTranslation();
  const [rows, setRows] = useState<QuickMessageView[]>([]);
  const [queues, setQueues] = useState<QueueView[]>([]);
  const [loading, setLoading] = useState(true);
  const [filter, setFilter] = useState("");
  const [scope, setScope] = useState<"all" | Scope>("all");
  const [editing, setEditing] = useState<QuickMessageView | null | undefined>(undefined);
  const admin = root.can("admin");

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setRows(await root.api.get<QuickMessageView[]>("/quick-messages", { query: { all: admin ? true : undefined } }));
    } catch {
      /* shown by the client */
    } finally {
      setLoading(false);
    }
  }, [root, admin]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    root.api.get<QueueView[]>("/queues").then(setQueues, () => undefined);
  }, [root]);

  const queueName = useMemo(() => new Map(queues.map((q) => [q.id, q.name])), [queues]);
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase().replace(/^\//, "");
    return rows.filter((r) => (scope === "all" || r.scope === scope) && (!q || r.key.includes(q) || r.message.toLowerCase().includes(q)));
  }, [rows, filter, scope]);

  const remove = async (m: QuickMessageView) => {
    try {
      await root.api.delete(`/quick-messages/${m.id}`, { successNotice: true });
      setRows((rs) => rs.filter((r) => r.id !== m.id));
    } catch {
      /* shown by the client */
    }
  };

  const canEdit = (m: QuickMessageView) => admin || (m.scope === "personal" && m.userId === root.session.userId);

  return (
    <SettingsList<QuickMessageView>
      testId="quick-messages-page"
      title={t("configuracoes.quick.title")}
      description={t("configuracoes.quick.description")}
      newLabel={t("configuracoes.quick.new")}
      newTestId="quick-new"
      onNew={() => setEditing(null)}
      toolbar={
        <>
          <Input allowClear prefix={<SearchOutlined />} placeholder={t("configuracoes.quick.search")} style={{ maxWidth: 320 }} value={filter} onChange={(e) => setFilter(e.target.value)} />
          <Segmented
            value={scope}
            onChange={(v) => setScope(v as typeof scope)}
            options={[
              { value: "all", label: t("configuracoes.quick.scopeAll") },
              { value: "global", label: t("configuracoes.quick.scopes.global"), icon: SCOPE_ICON.global },
              { value: "queue", label: t("configuracoes.quick.scopes.queue"), icon: SCOPE_ICON.queue },
              { value: "personal", label: t("configuracoes.quick.scopes.personal"), icon: SCOPE_ICON.personal },
            ]}
          />
        </>
      }
      icon={<MessageOutlined />}
      emptyText={t("configuracoes.quick.empty")}
      noMatchText={t("configuracoes.noMatch")}
      filtered={!!filter || scope !== "all"}
      rows={shown}
      loading={loading}
      scrollX={700}
      columns={[
        {
          title: t("configuracoes.quick.key"),
          dataIndex: "shortcut",
          width: 200,
          render: (s: string) => (
            <Typography.Text code className="oa-code">
              {s}
            </Typography.Text>
          ),
        },
        {
          title: t("configuracoes.quick.message"),
          dataIndex: "message",
          render: (m: string) => <div className="oa-clamp-2">{m}</div>,
        },
        {
          title: t("configuracoes.quick.scope"),
          dataIndex: "scope",
          width: 220,
          render: (_: unknown, m) => (
            <span className="oa-tags">
              <Tag color={SCOPE_COLOR[m.scope]} icon={SCOPE_ICON[m.scope]}>
                {t(`configuracoes.quick.scopes.${m.scope}`)}
              </Tag>
              {m.scope === "queue" ? m.queueIds.map((id) => <Tag key={id}>{queueName.get(id) ?? `#${id}`}</Tag>) : null}
            </span>
          ),
        },
        {
          title: t("common.actions"),
          key: "actions",
          width: 110,
          align: "right",
          fixed: "right",
          render: (_: unknown, m) =>
            canEdit(m) ? (
              <EditDeleteActions
                t={t}
                onEdit={() => setEditing(m)}
                onDelete={() => remove(m)}
                deleteTitle={t("configuracoes.quick.deleteTitle")}
                deleteDetail={t("configuracoes.quick.deleteDetail", { key: m.shortcut })}
              />
            ) : null,
        },
      ]}
    >
      {editing !== undefined ? (
        <QuickMessageModal
          message={editing}
          queues={queues}
          admin={admin}
          onClose={() => setEditing(undefined)}
          onSaved={(m) => {
            setRows((rs) => (rs.some((r) => r.id === m.id) ? rs.map((r) => (r.id === m.id ? m : r)) : [...rs, m]).sort((a, b) => a.key.localeCompare(b.key)));
            setEditing(undefined);
          }}
        />
      ) : null}
    </SettingsList>
  );
});

interface QuickForm {
  key: string;
  message: string;
  scope: Scope;
  queueIds: number[];
}

function QuickMessageModal({
  message,
  queues,
  admin,
  onClose,
  onSaved,
}: {
  message: QuickMessageView | null;
  queues: QueueView[];
  admin: boolean;
  onClose: () => void;
  onSaved: (m: QuickMessageView) => void;
}) {
  const root = useRoot();
  const { t } = useTranslation();
  const [form] = Form.useForm<QuickForm>();
  const [saving, setSaving] = useState(false);
  const scope = Form.useWatch("scope", form) ?? message?.scope ?? (admin ? "global" : "personal");
  const submit = async () => {
    // Invalid fields show their messages; nothing is sent.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    try {
      const body = { key: v.key.trim().replace(/^\/+/, ""), message: v.message, scope: v.scope, ...(v.scope === "queue" ? { queueIds: v.queueIds } : {}) };
      const saved = message
        ? await root.api.put<QuickMessageView>(`/quick-messages/${message.id}`, body, { silent: true, successNotice: true })
        : await root.api.post<QuickMessageView>("/quick-messages", body, { silent: true, successNotice: true });
      onSaved(saved);
    } catch (e) {
      if (!applyFieldErrors(form, e, t, ["key", "message", "scope", "queueIds"])) root.notifyError(e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      width={620}
      title={message ? t("configuracoes.quick.edit") : t("configuracoes.quick.new")}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
       
        initialValues={{ key: message?.key ?? "", message: message?.message ?? "", scope: message?.scope ?? (admin ? "global" : "personal"), queueIds: message?.queueIds ?? [] }}
      >
        <Form.Item name="scope" label={t("configuracoes.quick.scope")} extra={t(`configuracoes.quick.scopeHints.${scope}`)}>
          <Segmented
            block
            data-testid="quick-scope"
            options={(["global", "queue", "personal"] as const).map((s) => ({ value: s, label: t(`configuracoes.quick.scopes.${s}`), icon: SCOPE_ICON[s], disabled: s !== "personal" && !admin }))}
          />
        </Form.Item>
        {scope === "queue" ? (
          <Form.Item name="queueIds" label={t("configuracoes.quick.queues")} rules={[{ required: true, type: "array", min: 1, message: t("configuracoes.quick.queuesRequired") }]}>
            <Select mode="multiple" optionFilterProp="label" data-testid="quick-queues" placeholder={t("configuracoes.users.queuesPlaceholder")} options={queues.map((q) => ({ value: q.id, label: q.name }))} />
          </Form.Item>
        ) : null}
        <Form.Item
          name="key"
          label={t("configuracoes.quick.key")}
          extra={t("configuracoes.quick.keyHint")}
          rules={[
            { required: true, whitespace: true, message: t("common.required") },
            { pattern: KEY_RE, message: t("configuracoes.quick.keyRule") },
          ]}
        >
          <Input prefix={<span className="oa-code">/</span>} maxLength={101} placeholder={t("configuracoes.quick.keyPlaceholder")} data-testid="quick-key" autoFocus />
        </Form.Item>
        <Form.Item name="message" label={t("configuracoes.quick.message")} rules={[{ required: true, whitespace: true, message: t("common.required") }]}>
          <Input.TextArea rows={6} maxLength={10000} showCount placeholder={t("configuracoes.quick.messagePlaceholder")} data-testid="quick-message" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
