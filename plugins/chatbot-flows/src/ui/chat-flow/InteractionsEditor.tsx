/**
 * A message node's interactions, sent in order: texts, files (≤ 5 MB, refused with a clear
 * message before any upload) and pauses.
 */
import { useRef, useState } from "react";
import { Button, Input, InputNumber, Space } from "antd";
import { ClockCircleOutlined, FileOutlined, FontSizeOutlined, PaperClipOutlined } from "@ant-design/icons";
import { FLOW_MEDIA_MAX_BYTES, type Interaction } from "../../model";
import { MAX_DELAY_SECONDS as DELAY_MAX_SECONDS } from "../../flows/node-data";
import { flowsApi } from "./api";
import { useBuilder } from "./context";
import { Field, ItemBox, move } from "./Field";


function MediaPicker({ onUploaded, current }: { current?: string; onUploaded: (media: Extract<Interaction, { type: "media" }>["media"]) => void }) {
  const b = useBuilder();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (file.size > FLOW_MEDIA_MAX_BYTES) {
      setError(b.tr("mediaTooLarge", { name: file.name, max: FLOW_MEDIA_MAX_BYTES / 1024 / 1024 }));
      return;
    }
    setBusy(true);
    try {
      onUploaded(await flowsApi(b.rt).uploadMedia(file));
    } catch (err) {
      b.rt.notify.error(err);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };
  return (
    <Field label={b.tr("mediaFile")} hint={b.tr("mediaHint", { max: FLOW_MEDIA_MAX_BYTES / 1024 / 1024 })} error={error}>
      <Space wrap>
        <Button icon={<PaperClipOutlined />} loading={busy} onClick={() => input.current?.click()} data-testid="flow-media-pick">
          {current ? b.tr("mediaReplace") : b.tr("mediaChoose")}
        </Button>
        {current ? (
          <span style={{ fontSize: 12 }} data-testid="flow-media-name">
            <FileOutlined /> {current}
          </span>
        ) : null}
      </Space>
      <input ref={input} type="file" hidden data-testid="flow-media-input" onChange={(e) => void pick(e.target.files?.[0])} />
    </Field>
  );
}

export function InteractionsEditor({ value, onChange }: { value: Interaction[]; onChange: (next: Interaction[]) => void }) {
  const b = useBuilder();
  const set = (i: number, x: Interaction) => onChange(value.map((y, j) => (j === i ? x : y)));
  const labels = { up: b.tr("moveUp"), down: b.tr("moveDown"), remove: b.tr("remove") };
  // A media interaction not uploaded yet is kept only here (the model's media is required).
  const [pending, setPending] = useState<number[]>([]);
  return (
    <div data-testid="flow-interactions">
      {value.map((it, i) => (
        <ItemBox
          key={i}
          testid={`flow-interaction-${it.type}`}
          title={b.tr(`interaction.${it.type}`)}
          labels={labels}
          onUp={i > 0 ? () => onChange(move(value, i, -1)) : undefined}
          onDown={i < value.length - 1 ? () => onChange(move(value, i, 1)) : undefined}
          onRemove={() => onChange(value.filter((_, j) => j !== i))}
        >
          {it.type === "text" ? (
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} value={it.text} maxLength={4096} onChange={(e) => set(i, { ...it, text: e.target.value })} placeholder={b.tr("textPlaceholder", { name: "{{name}}", protocol: "{{protocol}}" })} data-testid="flow-text-input" />
          ) : it.type === "media" ? (
            <>
              <MediaPicker current={it.media.fileName} onUploaded={(media) => set(i, { ...it, media })} />
              <Field label={b.tr("caption")}>
                <Input value={it.caption ?? ""} maxLength={1024} onChange={(e) => set(i, { ...it, caption: e.target.value || undefined })} />
              </Field>
            </>
          ) : (
            <Space>
              <InputNumber min={1} max={DELAY_MAX_SECONDS} value={it.seconds} onChange={(v) => set(i, { ...it, seconds: Math.max(1, Math.min(DELAY_MAX_SECONDS, Number(v) || 1)) })} data-testid="flow-delay-input" />
              <span style={{ fontSize: 12 }}>{b.tr("seconds")}</span>
            </Space>
          )}
        </ItemBox>
      ))}
      {pending.map((k) => (
        <ItemBox key={`p${k}`} testid="flow-interaction-media-new" title={b.tr("interaction.media")} labels={labels} onRemove={() => setPending(pending.filter((x) => x !== k))}>
          <MediaPicker
            onUploaded={(media) => {
              setPending(pending.filter((x) => x !== k));
              onChange([...value, { type: "media", media }]);
            }}
          />
        </ItemBox>
      ))}
      <Space wrap size={4}>
        <Button size="small" icon={<FontSizeOutlined />} onClick={() => onChange([...value, { type: "text", text: "" }])} data-testid="flow-add-text">
          {b.tr("interaction.text")}
        </Button>
        <Button size="small" icon={<PaperClipOutlined />} onClick={() => setPending([...pending, Date.now()])} data-testid="flow-add-media">
          {b.tr("interaction.media")}
        </Button>
        <Button size="small" icon={<ClockCircleOutlined />} onClick={() => onChange([...value, { type: "delay", seconds: 3 }])} data-testid="flow-add-delay">
          {b.tr("interaction.delay")}
        </Button>
      </Space>
    </div>
  );
}
