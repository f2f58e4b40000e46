import { useEffect, useMemo, useRef, useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Button, Input, Popover, Tooltip } from "antd";
import type { TextAreaRef } from "antd/es/input/TextArea";
import { CloseOutlined, EditOutlined, EnterOutlined, FileOutlined, PaperClipOutlined, PlayCircleOutlined, SendOutlined, SmileOutlined, ThunderboltOutlined, UndoOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { ApiError } from "../../api/client";
import type { Message } from "../../stores/messages";
import type { Ticket } from "../../stores/tickets";
import { FILE_MAX_BYTES, FILES_TOTAL_MAX_BYTES } from "../../ui/constants";
import type { Attendance, QuickMessage } from "./attendance";
import { fileSize } from "./format";
import { checkFiles } from "./files";
import { readBase64 } from "./media";
import { quoteText } from "./MessageBubble";
import { ComposerExtraButtons, SignatureToggle } from "./ComposerExtras";
import { ComposerActions, uiTicketOf } from "../../plugins/attendance-slots";

const EMOJIS = ["😀", "😁", "😂", "😊", "😍", "😉", "🙂", "🤔", "😅", "😢", "😮", "🙏", "👍", "👎", "👏", "🙌", "💪", "👋", "❤️", "🎉", "✅", "❌", "⭐", "🔥"];

export interface Attachment {
  id: string;
  file: File;
  previewUrl?: string;
}

export const Composer = observer(function Composer({
  a,
  ticket,
  replyTo,
  onCancelReply,
  editing,
  onCancelEdit,
  attachments,
  setAttachments,
  onAccept,
  onReopen,
}: {
  a: Attendance;
  ticket: Ticket;
  replyTo: Message | null;
  onCancelReply: () => void;
  editing: Message | null;
  onCancelEdit: () => void;
  attachments: Attachment[];
  setAttachments: (f: (prev: Attachment[]) => Attachment[]) => void;
  onAccept: () => void;
  onReopen: () => void;
}) {
  const { t } = useTranslation();
  const root = useRoot();
  const [text, setText] = useState("");
  const [quickIndex, setQuickIndex] = useState(0);
  const [candidates, setCandidates] = useState<string[] | null>(null);
  const [sending, setSending] = useState(false);
  const inputRef = useRef<TextAreaRef>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const drafts = useRef(new Map<number, string>());

  // A draft per ticket: switching chats keeps what was being written.
  useEffect(() => {
    setText(drafts.current.get(ticket.id) ?? "");
    setCandidates(null);
    inputRef.current?.focus();
    return () => {
      // Saved by the effect below on every change.
    };
  }, [ticket.id]);
  useEffect(() => {
    drafts.current.set(ticket.id, text);
  }, [text]);

  useEffect(() => {
    if (editing) {
      setText(editing.body ?? "");
      inputRef.current?.focus();
    }
  }, [editing?.id]);
  useEffect(() => {
    if (replyTo) inputRef.current?.focus();
  }, [replyTo?.id]);

  // "/key": the quick messages whose key starts with what follows the slash.
  const slash = /^\/(\S*)$/.exec(text);
  useEffect(() => {
    if (slash) void a.loadQuickMessages();
  }, [!!slash]);
  const quick: QuickMessage[] = useMemo(() => {
    if (!slash || !a.quickMessages) return [];
    const k = slash[1].toLowerCase();
    return a.quickMessages.filter((q) => q.key.toLowerCase().startsWith(k)).slice(0, 30);
  }, [slash?.[1], a.quickMessages]);
  useEffect(() => setQuickIndex(0), [slash?.[1]]);

  const blocked = ticket.status === "closed" ? "closed" : ticket.status === "pending" ? "pending" : null;
  if (blocked) {
    return (
      <div className="oa-composer oa-composer-blocked" data-testid="composer-blocked">
        <span>{blocked === "closed" ? t("atendimento.composer.closed") : t("atendimento.composer.pending")}</span>
        {blocked === "closed" ? (
          <Button icon={<UndoOutlined />} onClick={onReopen}>
            {t("atendimento.actions.reopen")}
          </Button>
        ) : (
          <Button type="primary" icon={<PlayCircleOutlined />} onClick={onAccept} data-testid="composer-accept">
            {t("atendimento.actions.accept")}
          </Button>
        )}
      </div>
    );
  }

  function pickQuick(q: QuickMessage) {
    setText(q.message);
    setCandidates(null);
    inputRef.current?.focus();
  }

  function addFiles(list: FileList | File[]) {
    const files = [...list];
    if (!files.length) return;
    const { ok, errors } = checkFiles(
      attachments.map((x) => x.file),
      files,
      root.session.locale,
      (k, v) => t(k, v ?? {}),
    );
    if (errors.length) root.ui.notify({ kind: "error", title: t("atendimento.composer.filesRefused"), detail: errors.join(" ") });
    const accepted = ok.map((i) => files[i]);
    if (accepted.length) {
      setAttachments((prev) => [
        ...prev,
        ...accepted.map((file) => ({ id: `${file.name}-${file.size}-${Math.random().toString(36).slice(2)}`, file, previewUrl: /^(image|video|audio)\//.test(file.type) ? URL.createObjectURL(file) : undefined })),
      ]);
    }
  }

  async function resolveSlash(key: string): Promise<boolean> {
    try {
      const q = await root.api.get<QuickMessage>("/quick-messages/resolve", { query: { key }, silent: true });
      setText(q.message);
      setCandidates(null);
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.code === "ERR_QUICK_MESSAGE_AMBIGUOUS") {
        setCandidates(((e.data.candidates as string[]) ?? []).map((c) => c.replace(/^\//, "")));
        root.ui.notify({ kind: "warning", title: e.title, detail: e.detail });
      } else root.notifyError(e);
      return false;
    }
  }

  async function submit() {
    const body = text.trim();
    if (sending) return;
    if (editing) {
      if (!body || body === editing.body) return onCancelEdit();
      setSending(true);
      try {
        await a.messages.edit(editing.id, body);
        setText("");
        onCancelEdit();
      } catch {
        /* shown by the client */
      } finally {
        setSending(false);
      }
      return;
    }
    if (!body && !attachments.length) return;
    // "/key" alone: expanded (exact key, or the one key starting with it); the agent then sends it.
    const only = /^\/(\S+)$/.exec(body);
    if (only && !attachments.length) {
      const exact = quick.find((q) => q.key.toLowerCase() === only[1].toLowerCase());
      if (exact) pickQuick(exact);
      else await resolveSlash(only[1]);
      return;
    }
    setSending(true);
    const files = attachments;
    try {
      const medias = await Promise.all(files.map(async (f) => ({ fileName: f.file.name, mimeType: f.file.type || "application/octet-stream", size: f.file.size, data: await readBase64(f.file), previewUrl: f.previewUrl })));
      setText("");
      drafts.current.delete(ticket.id);
      setAttachments(() => []);
      const quotedMsgId = replyTo?.id;
      onCancelReply();
      void a.messages.send(ticket.id, { body, quotedMsgId, medias });
    } catch {
      root.ui.notify({ kind: "error", title: t("atendimento.composer.readFailed") });
    } finally {
      setSending(false);
      inputRef.current?.focus();
    }
  }

  function onKeyDown(e: React.KeyboardEvent<HTMLTextAreaElement>) {
    if (quick.length && slash) {
      if (e.key === "ArrowDown") {
        e.preventDefault();
        setQuickIndex((i) => (i + 1) % quick.length);
        return;
      }
      if (e.key === "ArrowUp") {
        e.preventDefault();
        setQuickIndex((i) => (i - 1 + quick.length) % quick.length);
        return;
      }
      if (e.key === "Tab" || (e.key === "Enter" && !e.shiftKey && quick.length > 1)) {
        e.preventDefault();
        pickQuick(quick[quickIndex]);
        return;
      }
    }
    if (e.key === "Escape") {
      if (editing) onCancelEdit();
      else if (replyTo) onCancelReply();
      setCandidates(null);
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  }

  const showQuick = (!!slash && quick.length > 0) || !!candidates?.length;
  const quickList = candidates?.length ? (a.quickMessages ?? []).filter((q) => candidates.includes(q.key)) : quick;

  return (
    <div
      className="oa-composer"
      data-testid="composer"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes("Files")) e.preventDefault();
      }}
      onDrop={(e) => {
        if (e.dataTransfer.files.length) {
          e.preventDefault();
          addFiles(e.dataTransfer.files);
        }
      }}
    >
      {replyTo ? (
        <div className="oa-composer-context" data-testid="composer-reply">
          <EnterOutlined />
          <div>
            <strong>{t("atendimento.composer.replyingTo", { name: replyTo.fromMe ? t("atendimento.message.you") : (ticket.contact?.name ?? "") })}</strong>
            <span>{quoteText(replyTo, (k) => t(k))}</span>
          </div>
          <Button type="text" size="small" icon={<CloseOutlined />} onClick={onCancelReply} aria-label={t("common.cancel")} />
        </div>
      ) : null}
      {editing ? (
        <div className="oa-composer-context is-edit" data-testid="composer-edit">
          <EditOutlined />
          <div>
            <strong>{t("atendimento.composer.editing")}</strong>
            <span>{quoteText(editing, (k) => t(k))}</span>
          </div>
          <Button
            type="text"
            size="small"
            icon={<CloseOutlined />}
            onClick={() => {
              setText("");
              onCancelEdit();
            }}
            aria-label={t("common.cancel")}
          />
        </div>
      ) : null}
      {attachments.length ? (
        <div className="oa-attachments" data-testid="composer-attachments">
          {attachments.map((f) => (
            <div className="oa-attachment" key={f.id}>
              {f.previewUrl && f.file.type.startsWith("image/") ? <img src={f.previewUrl} alt="" /> : <FileOutlined />}
              <span className="oa-attachment-name" title={f.file.name}>
                {f.file.name}
                <small>{fileSize(f.file.size, root.session.locale)}</small>
              </span>
              <Button type="text" size="small" icon={<CloseOutlined />} onClick={() => setAttachments((prev) => prev.filter((x) => x.id !== f.id))} aria-label={t("atendimento.composer.removeFile")} />
            </div>
          ))}
          <span className="oa-muted oa-small oa-attachments-total">
            {t("atendimento.composer.total", { size: fileSize(attachments.reduce((s, f) => s + f.file.size, 0), root.session.locale), max: fileSize(FILES_TOTAL_MAX_BYTES, root.session.locale) })}
          </span>
        </div>
      ) : null}
      <Popover
        open={showQuick}
        placement="topLeft"
        arrow={false}
        classNames={{ root: "oa-quick-popover" }}
        content={
          <div className="oa-quick" role="listbox" data-testid="quick-list">
            <div className="oa-quick-head">
              <ThunderboltOutlined /> {candidates?.length ? t("atendimento.composer.quickAmbiguous") : t("atendimento.composer.quickTitle")}
            </div>
            {quickList.map((q, i) => (
              <button
                type="button"
                role="option"
                aria-selected={i === quickIndex}
                key={q.id}
                className={`oa-quick-item${i === quickIndex ? " is-active" : ""}`}
                onMouseDown={(e) => {
                  e.preventDefault();
                  pickQuick(q);
                }}
              >
                <strong>/{q.key}</strong>
                <span>{q.message}</span>
              </button>
            ))}
          </div>
        }
      >
        <div className="oa-composer-row">
          <Popover
            trigger="click"
            placement="topLeft"
            content={
              <div className="oa-emoji-grid">
                {EMOJIS.map((e) => (
                  <button type="button" key={e} onClick={() => setText((x) => x + e)} aria-label={e}>
                    {e}
                  </button>
                ))}
              </div>
            }
          >
            <Button type="text" shape="circle" icon={<SmileOutlined />} aria-label={t("atendimento.composer.emoji")} />
          </Popover>
          <Tooltip title={t("atendimento.composer.attach", { max: fileSize(FILE_MAX_BYTES, root.session.locale), total: fileSize(FILES_TOTAL_MAX_BYTES, root.session.locale) })}>
            <Button type="text" shape="circle" icon={<PaperClipOutlined />} onClick={() => fileRef.current?.click()} disabled={!!editing} aria-label={t("atendimento.composer.attachShort")} data-testid="composer-attach" />
          </Tooltip>
          <input
            ref={fileRef}
            type="file"
            multiple
            hidden
            data-testid="composer-file"
            onChange={(e) => {
              if (e.target.files) addFiles(e.target.files);
              e.target.value = "";
            }}
          />
          <ComposerExtraButtons ticket={ticket} disabled={!!editing} />
          <ComposerActions ticket={uiTicketOf(ticket)} text={text} setText={setText} send={async (body) => void (await a.messages.send(ticket.id, { body }))} />
          <Input.TextArea
            ref={inputRef}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              if (candidates) setCandidates(null);
            }}
            onKeyDown={onKeyDown}
            onPaste={(e) => {
              if (e.clipboardData.files.length) {
                e.preventDefault();
                addFiles(e.clipboardData.files);
              }
            }}
            autoSize={{ minRows: 1, maxRows: 7 }}
            placeholder={editing ? t("atendimento.composer.editPlaceholder") : t("atendimento.composer.placeholder")}
            variant="borderless"
            className="oa-composer-input"
            data-testid="composer-input"
            aria-label={t("atendimento.composer.placeholder")}
          />
          <Button
            type="primary"
            shape="circle"
            size="large"
            icon={editing ? <EditOutlined /> : <SendOutlined />}
            onClick={() => void submit()}
            loading={sending}
            disabled={!text.trim() && !attachments.length}
            aria-label={editing ? t("atendimento.composer.saveEdit") : t("atendimento.composer.send")}
            data-testid="composer-send"
          />
        </div>
      </Popover>
      <SignatureToggle />
      <div className="oa-composer-hint">{t("atendimento.composer.hint")}</div>
    </div>
  );
});
