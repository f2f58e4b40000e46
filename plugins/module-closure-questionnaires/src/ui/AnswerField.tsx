import { Checkbox, Input, InputNumber, Select } from "antd";
import type { AnswerValue, Question } from "./types";

/** The input of one question, by its type (date and time: the browser's own pickers). */
export function AnswerField({ q, value, onChange, placeholder }: { q: Question; value: AnswerValue | undefined; onChange(v: AnswerValue | undefined): void; placeholder: string }) {
  const testId = `cq-answer-${q.id}`;
  const text = typeof value === "string" ? value : "";
  switch (q.type) {
    case "text":
      return <Input data-testid={testId} value={text} maxLength={500} onChange={(e) => onChange(e.target.value)} />;
    case "textarea":
      return <Input.TextArea data-testid={testId} value={text} maxLength={4000} autoSize={{ minRows: 2, maxRows: 6 }} onChange={(e) => onChange(e.target.value)} />;
    case "select":
      return (
        <Select
          data-testid={testId}
          style={{ width: "100%" }}
          value={text || undefined}
          placeholder={placeholder}
          allowClear
          options={q.options.map((o) => ({ value: o, label: o }))}
          onChange={(v?: string) => onChange(v ?? undefined)}
        />
      );
    case "checkbox":
      return <Checkbox.Group data-testid={testId} value={Array.isArray(value) ? value : []} options={q.options} onChange={(v) => onChange(v as string[])} />;
    case "number":
    case "currency":
      return (
        <InputNumber
          data-testid={testId}
          style={{ width: "100%" }}
          value={typeof value === "number" ? value : null}
          prefix={q.type === "currency" ? "R$" : undefined}
          precision={q.type === "currency" ? 2 : undefined}
          decimalSeparator=","
          onChange={(v) => onChange(typeof v === "number" ? v : undefined)}
        />
      );
    case "date":
      return <Input data-testid={testId} type="date" value={text} onChange={(e) => onChange(e.target.value)} />;
    case "time":
      return <Input data-testid={testId} type="time" value={text} onChange={(e) => onChange(e.target.value)} />;
  }
}
