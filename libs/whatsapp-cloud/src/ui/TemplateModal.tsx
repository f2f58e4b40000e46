import { useMemo, useState, type ReactNode } from "react";
import { Alert, Button, Form, Input, Modal, Select, Space, Typography } from "antd";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { TEMPLATE_BUTTON_TYPES, TEMPLATE_CATEGORIES, type ChannelTemplate, type TemplateStatus } from "@openatende/plugin-sdk/src/channel-contract";
import { byField, draftProblems, emptyButton, emptyDraft, formFieldOf, HEADER_CHOICES, languageOfLocale, LANGUAGES, needsSample, problemText, sampleAccept, toTemplate, variablesOf, type ButtonDraft, type TemplateDraft } from "./templates-form";
import { SampleFileInput } from "./SampleFileInput";
import { SAMPLE_MB } from "../template-sample-limits";

const MAX_BUTTONS = 10;
/** The literal variables the texts show ({{v1}} in a text is "{{1}}" on screen). */
const LITERAL = { v1: "{{1}}", v2: "{{2}}" };

interface ApiFailure {
  code?: string;
  title?: string;
  detail?: string;
  data?: { field?: unknown; reason?: unknown; errors?: unknown };
}

/**
 * The create form (spec §3/§5 Template): checked with the contract's rules before it goes, then
 * submitted for Meta's review. A template with a media header goes with its sample file to the
 * connection's plugin (`POST /<plugin id>/templates`, multipart), which uploads the file to the
 * provider first; any other goes to the core's POST /templates.
 */
