import { useRef } from "react";
import { Button, Space, Typography } from "antd";
import { PaperClipOutlined } from "@ant-design/icons";
import type { SampleFile } from "./templates-form";

/** Bytes as the screen shows them (1.2 MB, 300 KB). */
function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The sample file of a new template's IMAGE, VIDEO or DOCUMENT header (Meta reviews the
 * template with it). The form checks its type and size (templates-form.ts) and sends it beside
 * the template; the plugin uploads it to Meta. Unlike the send's HeaderFileInput it keeps the
 * File itself (a sample may be 100 MB: no base64 in memory) and says nothing on its own.
 */
export function SampleFileInput(props: { accept: string; file: SampleFile | null; pickLabel: string; noneLabel: string; onFile(f: File | null): void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <div data-testid="template-header-sample">
      <Space wrap>
        <Button icon={<PaperClipOutlined />} onClick={() => input.current?.click()} data-testid="template-header-sample-pick">
          {props.pickLabel}
        </Button>
        <Typography.Text type={props.file ? undefined : "secondary"} style={{ wordBreak: "break-all" }} data-testid="template-header-sample-name">
          {props.file ? `${props.file.name} · ${sizeText(props.file.size)}` : props.noneLabel}
        </Typography.Text>
      </Space>
      {/* The browser's own picker stays out of sight (outside the Space, whose items a global style shows): the button opens it. */}
      <input
        ref={input}
        type="file"
        accept={props.accept}
        style={{ display: "none" }}
        onChange={(e) => {
          props.onFile(e.target.files?.[0] ?? null);
          // The same file chosen again still counts as a change.
          e.target.value = "";
        }}
        data-testid="template-header-sample-input"
      />
    </div>
  );
}
