/**
 * The normal campaign's message editor (the ContentEditor the shared campaign form draws): one
 * to three message variants — each contact gets one — with the {{name}} / {{firstName}} hint,
 * and an optional file of at most 10 MB, uploaded at once through POST /campanhas/media (the
 * plugin's own route, which stores it among the tenant's files).
 */
import { useState } from "react";
import { Button, Form, Input, Space, Typography } from "antd";
import { FilePick, type CampaignContentEditorProps } from "@openatende/campaign-engine/src/ui";
import { CAMPAIGN_MAX_VARIANTS } from "@openatende/plugin-sdk/src/campaign-contract";
import type { NormalContent } from "../type";

export const MEDIA_MAX_BYTES = 10 * 1024 * 1024;

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ""));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}

export default function ContentEditor({ runtime, value, onChange, errors, disabled }: CampaignContentEditorProps<NormalContent>) {
  const t = runtime.t;
  const content: NormalContent = value ?? { messages: [""], media: null };
  const [uploading, setUploading] = useState(false);
  const [mediaError, setMediaError] = useState<string | null>(null);
  const set = (patch: Partial<NormalContent>) => onChange({ ...content, ...patch });
  const setMessage = (i: number, text: string) => set({ messages: content.messages.map((m, j) => (j === i ? text : m)) });

  const upload = async (file: File | undefined) => {
    setMediaError(null);
    if (!file) return;
    if (file.size > MEDIA_MAX_BYTES) return setMediaError(t("editor.mediaTooLarge"));
    setUploading(true);
    try {
      const stored = await runtime.api.post<NonNullable<NormalContent["media"]>>("/campanhas/media", { file: { fileName: file.name, mimeType: file.type || "application/octet-stream", data: await base64Of(file) } });
      set({ media: { path: stored.path, mimeType: stored.mimeType, fileName: stored.fileName } });
    } catch (err) {
      const e = err as { detail?: string; title?: string };
      setMediaError(e.detail || e.title || String(err));
      runtime.notify.error(err);
    } finally {
      setUploading(false);
    }
  };

  const fieldError = (f: string) => (errors[f] ? { validateStatus: "error" as const, help: <span data-testid={`campaign-error-${f}`}>{errors[f]}</span> } : {});
  return (
    <div data-testid="campaign-content">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t("editor.variantsHint")} · <span data-testid="campaign-placeholders-hint">{t("editor.placeholders", { nameTag: "{{name}}", firstNameTag: "{{firstName}}" })}</span>
      </Typography.Paragraph>
      {content.messages.map((m, i) => (
        <Form.Item
          key={i}
          label={
            <Space>
              {t("editor.variant", { n: i + 1 })}
              {content.messages.length > 1 ? (
                <Button type="link" size="small" danger disabled={disabled} onClick={() => set({ messages: content.messages.filter((_, j) => j !== i) })} data-testid={`campaign-message-remove-${i}`}>
                  {t("editor.remove")}
                </Button>
              ) : null}
            </Space>
          }
          {...fieldError(`messages.${i}`)}
        >
          <Input.TextArea rows={3} maxLength={4096} showCount value={m} disabled={disabled} onChange={(e) => setMessage(i, e.target.value)} data-testid={`campaign-message-${i}`} />
        </Form.Item>
      ))}
      {errors.messages ? <Typography.Text type="danger">{errors.messages}</Typography.Text> : null}
      {content.messages.length < CAMPAIGN_MAX_VARIANTS ? (
        <Button size="small" disabled={disabled} onClick={() => set({ messages: [...content.messages, ""] })} style={{ marginBottom: 16 }} data-testid="campaign-message-add">
          {t("editor.add")}
        </Button>
      ) : null}
      <Form.Item label={t("editor.media")} {...(mediaError ? { validateStatus: "error" as const, help: <span data-testid="campaign-error-media">{mediaError}</span> } : fieldError("media"))}>
        {content.media ? (
          <Space>
            <Typography.Text data-testid="campaign-media-name">{content.media.fileName}</Typography.Text>
            <Button size="small" danger disabled={disabled} onClick={() => set({ media: null })} data-testid="campaign-media-remove">
              {t("editor.mediaRemove")}
            </Button>
          </Space>
        ) : (
          <Space>
            <FilePick label={t("editor.mediaPick")} disabled={disabled || uploading} onPick={(f) => void upload(f)} testId="campaign-media" />
            {uploading ? <Typography.Text type="secondary">{t("editor.uploading")}</Typography.Text> : null}
          </Space>
        )}
      </Form.Item>
    </div>
  );
}

/** The editor's own check (the server checks again): each variant has text, unless a file goes with it. */
export function validateNormalContent(c: NormalContent, t: (k: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  c.messages.forEach((m, i) => {
    if (!m.trim() && !c.media) out[`messages.${i}`] = t("editor.required");
  });
  return out;
}
