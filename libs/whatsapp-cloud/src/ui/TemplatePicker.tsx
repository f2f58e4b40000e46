import { useEffect, useMemo, useState } from "react";
import { Alert, Button, Input, Select, Space, Typography } from "antd";
import { ClockCircleOutlined, SendOutlined } from "@ant-design/icons";
import type { ChannelTemplate } from "@openatende/plugin-sdk";
import type { ComposerReplacementProps, ShellRuntime } from "@openatende/plugin-sdk/ui";
import { fieldsOf, filledText, headerFileTypes, initialValues, missingFields, templateKey, templateRequest, unsupportedHeader, type HeaderFile, type TemplateField } from "./template-fill";
import { HeaderFileInput } from "./HeaderFileInput";

const PAGE = 100;
/** A guard against a provider whose cursor never ends. */
const MAX_PAGES = 50;

/** Every APPROVED template of the connection, page after page (GET /templates follows Meta's cursor). */
async function loadApproved(runtime: ShellRuntime, connectionId: number): Promise<ChannelTemplate[]> {
  const all: ChannelTemplate[] = [];
  let after: string | null = null;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page: { templates: ChannelTemplate[]; next: string | null } = await runtime.api.get("/templates", { query: { connectionId, status: "APPROVED", limit: PAGE, after } });
    all.push(...page.templates.filter((t) => t.status === "APPROVED"));
    if (!page.next) break;
    after = page.next;
  }
  return all;
}

/**
 * In place of the composer on a WhatsApp Cloud ticket whose 24-hour window closed: says so,
 * and offers the connection's approved templates with an input per variable (the body's
 * {{1}} starts as the contact's first name), a live preview, and a send through
 * POST /messages/{ticketId}/template. The message reaches the chat by the socket; the picker
 * stays for the next one. API errors are shown by the shell's client.
 */
