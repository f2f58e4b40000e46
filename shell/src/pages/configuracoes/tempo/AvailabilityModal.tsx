import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Checkbox, Modal, Typography } from "antd";
import { HHMM, TimeField } from "./TimeField";
import { CopyOutlined } from "@ant-design/icons";
import { useRoot } from "../../../app/context";
import { ApiError } from "../../../api/client";
import { ruleMessage } from "../../../ui/api-errors";
import { AVAILABILITY_DEFAULT_RANGES, AVAILABILITY_SLOTS, WEEK_ORDER, type Availability, type AvailabilitySlot, type AvailabilitySlotKind, type UserAvailabilityRow, type Weekday } from "./types";
import "./tempo.css";

const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 60 + m;
};

/** Slots that cannot be ticked together with a kind (their usual hours overlap). */
const EXCLUDES: Record<AvailabilitySlotKind, AvailabilitySlotKind[]> = { fullDay: ["morning", "afternoon"], morning: ["fullDay"], afternoon: ["fullDay"], evening: [] };

/** Seven days of slots, each slot with its times written out (a slot without them takes its kind's usual hours). */
export function fullWeek(days: Availability | null | undefined): Availability {
  return Array.from({ length: 7 }, (_, i) =>
    (days?.[i] ?? []).map((s) => ({ kind: s.kind, start: s.start || AVAILABILITY_DEFAULT_RANGES[s.kind].start, end: s.end || AVAILABILITY_DEFAULT_RANGES[s.kind].end })),
  );
}

/** A user's availability, edited a weekday at a time: which kinds of slot, and their hours. */
export function AvailabilityModal({ row, onClose, onSaved }: { row: UserAvailabilityRow; onClose: () => void; onSaved: (row: UserAvailabilityRow) => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [days, setDays] = useState<Availability>(() => fullWeek(row.days));
  const [errors, setErrors] = useState<Partial<Record<Weekday, string>>>({});
  const [saving, setSaving] = useState(false);

  const slotOf = (wd: Weekday, kind: AvailabilitySlotKind) => days[wd].find((s) => s.kind === kind);
  const setSlot = (wd: Weekday, kind: AvailabilitySlotKind, slot: AvailabilitySlot | null) =>
    setDays((ds) =>
      ds.map((list, i) => {
        if (i !== wd) return list;
        // The full day covers the morning and the afternoon: ticking one leaves the other(s) out.
        const excluded = slot ? EXCLUDES[kind] : [];
        const rest = list.filter((s) => s.kind !== kind && !excluded.includes(s.kind));
        return slot ? [...rest, slot].sort((a, b) => AVAILABILITY_SLOTS.indexOf(a.kind) - AVAILABILITY_SLOTS.indexOf(b.kind)) : rest;
      }),
    );
  const copyMonday = () => setDays((ds) => ds.map((list, i) => (i >= 2 && i <= 5 ? ds[1].map((s) => ({ ...s })) : list)));

  const submit = async () => {
    const problems: Partial<Record<Weekday, string>> = {};
    days.forEach((list, wd) => {
      if (list.some((s) => !HHMM.test(s.start ?? "") || !HHMM.test(s.end ?? ""))) problems[wd as Weekday] = t("tempo.week.errors.incomplete");
      else if (list.some((s) => minutes(s.start!) >= minutes(s.end!))) problems[wd as Weekday] = t("tempo.week.errors.startAfterEnd");
      else {
        const sorted = [...list].sort((a, b) => minutes(a.start!) - minutes(b.start!));
        if (sorted.some((s, i) => i > 0 && minutes(s.start!) < minutes(sorted[i - 1].end!))) problems[wd as Weekday] = t("tempo.availability.overlap");
      }
    });
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setSaving(true);
    try {
      const saved = await root.api.put<UserAvailabilityRow>(`/availability/${row.userId}`, { days }, { silent: true, successNotice: t("tempo.availability.saved") });
      onSaved(saved);
    } catch (e) {
      const field = e instanceof ApiError && typeof e.data.field === "string" ? /^days[.[](\d)/.exec(e.data.field) : null;
      if (field) {
        const rule = (e as ApiError).data.rule;
        setErrors({ [Number(field[1]) as Weekday]: rule === "overlap" ? t("tempo.availability.overlap") : ruleMessage(t, typeof rule === "string" ? rule : undefined) });
      } else root.notifyError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      width={1000}
      title={t("tempo.availability.editTitle", { name: row.name })}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ "data-testid": "availability-save" } as Record<string, string>}
    >
      <div className="oa-avail-head">
        <Typography.Text type="secondary">{t("tempo.availability.editHint")}</Typography.Text>
        <Button size="small" icon={<CopyOutlined />} onClick={copyMonday} data-testid="availability-copy-monday">
          {t("tempo.week.copyMonday")}
        </Button>
      </div>
      <div className="oa-avail-scroll">
        <div className="oa-avail-grid" data-testid="availability-editor">
          <span />
          {AVAILABILITY_SLOTS.map((k) => (
            <span key={k} className="oa-avail-kind-head">
              <Typography.Text strong>{t(`tempo.slots.${k}`)}</Typography.Text>
              <Typography.Text type="secondary" className="oa-muted">
                {AVAILABILITY_DEFAULT_RANGES[k].start}–{AVAILABILITY_DEFAULT_RANGES[k].end}
              </Typography.Text>
            </span>
          ))}
          {WEEK_ORDER.map((wd) => (
            <div key={wd} className="oa-avail-row" data-testid={`availability-day-${wd}`}>
              <span className="oa-avail-day">
                <Typography.Text strong>{t(`tempo.weekdays.${wd}`)}</Typography.Text>
                {errors[wd] ? (
                  <Typography.Text type="danger" className="oa-muted" data-testid={`availability-day-${wd}-error`}>
                    {errors[wd]}
                  </Typography.Text>
                ) : null}
              </span>
              {AVAILABILITY_SLOTS.map((kind) => {
                const s = slotOf(wd, kind);
                const id = `availability-${wd}-${kind}`;
                return (
                  <span key={kind} className={`oa-avail-cell${s ? " oa-avail-on" : ""}`}>
                    <Checkbox
                      checked={!!s}
                      onChange={(e) => setSlot(wd, kind, e.target.checked ? { kind, ...AVAILABILITY_DEFAULT_RANGES[kind] } : null)}
                      aria-label={`${t(`tempo.weekdays.${wd}`)} · ${t(`tempo.slots.${kind}`)}`}
                      data-testid={`${id}-on`}
                    />
                    <TimeField label={`${t(`tempo.slots.${kind}`)} · ${t("tempo.week.start")}`} disabled={!s} value={s?.start ?? ""} onChange={(v) => s && setSlot(wd, kind, { ...s, start: v })} testId={`${id}-start`} />
                    <span className="oa-week-dash">–</span>
                    <TimeField label={`${t(`tempo.slots.${kind}`)} · ${t("tempo.week.end")}`} disabled={!s} value={s?.end ?? ""} onChange={(v) => s && setSlot(wd, kind, { ...s, end: v })} testId={`${id}-end`} />
                  </span>
                );
              })}
            </div>
          ))}
        </div>
      </div>
    </Modal>
  );
}
