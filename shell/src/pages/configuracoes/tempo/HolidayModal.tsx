import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Input, Modal, Select, Space, Switch, Typography } from "antd";
import { useRoot } from "../../../app/context";
import { applyFieldErrors } from "../../../ui/api-errors";
import { isTargetError } from "./api-errors";
import { asDate, brDate, isoOf } from "./dates";
import { TYPE_ICON } from "./TargetTags";
import type { TargetOption } from "./useTargets";
import { TARGET_TYPES, type BusinessHoursType, type Holiday, type TargetType } from "./types";

interface HolidayForm {
  date: string;
  description: string;
  type: BusinessHoursType;
  targetIds: number[];
  yearly: boolean;
  message: string;
}

const HOLIDAY_TYPES: readonly BusinessHoursType[] = ["global", ...TARGET_TYPES];

/** A holiday, new or edited: date and description (required), for the whole company or chosen targets, yearly, its own message. */
export function HolidayModal({
  holiday,
  defaultDate,
  options,
  onClose,
  onSaved,
}: {
  holiday: Holiday | null;
  defaultDate: string;
  options: Record<TargetType, TargetOption[]>;
  onClose: () => void;
  onSaved: (h: Holiday) => void;
}) {
  const root = useRoot();
  const { t } = useTranslation();
  const [form] = Form.useForm<HolidayForm>();
  const type = Form.useWatch("type", form) ?? holiday?.type ?? "global";
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    try {
      const body = { date: isoOf(v.date), description: v.description.trim(), type: v.type, targetIds: v.type === "global" ? [] : (v.targetIds ?? []), yearly: !!v.yearly, message: v.message?.trim() || null };
      const saved = holiday
        ? await root.api.put<Holiday>(`/holidays/${holiday.id}`, body, { silent: true, successNotice: t("tempo.holidays.saved") })
        : await root.api.post<Holiday>("/holidays", body, { silent: true, successNotice: t("tempo.holidays.saved") });
      onSaved(saved);
    } catch (e) {
      if (isTargetError(e)) form.setFields([{ name: "targetIds", errors: [(e as { detail?: string }).detail || t("tempo.targets.required")] }]);
      else if (!applyFieldErrors(form, e, t, ["date", "description", "type", "targetIds", "yearly", "message"])) root.notifyError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      width={600}
      title={holiday ? t("tempo.holidays.edit") : t("tempo.holidays.new")}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ "data-testid": "holiday-save" } as Record<string, string>}
    >
      <Form<HolidayForm>
        form={form}
        layout="vertical"
        data-testid="holiday-form"
        initialValues={{
          date: brDate(holiday?.date ?? defaultDate),
          description: holiday?.description ?? "",
          type: holiday?.type ?? "global",
          targetIds: holiday?.targetIds ?? [],
          yearly: holiday?.yearly ?? false,
          message: holiday?.message ?? "",
        }}
      >
        <div className="oa-form-grid">
          <Form.Item
            name="date"
            label={t("tempo.holidays.date")}
            getValueFromEvent={(e: { target: { value: string } }) => asDate(e.target.value)}
            rules={[
              { required: true, message: t("common.required") },
              { validator: (_, v: string) => (!v || isoOf(v) ? Promise.resolve() : Promise.reject(new Error(t("configuracoes.rules.date")))) },
            ]}
          >
            <Input inputMode="numeric" maxLength={10} placeholder={t("tempo.holidays.datePlaceholder")} data-testid="holiday-date" />
          </Form.Item>
          <Form.Item name="yearly" label={t("tempo.holidays.yearly")} valuePropName="checked" extra={t("tempo.holidays.yearlyHint")}>
            <Switch data-testid="holiday-yearly" />
          </Form.Item>
        </div>
        <Form.Item
          name="description"
          label={t("tempo.holidays.description")}
          rules={[
            { required: true, whitespace: true, message: t("common.required") },
            { max: 200, message: t("configuracoes.rules.stringMax", { expected: 200 }) },
          ]}
        >
          <Input maxLength={200} placeholder={t("tempo.holidays.descriptionPlaceholder")} data-testid="holiday-description" />
        </Form.Item>
        <Form.Item name="type" label={t("tempo.holidays.type")}>
          <Select
            data-testid="holiday-type"
            onChange={() => form.setFieldValue("targetIds", [])}
            options={HOLIDAY_TYPES.map((k) => ({ value: k, label: <Space size={6}>{TYPE_ICON[k]}{t(`tempo.types.${k}`)}</Space> }))}
          />
        </Form.Item>
        {type !== "global" ? (
          <Form.Item name="targetIds" label={t(`tempo.targets.label.${type}`)} required>
            <Select
              mode="multiple"
              allowClear
              optionFilterProp="label"
              data-testid="holiday-targets"
              placeholder={t(`tempo.targets.placeholder.${type}`)}
              options={options[type as TargetType]}
              notFoundContent={<Typography.Text type="secondary">{t(`tempo.targets.none.${type}`)}</Typography.Text>}
            />
          </Form.Item>
        ) : null}
        <Form.Item name="message" label={t("tempo.holidays.message")} extra={t("tempo.holidays.messageHint")}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={4000} placeholder={t("tempo.messages.holiday.placeholder")} data-testid="holiday-message" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
