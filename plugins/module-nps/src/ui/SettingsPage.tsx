import { useEffect, useState } from "react";
import { Button, Card, Form, Input, InputNumber, Space, Switch, Typography } from "antd";
import { useRuntime } from "./runtime";
import type { SettingsView } from "./types";

type Values = Omit<SettingsView, "limits">;
const MESSAGES = ["requestMessage", "thanksMessage", "invalidMessage", "timeoutMessage"] as const;

/** The groups of a scale, as src/scale.ts makes them (promoter 10·s ≥ 9·max, passive 10·s ≥ 7·max). */
function groupsText(max: number, none: string) {
  const span = (from: number, to: number) => (from > to ? none : from === to ? `${from}` : `${from}–${to}`);
  const promoter = Math.ceil((9 * max) / 10);
  const passive = Math.ceil((7 * max) / 10);
  return { max, promoters: span(promoter, max), passives: span(passive, promoter - 1), detractors: span(0, passive - 1) };
}

/** Settings › NPS (/configuracoes/nps): whether the survey goes out, its scale, its waiting time and its four texts. */
export default function SettingsPage() {
  const runtime = useRuntime();
  const t = runtime.t;
  const [form] = Form.useForm<Values>();
  const [view, setView] = useState<SettingsView | null>(null);
  const [saving, setSaving] = useState(false);
  const scale = Form.useWatch("scale", form) ?? view?.scale ?? 10;

  useEffect(() => {
    let live = true;
    runtime.api.get<SettingsView>("/nps/settings").then((s) => {
      if (!live) return;
      setView(s);
      form.setFieldsValue(s);
    }, runtime.notify.error);
    return () => {
      live = false;
    };
  }, [runtime, form]);

  async function save(v: Values) {
    setSaving(true);
    try {
      const s = await runtime.api.put<SettingsView>("/nps/settings", v, { successNotice: t("saved") });
      setView(s);
      form.setFieldsValue(s);
    } catch (err) {
      const field = (err as { data?: { field?: string } }).data?.field;
      if (field && field in v) form.setFields([{ name: field as keyof Values, errors: [(err as { detail?: string }).detail ?? ""] }]);
    } finally {
      setSaving(false);
    }
  }

  const l = view?.limits ?? { scaleMin: 3, scaleMax: 10, timeoutMin: 1, timeoutMax: 10080 };
  const groups = typeof scale === "number" && scale >= l.scaleMin && scale <= l.scaleMax ? t("groups", groupsText(scale, t("none"))) : "";
  return (
    <Space orientation="vertical" size={16} style={{ width: "100%" }} data-testid="nps-settings-page" aria-busy={!view}>
      <div>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t("title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("subtitle")}</Typography.Text>
      </div>
      <Card variant="borderless">
        <Form form={form} layout="vertical" onFinish={save} disabled={!view}>
          <Form.Item name="enabled" valuePropName="checked" label={t("enabled")}>
            <Switch data-testid="nps-enabled" />
          </Form.Item>
          <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(240px, 1fr))", columnGap: 16 }}>
            <Form.Item name="scale" label={t("scale")} extra={groups || t("scaleHint")} rules={[{ type: "number", required: true, min: l.scaleMin, max: l.scaleMax, message: `${l.scaleMin}–${l.scaleMax}` }]}>
              <InputNumber min={l.scaleMin} max={l.scaleMax} precision={0} style={{ width: "100%" }} data-testid="nps-scale" />
            </Form.Item>
            <Form.Item name="timeoutMinutes" label={t("timeoutMinutes")} rules={[{ type: "number", required: true, min: l.timeoutMin, max: l.timeoutMax, message: `${l.timeoutMin}–${l.timeoutMax}` }]}>
              <InputNumber min={l.timeoutMin} max={l.timeoutMax} precision={0} style={{ width: "100%" }} data-testid="nps-timeout" />
            </Form.Item>
          </div>
          <Typography.Paragraph type="secondary">{t("placeholders", { nameTag: "{{name}}", maxTag: "{{max}}" })}</Typography.Paragraph>
          {MESSAGES.map((m) => (
            <Form.Item key={m} name={m} label={t(m)} rules={[{ required: true, whitespace: true, message: t("required") }]}>
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={1000} data-testid={`nps-${m}`} />
            </Form.Item>
          ))}
          <Button type="primary" htmlType="submit" loading={saving} data-testid="nps-save">
            {t("save")}
          </Button>
        </Form>
      </Card>
    </Space>
  );
}
