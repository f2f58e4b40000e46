import { Button, Input, Select, Table, Tooltip, Typography } from "antd";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import type { AutoReplyAction, AutoReplyStep } from "../../model";
import { KEY_MAX, MESSAGE_MAX, newAction, stepLabel, updateAction, type Problems } from "./rules";
import { optionsOf, type Targets } from "./useTargets";

type T = (k: string, v?: Record<string, unknown>) => string;

interface Props {
  step: AutoReplyStep;
  steps: AutoReplyStep[];
  onChange(step: AutoReplyStep): void;
  problems: Problems;
  targets: Targets;
  t: T;
}

function Err({ problems, field, t }: { problems: Problems; field: string; t: T }) {
  const p = problems[field];
  return p ? (
    <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="field-error" data-field={field}>
      {t(p.key, p.vars)}
    </Typography.Text>
  ) : null;
}

/**
 * A step's actions: what the customer types (key) and what follows — the next step, a queue,
 * an agent, a return message. Each row is edited in place.
 */
export function ActionsTable({ step, steps, onChange, problems, targets, t }: Props) {
  const set = (a: AutoReplyAction, patch: Partial<AutoReplyAction>) => onChange(updateAction(step, a.id, patch));
  const others = steps.filter((s) => s.id !== step.id).map((s) => ({ value: s.id, label: stepLabel(steps, s.id, t) }));
  const bad = (field: string) => (problems[field] ? ("error" as const) : undefined);

  return (
    <div data-testid="step-actions">
      <Table<AutoReplyAction>
        size="small"
        tableLayout="fixed"
        pagination={false}
        rowKey="id"
        dataSource={step.actions}
        locale={{ emptyText: <span className="oa-muted">{t("noActions")}</span> }}
        onRow={(a) => ({ "data-testid": "action-row", "data-key": a.key }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t("key"),
            width: 80,
            render: (_, a) => (
              <>
                <Input value={a.key} maxLength={KEY_MAX} placeholder={t("keyPlaceholder")} status={bad(`action:${a.id}:key`)} onChange={(e) => set(a, { key: e.target.value })} data-testid="action-key" />
                <Err problems={problems} field={`action:${a.id}:key`} t={t} />
              </>
            ),
          },
          {
            title: t("nextStep"),
            width: 200,
            render: (_, a) => (
              <Select
                allowClear
                style={{ width: "100%" }}
                placeholder={t("none")}
                value={a.nextStepId ?? undefined}
                options={others}
                onChange={(v) => set(a, { nextStepId: v ?? null })}
                data-testid="action-next"
              />
            ),
          },
          {
            title: t("queue"),
            width: 150,
            render: (_, a) => <TargetSelect placeholder={t("noneQueue")} loading={targets.loading} value={a.queueId} options={optionsOf(targets.queues)} onChange={(v) => set(a, { queueId: v })} testId="action-queue" />,
          },
          {
            title: t("user"),
            width: 150,
            render: (_, a) => <TargetSelect placeholder={t("none")} loading={targets.loading} value={a.userId} options={optionsOf(targets.users)} onChange={(v) => set(a, { userId: v })} testId="action-user" />,
          },
          {
            title: t("returnMessage"),
            render: (_, a) => <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={MESSAGE_MAX} value={a.returnMessage ?? ""} onChange={(e) => set(a, { returnMessage: e.target.value })} data-testid="action-return" />,
          },
          {
            width: 48,
            render: (_, a) => (
              <Tooltip title={t("removeAction")}>
                <Button type="text" danger icon={<DeleteOutlined />} aria-label={t("removeAction")} onClick={() => onChange({ ...step, actions: step.actions.filter((x) => x.id !== a.id) })} data-testid="action-remove" />
              </Tooltip>
            ),
          },
        ]}
      />
      <Button size="small" icon={<PlusOutlined />} style={{ marginTop: 8 }} onClick={() => onChange({ ...step, actions: [...step.actions, newAction()] })} data-testid="action-add">
        {t("addAction")}
      </Button>
    </div>
  );
}

/** A searchable, clearable pick of the tenant's queues or users for an action (none: null). */
function TargetSelect(p: { placeholder: string; loading: boolean; value: number | null; options: ReturnType<typeof optionsOf>; onChange(v: number | null): void; testId: string }) {
  return (
    <Select
      allowClear
      showSearch={{ optionFilterProp: "label" }}
      style={{ width: "100%" }}
      placeholder={p.placeholder}
      loading={p.loading}
      value={p.value ?? undefined}
      options={p.options}
      onChange={(v) => p.onChange(v ?? null)}
      data-testid={p.testId}
    />
  );
}
