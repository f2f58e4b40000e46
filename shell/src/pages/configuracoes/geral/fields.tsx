import { useEffect, useState, type ReactNode } from "react";
import { Input, InputNumber, Switch, Typography } from "antd";
import { SettingRow } from "../SettingsGroup";

/** The error of a field, under its control (the core's message or the form's own). */
export function FieldError({ id, message }: { id: string; message?: string | null }) {
  if (!message) return null;
  return (
    <Typography.Text type="danger" className="oa-geral-error" role="alert" data-testid={`${id}-error`}>
      {message}
    </Typography.Text>
  );
}

/**
 * A number saved when the field is left or Enter is pressed, not on every keystroke. `commit`
 * answers the field's error (the core's or the form's) or null; the typed value stays while it
 * is wrong, so it can be corrected.
 */
export function NumberField({ id, value, commit, suffix, labelledBy, width = 160 }: { id: string; value: number; commit: (n: number | null) => Promise<string | null>; suffix?: ReactNode; labelledBy: string; width?: number }) {
  const [draft, setDraft] = useState<number | null>(value);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setDraft(value), [value]);
  const leave = async () => {
    if (draft === value && !error) return;
    setError(await commit(draft));
  };
  return (
    <div className="oa-geral-field">
      <InputNumber
        value={draft}
        onChange={(v) => setDraft(typeof v === "number" ? v : null)}
        onBlur={() => void leave()}
        onPressEnter={() => void leave()}
        status={error ? "error" : undefined}
        suffix={suffix}
        style={{ width }}
        aria-labelledby={labelledBy}
        aria-invalid={!!error}
        data-testid={id}
      />
      <FieldError id={id} message={error} />
    </div>
  );
}

/** A text saved when the field is left (Enter too, for a single line); `onDraft` hears every keystroke (a live preview). */
export function TextField({
  id,
  value,
  commit,
  onDraft,
  labelledBy,
  multiline,
  maxLength,
  placeholder,
  disabled,
  className,
}: {
  id: string;
  value: string;
  commit: (s: string) => Promise<string | null>;
  onDraft?: (s: string) => void;
  labelledBy: string;
  multiline?: boolean;
  maxLength?: number;
  placeholder?: string;
  disabled?: boolean;
  /** oa-geral-short or oa-geral-tiny for a few characters. */
  className?: string;
}) {
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setDraft(value), [value]);
  const change = (s: string) => {
    setDraft(s);
    onDraft?.(s);
  };
  const leave = async () => {
    if (draft === value && !error) return;
    setError(await commit(draft));
  };
  const common = { value: draft, onBlur: () => void leave(), status: error ? ("error" as const) : undefined, "aria-labelledby": labelledBy, "aria-invalid": !!error, "data-testid": id, maxLength, placeholder, disabled };
  return (
    <div className={`oa-geral-field${className ? ` ${className}` : ""}`}>
      {multiline ? (
        <Input.TextArea {...common} autoSize={{ minRows: 2, maxRows: 6 }} onChange={(e) => change(e.target.value)} />
      ) : (
        <Input {...common} onChange={(e) => change(e.target.value)} onPressEnter={() => void leave()} />
      )}
      <FieldError id={id} message={error} />
    </div>
  );
}

/** A setting that is on or off, saved when switched. */
export function SwitchRow({ id, label, hint, checked, busy, onChange }: { id: string; label: ReactNode; hint?: ReactNode; checked: boolean; busy: boolean; onChange: (on: boolean) => void }) {
  return (
    <SettingRow id={id} label={label} hint={hint}>
      <div className="oa-geral-switch">
        <Switch checked={checked} loading={busy} onChange={onChange} aria-labelledby={`setting-${id}-label`} data-testid={`${id}-switch`} />
      </div>
    </SettingRow>
  );
}
