import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Divider, Drawer, Form, Input, Select, Space, Switch, Typography } from "antd";
import { useRoot } from "../../../app/context";
import { applyFieldErrors } from "../../../ui/api-errors";
import { WeekEditor } from "./WeekEditor";
import { dayErrorsOf, isTargetError } from "./api-errors";
import { defaultWeek, normalizeWeek, weekForApi, weekProblems } from "./week";
import { TYPE_ICON } from "./TargetTags";
import type { TargetOption } from "./useTargets";
import { MESSAGE_KINDS, TARGET_TYPES, type BusinessHours, type BusinessTimeMessages, type DayHours, type TargetType, type Weekday } from "./types";

interface ScheduleForm {
  name: string;
  type: TargetType;
  targetIds: number[];
  active: boolean;
  messages: BusinessTimeMessages;
}

/**
 * A schedule by queue, user or WhatsApp connection, new or edited: type, targets (at least
 * one: the core says so and the field shows it), active, the week and its own messages (empty:
 * the tenant's message applies).
 */
export function ScheduleDrawer({
  schedule,
  options,
  onClose,
  onSaved,
}: {
  schedule: BusinessHours | null;
  options: Record<TargetType, TargetOption[]>;
  onClose: () => void;
  onSaved: (s: BusinessHours) => void;
}) {
  const root = useRoot();
  const { t } = useTranslation();
  const [form] = Form.useForm<ScheduleForm>();
  const type = Form.useWatch("type", form) ?? ((schedule?.type as TargetType) || "queue");
  const [days, setDays] = useState<DayHours[]>(schedule ? normalizeWeek(schedule.days) : defaultWeek());
  const [dayErrors, setDayErrors] = useState<Partial<Record<Weekday, string>>>({});
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    const problems = weekProblems(days, t);
    setDayErrors(problems);
    if (!v || Object.keys(problems).length) return;
    setSaving(true);
    try {
      const body = {
        name: v.name?.trim() ?? "",
        type: v.type,
        targetIds: v.targetIds ?? [],
        active: v.active,
        days: weekForApi(days),
        messages: Object.fromEntries(MESSAGE_KINDS.map((k) => [k, v.messages?.[k]?.trim() || null])),
      };
      const saved = schedule
        ? await root.api.put<BusinessHours>(`/business-hours/${schedule.id}`, body, { silent: true, successNotice: t("tempo.schedules.saved") })
        : await root.api.post<BusinessHours>("/business-hours", body, { silent: true, successNotice: t("tempo.schedules.saved") });
      onSaved(saved);
    } catch (e) {
      const onDays = dayErrorsOf(e);
      setDayErrors(onDays);
      if (isTargetError(e)) {
        form.setFields([{ name: "targetIds", errors: [(e as { detail?: string }).detail || t("tempo.targets.required")] }]);
      } else if (!applyFieldErrors(form, e, t, ["name", "type", "targetIds", "active"]) && !Object.keys(onDays).length) root.notifyError(e);
      else if (Object.keys(onDays).length) root.notifyError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open
      size={760}
      title={schedule ? t("tempo.schedules.edit") : t("tempo.schedules.new")}
      onClose={onClose}
      destroyOnHidden
      data-testid="schedule-drawer"
      extra={
        <Space>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="primary" loading={saving} onClick={() => void submit()} data-testid="schedule-save">
            {t("common.save")}
          </Button>
        </Space>
      }
    >
      <Form<ScheduleForm>
        form={form}
        layout="vertical"
                initialValues={{
          name: schedule?.name ?? "",
          type: (schedule?.type as TargetType) ?? "queue",
          targetIds: schedule?.targetIds ?? [],
          active: schedule?.active ?? true,
          messages: schedule?.messages ?? {},
        }}
      >
        <div className="oa-form-grid">
          <Form.Item name="type" label={t("tempo.schedules.type")} rules={[{ required: true, message: t("common.required") }]}>
            <Select
              data-testid="schedule-type"
              onChange={() => form.setFieldValue("targetIds", [])}
              options={TARGET_TYPES.map((k) => ({ value: k, label: <Space size={6}>{TYPE_ICON[k]}{t(`tempo.types.${k}`)}</Space> }))}
            />
          </Form.Item>
          <Form.Item
            name="name"
            label={t("tempo.schedules.name")}
            rules={[
              { required: true, whitespace: true, message: t("common.required") },
              { max: 120, message: t("configuracoes.rules.stringMax", { expected: 120 }) },
            ]}
          >
            <Input maxLength={120} placeholder={t("tempo.schedules.namePlaceholder")} data-testid="schedule-name" />
          </Form.Item>
        </div>
        <Form.Item name="targetIds" label={t(`tempo.targets.label.${type}`)} extra={t("tempo.targets.hint")} required>
          <Select
            mode="multiple"
            allowClear
            optionFilterProp="label"
            data-testid="schedule-targets"
            placeholder={t(`tempo.targets.placeholder.${type}`)}
            options={options[type]}
            notFoundContent={<Typography.Text type="secondary">{t(`tempo.targets.none.${type}`)}</Typography.Text>}
            onChange={() => form.setFields([{ name: "targetIds", errors: [] }])}
          />
        </Form.Item>
        <Form.Item name="active" label={t("tempo.schedules.active")} valuePropName="checked" extra={t("tempo.schedules.activeHint")}>
          <Switch data-testid="schedule-active" />
        </Form.Item>

        <Divider titlePlacement="start">{t("tempo.schedules.week")}</Divider>
        <WeekEditor value={days} onChange={setDays} errors={dayErrors} testId="schedule-week" />

        <Divider titlePlacement="start">{t("tempo.schedules.messages")}</Divider>
        <Typography.Paragraph type="secondary">{t("tempo.schedules.messagesHint")}</Typography.Paragraph>
        {MESSAGE_KINDS.map((k) => (
          <Form.Item key={k} name={["messages", k]} label={t(`tempo.messages.${k}.label`)} extra={t(`tempo.messages.${k}.when`)}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={4000} placeholder={t("tempo.schedules.messagePlaceholder")} data-testid={`schedule-message-${k}`} />
          </Form.Item>
        ))}
      </Form>
    </Drawer>
  );
}
