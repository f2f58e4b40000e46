import { useEffect, useRef, useState } from "react";
import { Button, Input, Modal, Space, Tooltip, Typography } from "antd";
import { AudioOutlined, CloseOutlined, LinkOutlined, PictureOutlined, SendOutlined } from "@ant-design/icons";
import { AUDIO_MIN_MS, CHAT_FILE_MAX_BYTES, imageUrlProblem, TEXT_MAX } from "../limits";
import { useRuntime } from "./runtime";
import { base64Of } from "./media";
import type { ChatMessage, Target } from "./types";

const MB = 1024 * 1024;

interface Recording {
  recorder: MediaRecorder;
  stream: MediaStream;
  chunks: Blob[];
  startedAt: number;
  cancelled: boolean;
}

/** Text (Enter sends, Shift+Enter breaks the line), an image file or URL, and a recorded audio. */
export function Composer({ target, onSent }: { target: Target; onSent(m: ChatMessage): void }) {
  const runtime = useRuntime();
  const t = runtime.t;
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [urlOpen, setUrlOpen] = useState(false);
  const [url, setUrl] = useState("");
  const [urlTried, setUrlTried] = useState(false);
  const [recording, setRecording] = useState<Recording | null>(null);
  const [seconds, setSeconds] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - recording.startedAt) / 1000)), 250);
    return () => clearInterval(timer);
  }, [recording]);
  // Leaving the conversation stops the microphone.
  useEffect(() => () => recording?.stream.getTracks().forEach((tr) => tr.stop()), [recording]);

  const run = async (fn: () => Promise<ChatMessage>) => {
    setBusy(true);
    try {
      onSent(await fn());
      return true;
    } catch (err) {
      runtime.notify.error(err);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const sendText = async () => {
    const body = text.trim();
    if (!body || busy) return;
    if (await run(() => runtime.api.post<ChatMessage>("/chat-interno/messages", { ...target, body }))) setText("");
  };

  const sendImage = async (file: File) => {
    if (!file.type.startsWith("image/")) return runtime.notify.info(t("errImageOnly"));
    if (file.size > CHAT_FILE_MAX_BYTES) return runtime.notify.info(t("errTooLarge", { max: CHAT_FILE_MAX_BYTES / MB }));
    const data = await base64Of(file);
    await run(() => runtime.api.post<ChatMessage>("/chat-interno/media", { ...target, file: { fileName: file.name, mimeType: file.type, data } }));
  };

  const sendUrl = async () => {
    setUrlTried(true);
    if (imageUrlProblem(url)) return;
    if (await run(() => runtime.api.post<ChatMessage>("/chat-interno/messages", { ...target, imageUrl: url.trim() }))) {
      setUrlOpen(false);
      setUrl("");
      setUrlTried(false);
    }
  };

  const startRecording = async () => {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const recorder = new MediaRecorder(stream);
      const rec: Recording = { recorder, stream, chunks: [], startedAt: Date.now(), cancelled: false };
      recorder.ondataavailable = (e) => e.data.size && rec.chunks.push(e.data);
      recorder.onstop = () => {
        stream.getTracks().forEach((tr) => tr.stop());
        setRecording(null);
        if (rec.cancelled) return;
        const durationMs = Date.now() - rec.startedAt;
        if (durationMs < AUDIO_MIN_MS) return runtime.notify.info(t("errAudioShort"));
        const blob = new Blob(rec.chunks, { type: recorder.mimeType || "audio/webm" });
        if (blob.size > CHAT_FILE_MAX_BYTES) return runtime.notify.info(t("errTooLarge", { max: CHAT_FILE_MAX_BYTES / MB }));
        void base64Of(blob).then((data) =>
          run(() => runtime.api.post<ChatMessage>("/chat-interno/media", { ...target, durationMs, file: { fileName: `audio-${new Date().toISOString().replace(/[:.]/g, "-")}.webm`, mimeType: blob.type, data } })),
        );
      };
      recorder.start(250);
      setSeconds(0);
      setRecording(rec);
    } catch {
      runtime.notify.info(t("errMic"));
    }
  };

  const stopRecording = (cancel: boolean) => {
    if (!recording) return;
    recording.cancelled = cancel;
    recording.recorder.stop();
  };

  if (recording)
    return (
      <div style={{ padding: 8, borderTop: "1px solid rgba(128,128,128,0.25)", display: "flex", alignItems: "center", gap: 8 }}>
        <span style={{ width: 10, height: 10, borderRadius: 5, background: "#ff4d4f" }} />
        <Typography.Text data-testid="ic-recording" style={{ flex: 1 }}>
          {t("recording", { seconds })}
        </Typography.Text>
        <Button icon={<CloseOutlined />} onClick={() => stopRecording(true)} data-testid="ic-record-cancel">
          {t("cancelRecording")}
        </Button>
        <Button type="primary" icon={<SendOutlined />} onClick={() => stopRecording(false)} data-testid="ic-record-stop">
          {t("stopRecording")}
        </Button>
      </div>
    );

  const urlProblem = urlTried ? imageUrlProblem(url) : null;
  return (
    <div style={{ padding: 8, borderTop: "1px solid rgba(128,128,128,0.25)", display: "flex", alignItems: "flex-end", gap: 8 }}>
      <input
        ref={fileInput}
        type="file"
        accept="image/*"
        style={{ display: "none" }}
        data-testid="ic-image-input"
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = "";
          if (f) void sendImage(f);
        }}
      />
      <Space.Compact>
        <Tooltip title={t("attachImage")}>
          <Button icon={<PictureOutlined />} onClick={() => fileInput.current?.click()} disabled={busy} data-testid="ic-attach" aria-label={t("attachImage")} />
        </Tooltip>
        <Tooltip title={t("imageUrl")}>
          <Button icon={<LinkOutlined />} onClick={() => setUrlOpen(true)} disabled={busy} data-testid="ic-image-url" aria-label={t("imageUrl")} />
        </Tooltip>
      </Space.Compact>
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={t("placeholder")}
        autoSize={{ minRows: 1, maxRows: 5 }}
        maxLength={TEXT_MAX}
        data-testid="ic-input"
        onPressEnter={(e) => {
          if (e.shiftKey) return;
          e.preventDefault();
          void sendText();
        }}
      />
      {text.trim() ? (
        <Button type="primary" icon={<SendOutlined />} onClick={() => void sendText()} loading={busy} data-testid="ic-send" aria-label={t("send")} />
      ) : (
        <Tooltip title={t("record")}>
          <Button icon={<AudioOutlined />} onClick={() => void startRecording()} disabled={busy} data-testid="ic-record" aria-label={t("record")} />
        </Tooltip>
      )}
      <Modal open={urlOpen} title={t("imageUrl")} okText={t("send")} cancelText={t("cancel")} onOk={() => void sendUrl()} onCancel={() => setUrlOpen(false)} confirmLoading={busy} destroyOnHidden>
        <Typography.Text>{t("imageUrlLabel")}</Typography.Text>
        <Input value={url} onChange={(e) => setUrl(e.target.value)} status={urlProblem ? "error" : undefined} placeholder="https://" data-testid="ic-image-url-input" onPressEnter={() => void sendUrl()} />
        {urlProblem && <Typography.Text type="danger">{t("errImageUrl")}</Typography.Text>}
      </Modal>
    </div>
  );
}
