import { Input } from "antd";

/** "HH:MM" from 00:00 to 23:59, or 24:00 (an end: midnight). */
export const HHMM = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** What was typed as "HH:MM": digits only, the colon put after the hour ("0830" → "08:30"). */
export function asTime(typed: string): string {
  const digits = typed.replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

/**
 * A time of day typed as 24-hour "HH:MM" (the browser's own time field follows the machine's
 * locale and may show AM/PM; these hours are the tenant's, always 24-hour).
 */
export function TimeField({ value, onChange, disabled, label, testId }: { value: string; onChange: (v: string) => void; disabled?: boolean; label: string; testId: string }) {
  const bad = !!value && value.length === 5 && !HHMM.test(value);
  return (
    <Input
      size="small"
      className="oa-time"
      inputMode="numeric"
      placeholder="--:--"
      maxLength={5}
      status={bad ? "error" : undefined}
      aria-label={label}
      disabled={disabled}
      value={value}
      onChange={(e) => onChange(asTime(e.target.value))}
      data-testid={testId}
    />
  );
}
