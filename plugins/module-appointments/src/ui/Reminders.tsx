/** The appointment's reminders: amount and unit before it, none twice (the server checks again). */
import { useState } from "react";
import { Button, InputNumber, Select, Space, Tag } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { REMINDER_UNITS, type Reminder, type ReminderUnit } from "./types";

const MS: Record<ReminderUnit, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };
export const offsetOf = (r: Reminder) => r.amount * MS[r.unit];

export default function Reminders({ runtime, value, onChange }: { runtime: ShellRuntime; value: Reminder[]; onChange(next: Reminder[]): void }) {
  const t = runtime.t;
  const [amount, setAmount] = useState<number | null>(30);
  const [unit, setUnit] = useState<ReminderUnit>("minutes");
  const [dup, setDup] = useState(false);
  const add = () => {
    if (!amount || amount < 1) return;
    const r = { amount, unit };
    if (value.some((x) => offsetOf(x) === offsetOf(r))) {
      setDup(true);
      return;
    }
    setDup(false);
    onChange([...value, r].sort((a, b) => offsetOf(b) - offsetOf(a)));
  };
  return (
    <div data-testid="appointment-reminders">
      <Space wrap>
        <InputNumber min={1} max={999} value={amount} onChange={(v) => setAmount(v)} data-testid="reminder-amount" />
        <Select<ReminderUnit> value={unit} onChange={setUnit} style={{ width: 120 }} options={REMINDER_UNITS.map((u) => ({ value: u, label: t(u) }))} data-testid="reminder-unit" />
        <Button icon={<PlusOutlined />} onClick={add} data-testid="reminder-add">
          {t("addReminder")}
        </Button>
      </Space>
      {dup ? (
        <div style={{ color: "#dc2626", marginTop: 4 }} data-testid="reminder-duplicate">
          {t("reminderDuplicate")}
        </div>
      ) : null}
      <div style={{ marginTop: 8 }}>
        {value.map((r) => (
          <Tag key={`${r.amount}-${r.unit}`} closable onClose={() => onChange(value.filter((x) => x !== r))} data-testid={`reminder-${r.amount}-${r.unit}`}>
            {r.amount} {t(r.unit)} {t("before")}
          </Tag>
        ))}
      </div>
    </div>
  );
}
