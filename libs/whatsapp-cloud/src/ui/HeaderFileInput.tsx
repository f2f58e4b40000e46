import { useRef, useState } from "react";
import { Alert, Button, Space, Typography } from "antd";
import { PaperClipOutlined } from "@ant-design/icons";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import type { HeaderFile } from "./template-fill";

/** The core's cap on a chat file (spec §9: 10 MB each). */
const MAX_BYTES = 10 * 1024 * 1024;

/** The file's bytes as base64 (what POST /messages/{ticketId}/template takes). */
function base64Of(f: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ""));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(f);
  });
}

/**
 * The file of a template's IMAGE, VIDEO or DOCUMENT header, chosen for this send (Meta needs
 * one each time): only the header's types, at most 10 MB; says so when the agent tried to send
 * without one or picked the wrong kind.
 */
export function HeaderFileInput(props: { t: ShellRuntime["t"]; accept: string; file: HeaderFile | null; onFile(f: HeaderFile | null): void; missing: boolean }) {
  const { t, accept } = props;
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const pick = async (f: File | undefined) => {
    if (!f) return;
    const wrong = !accept.split(",").includes(f.type) ? t("picker.headerFileType", { types: accept }) : f.size > MAX_BYTES ? t("picker.headerFileTooLarge") : null;
    setProblem(wrong);
    props.onFile(wrong ? null : { data: await base64Of(f), mimeType: f.type, fileName: f.name });
  };
  return (
    <Space direction="vertical" size={4} data-testid="waba-template-header-file">
      <Space>
        <Button icon={<PaperClipOutlined />} onClick={() => input.current?.click()} data-testid="waba-template-header-pick">
          {t("picker.headerFile")}
        </Button>
        <Typography.Text type="secondary" data-testid="waba-template-header-name">
          {props.file?.fileName ?? t("picker.headerFileNone")}
        </Typography.Text>
      </Space>
      <input ref={input} type="file" accept={accept} hidden onChange={(e) => void pick(e.target.files?.[0])} data-testid="waba-template-header-input" />
      {problem ? <Alert type="error" showIcon data-testid="waba-template-header-problem" message={problem} /> : props.missing ? <Alert type="error" showIcon data-testid="waba-template-header-missing" message={t("picker.headerFileMissing")} /> : null}
    </Space>
  );
}
