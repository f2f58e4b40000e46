import { useCallback, useEffect, useState } from "react";
import { Button, Popconfirm, Space, Switch, Table, Typography } from "antd";
import { QuestionnaireForm } from "./QuestionnaireForm";
import { useRuntime } from "./runtime";
import type { Questionnaire } from "./types";

export interface QueueOption {
  id: number;
  name: string;
  color: string;
}

/**
 * /configuracoes/closure-questionnaires (spec §2, admins): the tenant's questionnaires with
 * their name, description, active switch and number of questions; new, edit and delete.
 */
export default function SettingsPage() {
  const runtime = useRuntime();
  const t = runtime.t;
  const [rows, setRows] = useState<Questionnaire[]>([]);
  const [queues, setQueues] = useState<QueueOption[]>([]);
  const [loading, setLoading] = useState(true);
  const [editing, setEditing] = useState<Questionnaire | "new" | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await runtime.api.get<{ questionnaires: Questionnaire[]; queues: QueueOption[] }>("/closure-questionnaires");
      setRows(r.questionnaires);
      setQueues(r.queues);
    } catch (err) {
      runtime.notify.error(err);
    } finally {
      setLoading(false);
    }
  }, [runtime]);
  useEffect(() => void load(), [load]);

  const setActive = async (q: Questionnaire, active: boolean) => {
    try {
      await runtime.api.put("/closure-questionnaires", { id: q.id, active });
      await load();
    } catch (err) {
      runtime.notify.error(err);
    }
  };
  const remove = async (q: Questionnaire) => {
    try {
      await runtime.api.delete("/closure-questionnaires", { query: { id: q.id }, successNotice: true });
      await load();
    } catch (err) {
      runtime.notify.error(err);
    }
  };

  const columns = [
    { title: t("list.name"), dataIndex: "name", key: "name" },
    { title: t("list.description"), dataIndex: "description", key: "description" },
    { title: t("list.questions"), key: "questions", align: "right" as const, render: (q: Questionnaire) => q.questions.length },
    { title: t("list.active"), key: "active", render: (q: Questionnaire) => <Switch checked={q.active} onChange={(v) => void setActive(q, v)} data-testid={`cq-active-${q.id}`} /> },
    {
      title: t("list.actions"),
      key: "actions",
      render: (q: Questionnaire) => (
        <Space>
          <Button size="small" onClick={() => setEditing(q)} data-testid={`cq-edit-${q.id}`}>
            {t("list.edit")}
          </Button>
          <Popconfirm title={t("list.confirmRemove")} okText={t("list.yes")} cancelText={t("list.no")} onConfirm={() => remove(q)}>
            <Button size="small" danger data-testid={`cq-remove-${q.id}`}>
              {t("list.remove")}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="cq-settings" style={{ padding: 16 }}>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 12 }} wrap>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t("settings")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("list.subtitle")}</Typography.Text>
        </div>
        <Button type="primary" onClick={() => setEditing("new")} data-testid="cq-new">
          {t("list.add")}
        </Button>
      </Space>
      <Table rowKey="id" dataSource={rows} columns={columns} loading={loading} pagination={false} locale={{ emptyText: t("list.empty") }} />
      {editing ? (
        <QuestionnaireForm
          runtime={runtime}
          queues={queues}
          value={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      ) : null}
    </div>
  );
}