export default function TemplatePicker({ runtime, ticket }: ComposerReplacementProps) {
  const t = runtime.t;
  const [templates, setTemplates] = useState<ChannelTemplate[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [contactName, setContactName] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [tried, setTried] = useState(false);
  const [sending, setSending] = useState(false);
  const [file, setFile] = useState<HeaderFile | null>(null);

  useEffect(() => {
    if (!ticket.connectionId) return void setTemplates([]);
    let alive = true;
    setFailed(false);
    loadApproved(runtime, ticket.connectionId)
      .then((list) => alive && setTemplates(list))
      .catch(() => alive && (setFailed(true), setTemplates([])));
    return () => {
      alive = false;
    };
  }, [ticket.connectionId, attempt]);

  useEffect(() => {
    let alive = true;
    runtime.api
      .get<{ name?: string | null }>(`/contacts/${ticket.contactId}`, { silent: true })
      .then((c) => alive && setContactName(c.name ?? null))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [ticket.contactId]);

  // The contact's name may arrive after a template was chosen: it still fills an empty {{1}}.
  useEffect(() => {
    const first = chosen && templates?.find((x) => templateKey(x) === chosen);
    if (first && contactName && !(values["body.1"] ?? "").trim() && "body.1" in values) setValues({ ...values, "body.1": initialValues(first, contactName)["body.1"] ?? "" });
  }, [contactName]);

  const template = useMemo(() => templates?.find((x) => templateKey(x) === chosen) ?? null, [templates, chosen]);
  const fields = template ? fieldsOf(template) : [];
  const missing = template ? missingFields(template, values) : [];
  const fileTypes = template ? headerFileTypes(template) : null;

  const choose = (key: string) => {
    const next = templates?.find((x) => templateKey(x) === key);
    setChosen(key);
    setTried(false);
    setFile(null);
    setValues(next ? initialValues(next, contactName) : {});
  };

  const label = (f: TemplateField) => (f.part === "header" ? t("picker.headerVar", { n: f.n }) : f.part === "body" ? t("picker.bodyVar", { n: f.n }) : t("picker.buttonVar", { text: template?.buttons?.[f.n]?.text ?? f.n }));

  const send = async () => {
    if (!template) return;
    setTried(true);
    if (missing.length || unsupportedHeader(template) || (fileTypes && !file)) return;
    setSending(true);
    try {
      await runtime.api.post(`/messages/${ticket.id}/template`, templateRequest(template, values, file));
      setTried(false);
      setFile(null);
      setValues(initialValues(template, contactName));
    } catch {
      /* shown by the shell's client */
    } finally {
      setSending(false);
    }
  };

  const w = ticket.serviceWindow;
  const hours = w?.hours ?? 24;
  const when = w?.closesAt ? new Date(w.closesAt).toLocaleString(runtime.locale, { day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit" }) : null;

  return (
    <div className="oa-composer" data-testid="waba-template-picker" style={{ display: "flex", flexDirection: "column", gap: 8 }}>
      <Alert
        type="warning"
        showIcon
        icon={<ClockCircleOutlined />}
        data-testid="waba-window-notice"
        style={{ padding: "6px 12px" }}
        message={
          <>
            <strong>{t("picker.closedTitle", { hours })}</strong>
            <div style={{ fontSize: 12 }}>{when ? t("picker.closedSince", { when, hours }) : t("picker.closedNever", { hours })}</div>
          </>
        }
      />
      {failed ? (
        <Alert type="error" message={t("picker.loadFailed")} action={<Button size="small" onClick={() => setAttempt((n) => n + 1)}>{t("picker.retry")}</Button>} />
      ) : templates && !templates.length ? (
        <Typography.Text type="secondary" data-testid="waba-template-none">
          {t("picker.none")}
        </Typography.Text>
      ) : (
        <Select
          showSearch
          loading={!templates}
          value={chosen ?? undefined}
          placeholder={t("picker.choose")}
          onChange={choose}
          optionFilterProp="label"
          options={(templates ?? []).map((x) => ({ value: templateKey(x), label: `${x.name} (${x.language})` }))}
          data-testid="waba-template-select"
          style={{ width: "100%" }}
        />
      )}
      {template ? (
        <>
          <div data-testid="waba-template-preview" style={{ whiteSpace: "pre-wrap", background: "rgba(37, 211, 102, 0.08)", borderRadius: 8, padding: "8px 12px" }}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t("picker.preview")}
            </Typography.Text>
            <div>{filledText(template, values)}</div>
            {template.footer?.text ? <Typography.Text type="secondary">{template.footer.text}</Typography.Text> : null}
          </div>
          {unsupportedHeader(template) ? <Alert type="info" message={t("picker.mediaHeader")} /> : null}
          {fileTypes ? <HeaderFileInput t={t} accept={fileTypes} file={file} onFile={setFile} missing={tried && !file} /> : null}
          {fields.length ? (
            <Space wrap>
              {fields.map((f) => (
                <Input
                  key={f.key}
                  addonBefore={label(f)}
                  value={values[f.key] ?? ""}
                  placeholder={f.example ? t("picker.example", { example: f.example }) : undefined}
                  status={tried && !(values[f.key] ?? "").trim() ? "error" : undefined}
                  onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
                  onPressEnter={() => void send()}
                  data-testid={`waba-template-var-${f.key}`}
                  style={{ width: 260 }}
                />
              ))}
            </Space>
          ) : null}
          {tried && missing.length ? <Alert type="error" showIcon data-testid="waba-template-missing" message={t("picker.missing", { fields: missing.map(label).join(", ") })} /> : null}
          <div style={{ display: "flex", justifyContent: "flex-end" }}>
            <Button type="primary" icon={<SendOutlined />} loading={sending} disabled={unsupportedHeader(template)} onClick={() => void send()} data-testid="waba-template-send">
              {t("picker.send")}
            </Button>
          </div>
        </>
      ) : null}
    </div>
  );
}
