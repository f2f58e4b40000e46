/** How a scheduled message is shown in the list and in the ticket's panel: its status, recurrence and error. */
import { Tag, Tooltip } from "antd";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { formatDate } from "./datetime";
import { WEEKDAY_KEYS } from "./texts";
import { STATUS_COLORS, type ScheduledMessage } from "./types";

export function recurrenceText(t: ShellRuntime["t"], m: ScheduledMessage): string {
  if (m.type !== "recurrent" || !m.recurrence) return t("once");
  const what = m.recurrence === "custom" ? (m.customDays ?? []).map((d) => t(WEEKDAY_KEYS[d])).join(", ") : t(m.recurrence);
  return m.recurrentUntil ? `${what} · ${t("untilDate", { date: formatDate(m.recurrentUntil) })}` : what;
}

/** What the core's refusals of a send mean to the user; a channel's own code ("ERR_WABA_SEND_REFUSED: 131026 …") is shown as it came. */
const ERROR_TEXTS: Record<string, string> = {
  ERR_CONTACT_NUMBER_INVALID: "contactUnreachable",
  ERR_CONTACT_NOT_FOUND: "contactGone",
  ERR_CONNECTION_NOT_FOUND: "connectionGone",
  ERR_CONNECTION_INACTIVE: "connectionInactive",
};

export function errorText(t: ShellRuntime["t"], code: string): string {
  const key = ERROR_TEXTS[code.split(":")[0]];
  return key ? t(key) : code;
}

export function StatusTag({ runtime, m }: { runtime: ShellRuntime; m: ScheduledMessage }) {
  const t = runtime.t;
  const tag = (
    <Tag color={STATUS_COLORS[m.status]} data-testid={`schedule-status-${m.id}`} data-status={m.status}>
      {t(m.status)}
    </Tag>
  );
  return m.errorMessage ? <Tooltip title={t("failedWith", { error: errorText(t, m.errorMessage) })}>{tag}</Tooltip> : tag;
}