export function TemplateModal({ runtime, connectionId, connectionType, onClose, onCreated }: { runtime: ShellRuntime; connectionId: number; connectionType: string; onClose(): void; onCreated(t: ChannelTemplate): void }) {
  const t = (k: string, v?: Record<string, unknown>) => runtime.t(`tpl.${k}`, { ...LITERAL, ...v });
  const [draft, setDraft] = useState<TemplateDraft>(() => emptyDraft(LANGUAGES.includes(languageOfLocale(runtime.locale) as never) ? languageOfLocale(runtime.locale) : "pt_BR"));
  const [tried, setTried] = useState(false);
  const [apiErrors, setApiErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<{ title: string; detail?: string } | null>(null);
  const [saving, setSaving] = useState(false);

  const message = (reason: string) => {
    const p = problemText(reason);
    return p ? t(p.key, p.vars) : reason;
  };
  const local = useMemo(() => (tried ? byField(draftProblems(draft)) : {}), [tried, draft]);
  const errors: Record<string, string> = { ...Object.fromEntries(Object.entries(local).map(([f, r]) => [f, message(r)])), ...apiErrors };

  const change = (patch: Partial<TemplateDraft>) => {
    setApiErrors({});
    setGeneral(null);
    setDraft((d) => ({ ...d, ...patch }));
  };
  const changeButton = (i: number, patch: Partial<ButtonDraft>) => change({ buttons: draft.buttons.map((b, j) => (j === i ? { ...b, ...patch } : b)) });

  /** Form.Item props showing a field's error, with a test id on the message. */
  const field = (name: string, label: ReactNode, extra?: ReactNode) => ({
    label,
    extra,
    validateStatus: errors[name] ? ("error" as const) : undefined,
    help: errors[name] ? <span data-testid={`template-error-${name}`}>{errors[name]}</span> : undefined,
  });

  async function submit() {
    setTried(true);
    if (draftProblems(draft).length) return;
    const template = toTemplate(draft);
    const media = needsSample(draft);
    setSaving(true);
    try {
      let r: { id: string; status: TemplateStatus };
      if (media && draft.headerFile) {
        const form = new FormData();
        form.append("template", JSON.stringify(template));
        form.append("file", draft.headerFile as File, draft.headerFile.name);
        r = await runtime.api.post(`/${connectionType}/templates`, form, { query: { connectionId }, silent: true });
      } else r = await runtime.api.post("/templates", { connectionId, template }, { silent: true });
      runtime.notify.success(t("submitted"));
      onCreated({ ...template, id: r.id, status: r.status ?? "PENDING" });
    } catch (err) {
      const e = err as ApiFailure;
      const found: Record<string, string> = {};
      const list = Array.isArray(e.data?.errors) ? (e.data!.errors as Array<{ field?: unknown; message?: unknown }>) : [{ field: e.data?.field, message: typeof e.data?.reason === "string" ? message(e.data.reason) : e.detail }];
      for (const x of list) if (typeof x.field === "string" && x.field) found[formFieldOf(x.field, media)] ??= typeof x.message === "string" && x.message ? x.message : (e.detail ?? e.title ?? "");
      setApiErrors(found);
      // What no field shows (Meta's own refusal, a name already taken) goes above the buttons.
      setGeneral(Object.keys(found).length ? null : { title: e.title ?? String((err as Error).message), detail: e.detail });
    } finally {
      setSaving(false);
    }
  }

  const headerVars = draft.headerFormat === "TEXT" ? variablesOf(draft.headerText) : [];
  const bodyVars = variablesOf(draft.body);
  const example = (part: "header" | "body", n: number) => {
    const key = part === "header" ? "headerExamples" : "bodyExamples";
    return (
      <Form.Item key={`${part}-${n}`} label={t(`${part}Var`, { n })} style={{ marginBottom: 8 }}>
        <Input value={draft[key][n] ?? ""} status={errors[`${part}.text.example`] && !(draft[key][n] ?? "").trim() ? "error" : undefined} onChange={(e) => change({ [key]: { ...draft[key], [n]: e.target.value } })} data-testid={`template-example-${part}-${n}`} />
      </Form.Item>
    );
  };

  return (
    <Modal open width={760} title={t("createTitle")} onCancel={onClose} okText={t("submit")} cancelText={t("cancel")} onOk={() => void submit()} confirmLoading={saving} okButtonProps={{ "data-testid": "template-submit" }} destroyOnHidden>
      <Form layout="vertical" data-testid="template-form" component="div">
        <div style={{ display: "grid", gridTemplateColumns: "2fr 1fr 1fr", columnGap: 12 }}>
          <Form.Item {...field("name", t("name"), t("nameHint"))} required>
            <Input value={draft.name} maxLength={512} onChange={(e) => change({ name: e.target.value })} data-testid="template-name" />
          </Form.Item>
          <Form.Item {...field("category", t("category"))} required>
            <Select value={draft.category} onChange={(v) => change({ category: v })} options={TEMPLATE_CATEGORIES.map((c) => ({ value: c, label: t(`category_${c}`) }))} data-testid="template-category" />
          </Form.Item>
          <Form.Item {...field("language", t("language"))} required>
            <Select value={draft.language} onChange={(v) => change({ language: v })} options={LANGUAGES.map((l) => ({ value: l, label: l }))} data-testid="template-language" />
          </Form.Item>
        </div>
        <div style={{ display: "grid", gridTemplateColumns: "1fr 2fr", columnGap: 12 }}>
          <Form.Item label={t("headerFormat")}>
            <Select value={draft.headerFormat} onChange={(v) => change({ headerFormat: v })} options={HEADER_CHOICES.map((h) => ({ value: h, label: t(`header_${h}`) }))} data-testid="template-header-format" />
          </Form.Item>
          {draft.headerFormat === "TEXT" ? (
            <Form.Item {...field("header.text", t("headerText"))} required>
              <Input value={draft.headerText} maxLength={60} onChange={(e) => change({ headerText: e.target.value })} data-testid="template-header-text" />
            </Form.Item>
          ) : draft.headerFormat !== "NONE" ? (
            <Form.Item {...field("header.example", t("headerMedia"), t("sampleHint", { types: sampleAccept(draft.headerFormat)!.split(",").join(", "), maxMb: SAMPLE_MB[draft.headerFormat] }))} required>
              <SampleFileInput accept={sampleAccept(draft.headerFormat)!} file={draft.headerFile} pickLabel={t("samplePick")} noneLabel={t("sampleNone")} onFile={(f) => change({ headerFile: f })} />
            </Form.Item>
          ) : null}
        </div>
        <Form.Item {...field("body.text", t("body"), t("bodyHint"))} required>
          <Input.TextArea value={draft.body} maxLength={1024} autoSize={{ minRows: 3, maxRows: 8 }} onChange={(e) => change({ body: e.target.value })} data-testid="template-body" />
        </Form.Item>
        {headerVars.length || bodyVars.length ? (
          <div data-testid="template-examples" style={{ padding: "8px 12px 4px", marginBottom: 16, borderRadius: 8, background: "rgba(0,0,0,0.03)" }}>
            <Typography.Text strong>{t("examples")}</Typography.Text>
            <div className="oa-muted" style={{ marginBottom: 8 }}>
              {t("examplesHint")}
            </div>
            <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(200px, 1fr))", columnGap: 12 }}>
              {headerVars.map((n) => example("header", n))}
              {bodyVars.map((n) => example("body", n))}
            </div>
            {(["header.text.example", "body.text.example"] as const).map((f) =>
              errors[f] ? (
                <Typography.Text key={f} type="danger" style={{ display: "block", marginBottom: 8 }} data-testid={`template-error-${f}`}>
                  {errors[f]}
                </Typography.Text>
              ) : null,
            )}
          </div>
        ) : null}
        <Form.Item {...field("footer.text", t("footer"))}>
          <Input value={draft.footer} maxLength={60} onChange={(e) => change({ footer: e.target.value })} data-testid="template-footer" />
        </Form.Item>
        <Form.Item label={t("buttons")} style={{ marginBottom: 0 }}>
          <Space orientation="vertical" style={{ width: "100%" }} size={4}>
            {draft.buttons.map((b, i) => (
              <ButtonRow key={i} i={i} b={b} t={t} field={field} onChange={(p) => changeButton(i, p)} onRemove={() => change({ buttons: draft.buttons.filter((_, j) => j !== i) })} />
            ))}
            <Button icon={<PlusOutlined />} disabled={draft.buttons.length >= MAX_BUTTONS} onClick={() => change({ buttons: [...draft.buttons, emptyButton("QUICK_REPLY")] })} data-testid="template-add-button">
              {t("addButton")}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      {general ? <Alert type="error" showIcon title={general.title} description={general.detail} style={{ marginTop: 16 }} data-testid="template-api-error" /> : null}
    </Modal>
  );
}

