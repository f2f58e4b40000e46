import { useEffect, useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Alert, Button, Input, Skeleton, Switch, Typography } from "antd";
import { SaveOutlined } from "@ant-design/icons";
import { useRoot } from "../../../app/context";
import { SectionHeader } from "../../../ui/SectionHeader";
import { SettingRow, SettingsGroup } from "../SettingsGroup";
import { WeekEditor } from "./WeekEditor";
import { TimeStateBadge, useTenantTimeZone, zoneClock } from "./TimeStateBadge";
import { dayErrorsOf } from "./api-errors";
import { defaultWeek, normalizeWeek, weekForApi, weekProblems } from "./week";
import { MESSAGE_KINDS, type BusinessHours, type BusinessTimeMessages, type DayHours, type Weekday } from "./types";
import "./tempo.css";

interface GlobalForm {
  active: boolean;
  days: DayHours[];
  messages: BusinessTimeMessages;
}

/**
 * Settings › Horário: the tenant's own opening hours (the global schedule, GET/PUT
 * /business-hours/global) and the messages a customer gets outside them, on a holiday and at
 * lunch; the tenant's time zone and whether it is open now.
 */
export default observer(function HorarioPage() {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const timeZone = useTenantTimeZone();
  const [form, setForm] = useState<GlobalForm | null>(null);
  const [stored, setStored] = useState(false);
  const [dayErrors, setDayErrors] = useState<Partial<Record<Weekday, string>>>({});
  const [saving, setSaving] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    // Never saved: the core answers the hours a tenant starts from (id null, inactive).
    root.api.get<Omit<BusinessHours, "id"> & { id: number | null }>("/business-hours/global").then(
      (g) => {
        if (!live) return;
        setStored(!!g.id);
        setForm({ active: g.active, days: normalizeWeek(g.days), messages: { ...g.messages } });
      },
      () => live && setForm({ active: false, days: defaultWeek(), messages: {} }),
    );
    return () => {
      live = false;
    };
  }, [root]);

  const save = async () => {
    if (!form) return;
    const problems = weekProblems(form.days, t);
    setDayErrors(problems);
    if (Object.keys(problems).length) return;
    setSaving(true);
    try {
      const messages = Object.fromEntries(MESSAGE_KINDS.map((k) => [k, form.messages[k]?.trim() || null]));
      const saved = await root.api.put<BusinessHours>("/business-hours/global", { active: form.active, days: weekForApi(form.days), messages }, { successNotice: t("tempo.horario.saved") });
      setForm({ active: saved.active, days: normalizeWeek(saved.days), messages: { ...saved.messages } });
      setStored(true);
      setVersion((v) => v + 1);
    } catch (e) {
      setDayErrors(dayErrorsOf(e));
    } finally {
      setSaving(false);
    }
  };

  const clock = timeZone ? zoneClock(timeZone, i18n.language) : null;
  return (
    <div data-testid="horario-page" className="oa-settings-stack" aria-busy={!form}>
      <SectionHeader title={t("tempo.horario.title")} description={t("tempo.horario.description")} extra={<TimeStateBadge timeZone={timeZone} version={version} />} />
      {form && !stored ? <Alert type="info" showIcon title={t("tempo.horario.notStored")} data-testid="horario-not-stored" /> : null}

      <SettingsGroup id="horario-status" title={t("tempo.horario.groups.status.title")} description={t("tempo.horario.groups.status.description")}>
        <SettingRow id="horario-active" label={t("tempo.horario.active")} hint={t("tempo.horario.activeHint")}>
          {form ? <Switch checked={form.active} onChange={(active) => setForm({ ...form, active })} data-testid="horario-active" aria-labelledby="setting-horario-active-label" /> : <Skeleton.Button active size="small" />}
        </SettingRow>
        <SettingRow id="horario-timezone" label={t("tempo.horario.timeZone")} hint={t("tempo.horario.timeZoneHint")}>
          {timeZone ? (
            <div className="oa-time-meta" data-testid="horario-timezone">
              <Typography.Text strong className="oa-code">
                {timeZone}
              </Typography.Text>
              <Typography.Text type="secondary">{t("tempo.horario.localTime", { time: clock?.time ?? "", offset: clock?.offset ?? "" })}</Typography.Text>
            </div>
          ) : (
            <Skeleton.Input active size="small" />
          )}
        </SettingRow>
      </SettingsGroup>

      <SettingsGroup id="horario-week" title={t("tempo.horario.groups.week.title")} description={t("tempo.horario.groups.week.description")}>
        {form ? <WeekEditor value={form.days} onChange={(days) => setForm({ ...form, days })} errors={dayErrors} testId="horario-week" /> : <Skeleton active paragraph={{ rows: 7 }} title={false} />}
      </SettingsGroup>

      <SettingsGroup id="horario-messages" title={t("tempo.horario.groups.messages.title")} description={t("tempo.horario.groups.messages.description")}>
        {MESSAGE_KINDS.map((k) => (
          <SettingRow key={k} id={`horario-message-${k}`} label={t(`tempo.messages.${k}.label`)} hint={t(`tempo.messages.${k}.when`)}>
            {form ? (
              <Input.TextArea
                autoSize={{ minRows: 2, maxRows: 6 }}
                maxLength={4000}
                placeholder={t(`tempo.messages.${k}.placeholder`)}
                value={form.messages[k] ?? ""}
                onChange={(e) => setForm({ ...form, messages: { ...form.messages, [k]: e.target.value } })}
                aria-labelledby={`setting-horario-message-${k}-label`}
                data-testid={`horario-message-${k}`}
              />
            ) : (
              <Skeleton.Input active block />
            )}
          </SettingRow>
        ))}
      </SettingsGroup>
      <div className="oa-time-savebar">
        <Typography.Text type="secondary">{t("tempo.horario.saveHint")}</Typography.Text>
        <Button type="primary" icon={<SaveOutlined />} loading={saving} disabled={!form} onClick={() => void save()} data-testid="horario-save">
          {t("tempo.horario.save")}
        </Button>
      </div>
    </div>
  );
});
