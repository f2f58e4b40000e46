import { Button, Card, Checkbox, Input, Select, Space } from "antd";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import type { QueueOption } from "./SettingsPage";
import { QUESTION_TYPES, REPORT_TYPES, type Question, type QuestionType } from "./types";

/** A question being edited: `key` tells React the rows apart while a new one has no id yet. */
export type DraftQuestion = Omit<Question, "id"> & { id?: string; key: string };

let seq = 0;
export const newQuestion = (): DraftQuestion => ({ key: `new-${++seq}`, question: "", type: "text", required: false, options: [], showInReport: true, reportType: "list", queueIds: [] });

/** One question of the form: text, type, required, options, report, queues, order. */
export function QuestionEditor(p: { runtime: ShellRuntime; queues: QueueOption[]; index: number; count: number; value: DraftQuestion; onChange(q: DraftQuestion): void; onMove(by: number): void; onRemove(): void }) {
  const t = p.runtime.t;
  const q = p.value;
  const set = (patch: Partial<DraftQuestion>) => p.onChange({ ...q, ...patch });
  const setType = (type: QuestionType) => set({ type, reportType: REPORT_TYPES[type].includes(q.reportType) ? q.reportType : REPORT_TYPES[type][0], options: type === "select" || type === "checkbox" ? q.options : [] });
  const withOptions = q.type === "select" || q.type === "checkbox";
  const id = `cq-question-${p.index}`;
  return (
    <Card size="small" data-testid={id} title={`${p.index + 1}.`} extra={
      <Space>
        <Button size="small" disabled={p.index === 0} onClick={() => p.onMove(-1)} aria-label={t("form.up")}>↑</Button>
        <Button size="small" disabled={p.index === p.count - 1} onClick={() => p.onMove(1)} aria-label={t("form.down")}>↓</Button>
        <Button size="small" danger onClick={p.onRemove} aria-label={t("form.removeQuestion")}>✕</Button>
      </Space>
    }>
      <Space direction="vertical" style={{ width: "100%" }}>
        <Input data-testid={`${id}-text`} placeholder={t("form.question")} value={q.question} maxLength={300} onChange={(e) => set({ question: e.target.value })} />
        <Space wrap>
          <Select data-testid={`${id}-type`} style={{ width: 190 }} value={q.type} onChange={setType} options={QUESTION_TYPES.map((k) => ({ value: k, label: t(`types.${k}`) }))} />
          <Checkbox data-testid={`${id}-required`} checked={q.required} onChange={(e) => set({ required: e.target.checked })}>
            {t("form.required")}
          </Checkbox>
          <Checkbox data-testid={`${id}-report`} checked={q.showInReport} onChange={(e) => set({ showInReport: e.target.checked })}>
            {t("form.showInReport")}
          </Checkbox>
          {q.showInReport ? (
            <Select style={{ width: 150 }} aria-label={t("form.reportType")} value={q.reportType} onChange={(reportType) => set({ reportType })} options={REPORT_TYPES[q.type].map((k) => ({ value: k, label: t(`reportTypes.${k}`) }))} />
          ) : null}
        </Space>
        {withOptions ? (
          <Select data-testid={`${id}-options`} mode="tags" style={{ width: "100%" }} placeholder={t("form.optionsHint")} value={q.options} onChange={(options: string[]) => set({ options })} open={false} tokenSeparators={[";"]} />
        ) : null}
        <Select
          data-testid={`${id}-queues`}
          mode="multiple"
          style={{ width: "100%" }}
          placeholder={t("form.allQueues")}
          value={q.queueIds}
          onChange={(queueIds: number[]) => set({ queueIds })}
          options={p.queues.map((x) => ({ value: x.id, label: x.name }))}
          optionFilterProp="label"
        />
      </Space>
    </Card>
  );
}
