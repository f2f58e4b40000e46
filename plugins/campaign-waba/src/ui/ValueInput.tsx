/**
 * One value of the template the campaign fills per contact (a header or body variable, a
 * button's URL suffix, code or payload): literal text, with a contact field inserted as
 * {{name}}, {{firstName}} or {{number}}.
 */
import type { ReactNode } from "react";
import { Form, Input, Select, Space } from "antd";
import { CONTACT_PLACEHOLDERS, VARIABLE_MAX } from "../type";

export interface ValueInputProps {
  /** The form's field (`body.0`, `buttons.2`): its error and the inputs' test ids. */
  field: string;
  label: ReactNode;
  extra?: ReactNode;
  required: boolean;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  disabled?: boolean;
  placeholder?: string;
  t: (key: string, vars?: Record<string, unknown>) => string;
}

export function ValueInput({ field, label, extra, required, value, onChange, error, disabled, placeholder, t }: ValueInputProps) {
  const id = `waba-${field.replace(".", "-")}`;
  return (
    <Form.Item label={label} required={required} extra={extra} {...(error ? { validateStatus: "error" as const, help: <span data-testid={`campaign-error-${field}`}>{error}</span> } : {})}>
      <Space.Compact style={{ width: "100%" }}>
        <Input value={value} maxLength={VARIABLE_MAX} disabled={disabled} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} data-testid={id} />
        <Select
          style={{ width: 200 }}
          placeholder={t("waba.insert")}
          value={null}
          disabled={disabled}
          options={CONTACT_PLACEHOLDERS.map((f) => ({ value: f, label: `${t(`waba.fields.${f}`)} {{${f}}}` }))}
          onChange={(f: string) => onChange(`${value}{{${f}}}`)}
          data-testid={`${id}-field`}
        />
      </Space.Compact>
    </Form.Item>
  );
}