/** One button of the template: its type and what that type needs. */
function ButtonRow({ i, b, t, field, onChange, onRemove }: { i: number; b: ButtonDraft; t: (k: string, v?: Record<string, unknown>) => string; field: (name: string, label: ReactNode) => object; onChange(p: Partial<ButtonDraft>): void; onRemove(): void }) {
  const f = (k: string) => `buttons.${i}.${k}`;
  return (
    <div style={{ display: "grid", gridTemplateColumns: "160px 1fr 1fr auto", columnGap: 8, alignItems: "start" }} data-testid={`template-button-${i}`}>
      <Form.Item label={t("buttonType")} style={{ marginBottom: 8 }}>
        <Select value={b.type} onChange={(type) => onChange({ type })} options={TEMPLATE_BUTTON_TYPES.map((x) => ({ value: x, label: t(`button_${x}`) }))} data-testid={`template-button-${i}-type`} />
      </Form.Item>
      <Form.Item {...field(f("text"), t("buttonText"))} style={{ marginBottom: 8 }}>
        <Input value={b.text} maxLength={25} onChange={(e) => onChange({ text: e.target.value })} data-testid={`template-button-${i}-text`} />
      </Form.Item>
      {b.type === "URL" ? (
        <div>
          <Form.Item {...field(f("url"), t("buttonUrl"))} style={{ marginBottom: 8 }}>
            <Input value={b.url} onChange={(e) => onChange({ url: e.target.value })} placeholder="https://" data-testid={`template-button-${i}-url`} />
          </Form.Item>
          {variablesOf(b.url).length ? (
            <Form.Item {...field(f("example"), t("buttonUrlExample"))} style={{ marginBottom: 8 }}>
              <Input value={b.example} onChange={(e) => onChange({ example: e.target.value })} data-testid={`template-button-${i}-example`} />
            </Form.Item>
          ) : null}
        </div>
      ) : b.type === "PHONE_NUMBER" ? (
        <Form.Item {...field(f("phoneNumber"), t("buttonPhone"))} style={{ marginBottom: 8 }}>
          <Input value={b.phoneNumber} onChange={(e) => onChange({ phoneNumber: e.target.value })} placeholder="+55" data-testid={`template-button-${i}-phone`} />
        </Form.Item>
      ) : b.type === "COPY_CODE" ? (
        <Form.Item {...field(f("example"), t("buttonCode"))} style={{ marginBottom: 8 }}>
          <Input value={b.example} maxLength={15} onChange={(e) => onChange({ example: e.target.value })} data-testid={`template-button-${i}-example`} />
        </Form.Item>
      ) : (
        <span />
      )}
      <Form.Item label=" " style={{ marginBottom: 8 }}>
        <Button type="text" danger icon={<DeleteOutlined />} onClick={onRemove} aria-label={t("removeButton")} />
      </Form.Item>
    </div>
  );
}
