/**
 * The SMS campaign's text editor (the ContentEditor the shared campaign form draws): one text,
 * the {{name}} / {{firstName}} hint, and a live counter of its characters and SMS parts — what
 * each contact costs in credits (smsParts, the SMS channel's own rule).
 */
import { Form, Input, Typography } from "antd";
import type { CampaignContentEditorProps } from "@openatende/campaign-engine/src/ui";
import { smsIsGsm7, smsParts } from "@openatende/plugin-sdk/src/sms-text";
import { SMS_MAX_CHARS, SMS_MAX_PARTS, type SmsContent } from "../type";

/** Characters per part of a text: GSM-7 160 (153 once split), UCS-2 70 (67). */
function perPart(text: string, parts: number): number {
  if (smsIsGsm7(text)) return parts > 1 ? 153 : 160;
  return parts > 1 ? 67 : 70;
}

export default function ContentEditor({ runtime, value, onChange, errors, disabled }: CampaignContentEditorProps<SmsContent>) {
  const t = runtime.t;
  const text = value?.text ?? "";
  const parts = text ? smsParts(text) : 0;
  const per = perPart(text, parts);
  const err = errors.text;
  return (
    <div data-testid="campaign-content">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        <span data-testid="campaign-placeholders-hint">{t("smsEditor.placeholders", { nameTag: "{{name}}", firstNameTag: "{{firstName}}" })}</span>
      </Typography.Paragraph>
      <Form.Item label={t("smsEditor.label")} {...(err ? { validateStatus: "error" as const, help: <span data-testid="campaign-error-text">{err}</span> } : {})}>
        <Input.TextArea rows={4} maxLength={SMS_MAX_CHARS} value={text} disabled={disabled} onChange={(e) => onChange({ text: e.target.value })} data-testid="campaign-sms-text" />
      </Form.Item>
      <Typography.Text type={parts > SMS_MAX_PARTS ? "danger" : "secondary"} data-testid="campaign-sms-counter">
        {t("smsEditor.counter", { chars: text.length, parts, perPart: per })}
      </Typography.Text>
      <Typography.Paragraph type="secondary" style={{ marginTop: 4 }}>
        {t("smsEditor.credits")}
        {per < 153 ? ` · ${t("smsEditor.unicode")}` : ""}
      </Typography.Paragraph>
    </div>
  );
}

/** The editor's own check (the server checks again). */
export function validateSmsContent(c: SmsContent, t: (k: string, o?: Record<string, unknown>) => string): Record<string, string> {
  if (!c.text?.trim()) return { text: t("smsEditor.required") };
  if (smsParts(c.text) > SMS_MAX_PARTS) return { text: t("smsEditor.tooLong", { max: SMS_MAX_PARTS }) };
  return {};
}
