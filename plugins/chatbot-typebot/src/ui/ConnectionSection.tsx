import { Form, Input, Switch } from "antd";
import type { FormSectionProps } from "@openatende/plugin-sdk/ui";

/** The connection form's Typebot fields; the values are saved by section.ts after the connection. */
export function ConnectionSection({ runtime, value, onChange }: FormSectionProps) {
  const t = runtime.t;
  const v = {
    enabled: value.enabled === true,
    publicId: typeof value.publicId === "string" ? value.publicId : "",
    restartKeyword: typeof value.restartKeyword === "string" ? value.restartKeyword : "",
    invalidMessage: typeof value.invalidMessage === "string" ? value.invalidMessage : "",
  };
  const set = (patch: Partial<typeof v>) => onChange({ ...v, ...patch });
  const missingBot = v.enabled && !v.publicId.trim();
  return (
    <Form layout="vertical" component="div" data-testid="typebot-section">
      <Form.Item label={t("enabled")} extra={t("enabledHint")}>
        <Switch checked={v.enabled} onChange={(enabled) => set({ enabled })} data-testid="typebot-enabled" />
      </Form.Item>
      <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(220px, 1fr))", columnGap: 16 }}>
        <Form.Item label={t("publicId")} extra={missingBot ? undefined : t("publicIdHint")} validateStatus={missingBot ? "error" : undefined} help={missingBot ? t("errPublicId") : undefined} required={v.enabled}>
          <Input value={v.publicId} maxLength={191} onChange={(e) => set({ publicId: e.target.value })} data-testid="typebot-public-id" />
        </Form.Item>
        <Form.Item label={t("restartKeyword")} extra={t("restartKeywordHint")}>
          <Input value={v.restartKeyword} maxLength={100} onChange={(e) => set({ restartKeyword: e.target.value })} data-testid="typebot-restart-keyword" />
        </Form.Item>
      </div>
      <Form.Item label={t("invalidMessage")} extra={t("invalidMessageHint")}>
        <Input.TextArea value={v.invalidMessage} maxLength={1000} autoSize={{ minRows: 2, maxRows: 5 }} onChange={(e) => set({ invalidMessage: e.target.value })} data-testid="typebot-invalid-message" />
      </Form.Item>
    </Form>
  );
}
