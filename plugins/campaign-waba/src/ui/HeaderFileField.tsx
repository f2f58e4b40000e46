/**
 * The file of a template's IMAGE, VIDEO or DOCUMENT header (the same for every contact of the
 * campaign): uploaded with POST /campanhaswaba/media, only of the header's types; the server
 * checks it again against the template on every connection.
 */
import { useState } from "react";
import { Form, Space, Typography } from "antd";
import { FilePick } from "@openatende/campaign-engine/src/ui";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import type { WabaContent } from "../type";

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ""));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}

export function HeaderFileField(props: { runtime: ShellRuntime; types: readonly string[]; value: WabaContent["headerMedia"]; onChange(v: WabaContent["headerMedia"]): void; disabled?: boolean; error?: string }) {
  const { runtime, types } = props;
  const t = runtime.t;
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (!types.includes(file.type)) return setProblem(t("waba.headerFileType", { types: types.join(", ") }));
    setProblem(null);
    setUploading(true);
    try {
      const stored = await runtime.api.post<NonNullable<WabaContent["headerMedia"]>>("/campanhaswaba/media", { file: { fileName: file.name, mimeType: file.type, data: await base64Of(file) } });
      props.onChange({ path: stored.path, mimeType: stored.mimeType, fileName: stored.fileName });
    } catch {
      /* shown by the shell's client */
    } finally {
      setUploading(false);
    }
  };
  const message = problem ?? props.error;
  return (
    <Form.Item label={t("waba.headerFile")} required {...(message ? { validateStatus: "error" as const, help: <span data-testid="campaign-error-headerMedia">{message}</span> } : {})}>
      <Space>
        <FilePick label={t("waba.headerFilePick")} accept={types.join(",")} disabled={props.disabled || uploading} onPick={(f) => void upload(f)} testId="waba-header-file" />
        <Typography.Text type="secondary" data-testid="waba-header-file-name">
          {uploading ? t("waba.uploading") : (props.value?.fileName ?? t("waba.headerFileNone"))}
        </Typography.Text>
      </Space>
    </Form.Item>
  );
}
