import { Button, Checkbox, Segmented, Typography } from "antd";
import { TimeField } from "./TimeField";
import { CopyOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { DAY_MODES, WEEK_ORDER, type DayHours, type DayMode, type TimeRange, type Weekday } from "./types";
import { copyMondayToWeekdays, lunchOf } from "./week";
import "./tempo.css";

/** The range a part of the day gets when it is switched on. */
const DEFAULT_RANGE: Record<"morning" | "afternoon", TimeRange> = {
  morning: { start: "08:00", end: "12:00" },
  afternoon: { start: "13:00", end: "18:00" },
};

/**
 * A week of opening hours (the tenant's own, or a queue's, user's or connection's): one row a
 * day, Monday first (the data keeps 0 = Sunday), each open all day, closed or at specific
 * hours (a morning and an afternoon range; the gap between them is lunch). Controlled:
 * `value` is the 7 days, `errors` a message under a day's row.
 */
export function WeekEditor({
  value,
  onChange,
  errors = {},
  disabled,
  testId = "week-editor",
}: {
  value: DayHours[];
  onChange: (days: DayHours[]) => void;
  errors?: Partial<Record<Weekday, string>>;
  disabled?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const set = (wd: Weekday, day: DayHours) => onChange(value.map((d, i) => (i === wd ? day : d)));

  const setMode = (wd: Weekday, mode: DayMode) => {
    const d = value[wd];
    if (mode !== "specific") return set(wd, { ...d, mode });
    // Back to specific hours: the ranges it had, or the usual ones.
    set(wd, { mode, morning: d.morning ?? { ...DEFAULT_RANGE.morning }, afternoon: d.afternoon ?? (d.morning ? null : { ...DEFAULT_RANGE.afternoon }) });
  };

  return (
    <div className="oa-week" data-testid={testId}>
      <div className="oa-week-tools">
        <Button size="small" icon={<CopyOutlined />} disabled={disabled} onClick={() => onChange(copyMondayToWeekdays(value))} data-testid={`${testId}-copy-monday`}>
          {t("tempo.week.copyMonday")}
        </Button>
      </div>
      {WEEK_ORDER.map((wd) => {
        const d = value[wd] ?? { mode: "closed" };
        const lunch = lunchOf(d);
        const err = errors[wd];
        return (
          <div key={wd} className={`oa-week-row${err ? " oa-week-row-error" : ""}`} data-testid={`${testId}-day-${wd}`} data-mode={d.mode}>
            <Typography.Text strong className="oa-week-day">
              {t(`tempo.weekdays.${wd}`)}
            </Typography.Text>
            <Segmented<DayMode>
              size="small"
              className="oa-week-mode"
              disabled={disabled}
              value={d.mode}
              onChange={(m) => setMode(wd, m)}
              options={DAY_MODES.map((m) => ({ value: m, label: <span data-testid={`${testId}-day-${wd}-mode-${m}`}>{t(`tempo.week.modes.${m}`)}</span> }))}
            />
            <div className="oa-week-hours">
              {d.mode === "specific" ? (
                <>
                  {(["morning", "afternoon"] as const).map((part) => (
                    <RangeInput
                      key={part}
                      testId={`${testId}-day-${wd}-${part}`}
                      label={t(`tempo.week.${part}`)}
                      range={d[part] ?? null}
                      disabled={disabled}
                      onChange={(r) => set(wd, { ...d, [part]: r })}
                      onToggle={(on) => set(wd, { ...d, [part]: on ? { ...DEFAULT_RANGE[part] } : null })}
                    />
                  ))}
                  {lunch ? (
                    <Typography.Text type="secondary" className="oa-week-lunch" data-testid={`${testId}-day-${wd}-lunch`}>
                      {t("tempo.week.lunch", { start: lunch.start, end: lunch.end })}
                    </Typography.Text>
                  ) : null}
                </>
              ) : (
                <Typography.Text type="secondary">{d.mode === "open" ? t("tempo.week.openHint") : t("tempo.week.closedHint")}</Typography.Text>
              )}
            </div>
            {err ? (
              <Typography.Text type="danger" className="oa-week-error" data-testid={`${testId}-day-${wd}-error`}>
                {err}
              </Typography.Text>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

/** One part of a day: its switch, then start and end ("HH:MM", the browser's time field). */
function RangeInput({
  testId,
  label,
  range,
  disabled,
  onChange,
  onToggle,
}: {
  testId: string;
  label: string;
  range: TimeRange | null;
  disabled?: boolean;
  onChange: (r: TimeRange) => void;
  onToggle: (on: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <span className="oa-week-range" data-testid={testId}>
      <Checkbox checked={!!range} disabled={disabled} onChange={(e) => onToggle(e.target.checked)} data-testid={`${testId}-on`}>
        {label}
      </Checkbox>
      <TimeField label={`${label} · ${t("tempo.week.start")}`} disabled={disabled || !range} value={range?.start ?? ""} onChange={(v) => onChange({ start: v, end: range?.end ?? "" })} testId={`${testId}-start`} />
      <span className="oa-week-dash">–</span>
      <TimeField label={`${label} · ${t("tempo.week.end")}`} disabled={disabled || !range} value={range?.end ?? ""} onChange={(v) => onChange({ start: range?.start ?? "", end: v })} testId={`${testId}-end`} />
    </span>
  );
}
