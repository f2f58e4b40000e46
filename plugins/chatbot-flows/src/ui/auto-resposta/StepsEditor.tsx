import { Alert, Button, Card, Empty, Input, Popconfirm, Radio, Space, Typography } from "antd";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import type { AutoReplyStep } from "../../model";
import { ActionsTable } from "./ActionsTable";
import { addStep, MESSAGE_MAX, removeStep, setInitial, updateStep, type Problems } from "./rules";
import type { Targets } from "./useTargets";

type T = (k: string, v?: Record<string, unknown>) => string;

interface Props {
  steps: AutoReplyStep[];
  onChange(steps: AutoReplyStep[]): void;
  problems: Problems;
  targets: Targets;
  t: T;
}

/**
 * The flow's steps, each a card with its message and actions. The initial step is a radio
 * across the cards: marking one unmarks the other, so a flow never has two (spec §5).
 */
export function StepsEditor({ steps, onChange, problems, targets, t }: Props) {
  return (
    <div data-testid="auto-reply-steps">
      <Typography.Paragraph type="secondary">{t("initialHint")}</Typography.Paragraph>
      {problems.steps ? <Alert type="error" showIcon title={t(problems.steps.key)} style={{ marginBottom: 12 }} data-testid="steps-error" /> : null}
      {!steps.length ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("noSteps")} data-testid="steps-empty" /> : null}
      <Space orientation="vertical" size={12} style={{ width: "100%" }}>
        {steps.map((s, i) => {
          const msgField = `step:${s.id}:message`;
          return (
            <Card
              key={s.id}
              size="small"
              data-testid="auto-reply-step"
              data-index={i}
              data-initial={s.initial ? "true" : "false"}
              title={
                <Space>
                  <span>{t("step", { n: i + 1 })}</span>
                  <Radio checked={s.initial} onChange={() => onChange(setInitial(steps, s.id))} data-testid="step-initial">
                    {t("initialStep")}
                  </Radio>
                </Space>
              }
              extra={
                <Popconfirm title={t("removeStep")} okText={t("delete")} cancelText={t("cancel")} onConfirm={() => onChange(removeStep(steps, s.id))}>
                  <Button type="text" danger icon={<DeleteOutlined />} aria-label={t("removeStep")} title={t("removeStep")} data-testid="step-remove" />
                </Popconfirm>
              }
            >
              <Typography.Text strong>{t("message")}</Typography.Text>
              <Input.TextArea
                autoSize={{ minRows: 2, maxRows: 8 }}
                maxLength={MESSAGE_MAX}
                placeholder={t("messagePlaceholder")}
                value={s.message}
                status={problems[msgField] ? "error" : undefined}
                onChange={(e) => onChange(updateStep(steps, s.id, { message: e.target.value }))}
                data-testid="step-message"
                style={{ marginTop: 4 }}
              />
              {problems[msgField] ? (
                <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="field-error" data-field={msgField}>
                  {t(problems[msgField].key, problems[msgField].vars)}
                </Typography.Text>
              ) : null}
              <div style={{ marginTop: 12 }}>
                <Typography.Text strong>{t("actions")}</Typography.Text>{" "}
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t("actionsHint")}
                </Typography.Text>
                <ActionsTable step={s} steps={steps} onChange={(next) => onChange(steps.map((x) => (x.id === s.id ? next : x)))} problems={problems} targets={targets} t={t} />
              </div>
            </Card>
          );
        })}
      </Space>
      <Button icon={<PlusOutlined />} style={{ marginTop: 12 }} onClick={() => onChange(addStep(steps))} data-testid="step-add">
        {t("addStep")}
      </Button>
    </div>
  );
}
