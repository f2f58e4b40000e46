import { useCallback, useEffect, useRef, useState } from "react";
import { Button, Card, type ButtonProps, Empty, Popconfirm, Skeleton, Space, Switch, Table, Tag, Tooltip, Typography } from "antd";
import { CopyOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import type { Flow } from "../../model";
import { useRuntime } from "../runtime";
import { deleteFlow, duplicateFlow, getFlow, listFlows, updateFlow } from "./api";
import { FlowEditor } from "./FlowEditor";
import { draftFromFlow, emptyDraft, type Draft } from "./rules";
import { useTargets } from "./useTargets";

type Editing = { flowId?: number; title: string; draft: Draft } | null;

/**
 * /auto-resposta (admins): the tenant's auto-reply flows, entry and closure, with their steps
 * edited in a drawer; switched on and off from the list, duplicated, deleted (refused while a
 * ticket runs one: the catalogue's notice says so).
 */
export default function AutoRespostaPage() {
  const runtime = useRuntime();
  const t = runtime.t;
  const targets = useTargets(runtime);
  const [flows, setFlows] = useState<Flow[] | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const seq = useRef(0);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    try {
      const list = await listFlows(runtime.api, ["entry", "closure"], { silent: true });
      if (mine === seq.current) setFlows(list);
    } catch (err) {
      if (mine === seq.current) {
        setFlows((f) => f ?? []);
        runtime.notify.error(err);
      }
    }
  }, [runtime]);
  useEffect(() => void load(), [load]);

  /** Runs a row's call with the row marked busy, then reloads (whatever the answer). */
  const onRow = async (id: number, call: () => Promise<unknown>) => {
    setBusy(id);
    try {
      await call();
    } catch {
      // the shell's notice showed it
    } finally {
      setBusy(null);
      await load();
    }
  };

  const openEdit = async (f: Flow) => {
    setBusy(f.id);
    try {
      const full = await getFlow(runtime.api, f.id);
      setEditing({ flowId: f.id, title: t("editTitle", { name: full.name }), draft: draftFromFlow(full) });
    } catch (err) {
      runtime.notify.error(err);
      await load();
    } finally {
      setBusy(null);
    }
  };

  // A free plan's second active flow is refused (ERR_FREE_PLAN_CHATFLOW_LIMIT, the shell's notice); the reload puts the switch back.
  const toggle = (f: Flow, active: boolean) => onRow(f.id, () => updateFlow(runtime.api, f.id, { active }, { successNotice: true }));

  const stepsOf = (f: Flow) => f.steps?.length ?? 0;

  return (
    <div className="oa-page" data-testid="auto-reply-page">
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} align="start">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t("title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("subtitle")}</Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ title: t("newTitle"), draft: emptyDraft() })} data-testid="auto-reply-new">
          {t("new")}
        </Button>
      </Space>
      <Card>
        {flows === null ? (
          <Skeleton active paragraph={{ rows: 4 }} data-testid="auto-reply-loading" />
        ) : !flows.length ? (
          <Empty description={t("empty")} data-testid="auto-reply-empty">
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ title: t("newTitle"), draft: emptyDraft() })}>
              {t("new")}
            </Button>
          </Empty>
        ) : (
          <Table<Flow>
            rowKey="id"
            dataSource={flows}
            pagination={false}
            onRow={(f) => ({ "data-testid": "auto-reply-row", "data-name": f.name, "data-id": f.id }) as React.HTMLAttributes<HTMLElement>}
            columns={[
              {
                title: t("colName"),
                render: (_, f) => (
                  <div>
                    <strong data-testid="auto-reply-row-name">{f.name}</strong>
                    {f.description ? <div className="oa-muted" style={{ fontSize: 12 }}>{f.description}</div> : null}
                  </div>
                ),
              },
              { title: t("colKind"), width: 140, render: (_, f) => <Tag color={f.kind === "entry" ? "blue" : "purple"} data-testid="auto-reply-row-kind">{t(`kind_${f.kind}`)}</Tag> },
              { title: t("colSteps"), width: 90, align: "center", render: (_, f) => stepsOf(f) },
              { title: t("colTestPhone"), width: 160, render: (_, f) => f.testPhone ?? <span className="oa-muted">—</span> },
              {
                title: t("colActive"),
                width: 90,
                render: (_, f) => <Switch checked={f.active} loading={busy === f.id} onChange={(v) => void toggle(f, v)} data-testid="auto-reply-row-active" />,
              },
              {
                title: t("colActions"),
                width: 150,
                render: (_, f) => (
                  <Space size={2}>
                    <Tooltip title={t("edit")}>
                      <Button type="text" icon={<EditOutlined />} aria-label={t("edit")} onClick={() => void openEdit(f)} data-testid="auto-reply-edit" />
                    </Tooltip>
                    <Tooltip title={t("duplicate")}>
                      <Button type="text" icon={<CopyOutlined />} aria-label={t("duplicate")} onClick={() => void onRow(f.id, () => duplicateFlow(runtime.api, f.id))} data-testid="auto-reply-duplicate" />
                    </Tooltip>
                    <Popconfirm
                      title={t("deleteConfirm", { name: f.name })}
                      description={t("deleteHint")}
                      okText={t("delete")}
                      okButtonProps={{ danger: true, "data-testid": "auto-reply-delete-ok" } as ButtonProps}
                      cancelText={t("cancel")}
                      onConfirm={() => onRow(f.id, () => deleteFlow(runtime.api, f.id))}
                    >
                      {/* No tooltip: it would cover the confirmation's buttons. */}
                      <Button type="text" danger icon={<DeleteOutlined />} aria-label={t("delete")} title={t("delete")} data-testid="auto-reply-delete" />
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Card>
      {editing ? (
        <FlowEditor
          key={editing.flowId ?? "new"}
          runtime={runtime}
          flowId={editing.flowId}
          title={editing.title}
          initial={editing.draft}
          targets={targets}
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
