/**
 * The WABA campaign's template editor (the ContentEditor the shared campaign form draws): the
 * templates of the chosen connections (GET /templates, the core's listing), one picked by name
 * and language with its state on each connection, a preview of its texts and buttons, and one
 * input per header and body variable and per button that takes a value (a URL's {{1}} suffix, a
 * copy code, a quick reply's optional payload) — literal text, or a contact field inserted as
 * {{name}}, {{firstName}} or {{number}}.
 */
import { useEffect, useMemo, useState } from "react";
import { Alert, Card, Form, Select, Tag, Typography } from "antd";
import type { CampaignContentEditorProps } from "@openatende/campaign-engine/src/ui";
import { TEMPLATE_HEADER_FILE_TYPES, templateButtonParameters, type ChannelTemplate, type TemplatesListResult } from "@openatende/plugin-sdk/src/templates";
import { HeaderFileField } from "./HeaderFileField";
import type { WabaContent } from "../type";
import { choose, emptyWabaContent, keyOf, previewButtons, previewOf, statesOf, templateChoices, type ConnectionTemplates, type TemplateState } from "./model";
import { ValueInput } from "./ValueInput";

const MAX_PAGES = 10;
const STATE_COLOR: Record<TemplateState["state"], string> = { APPROVED: "green", OTHER: "orange", MISSING: "red", NO_TEMPLATES: "red", LOADING: "default" };

export default function ContentEditor({ runtime, value, onChange, errors, connectionIds, disabled }: CampaignContentEditorProps<WabaContent>) {
  const t = runtime.t;
  const content = value ?? emptyWabaContent();
  const [loaded, setLoaded] = useState(new Map<number, ConnectionTemplates>());
  const [names, setNames] = useState(new Map<number, string>());

  useEffect(() => {
    runtime.api.get<Array<{ id: number; name: string }>>("/connections", { silent: true }).then(
      (rows) => setNames(new Map(rows.map((c) => [c.id, c.name]))),
      () => undefined, // the tags then name connections by id
    );
  }, [runtime]);

  useEffect(() => {
    let live = true;
    for (const id of connectionIds) {
      if (loaded.has(id)) continue;
      void (async (): Promise<ConnectionTemplates> => {
        const templates: ChannelTemplate[] = [];
        let after: string | null = null;
        for (let page = 0; page < MAX_PAGES; page++) {
          const r: TemplatesListResult = await runtime.api.get("/templates", { silent: true, query: { connectionId: id, limit: 100, ...(after ? { after } : {}) } });
          templates.push(...r.templates);
          if (!r.next) break;
          after = r.next;
        }
        return { templates };
      })().then(
        (c) => live && setLoaded((m) => new Map(m).set(id, c)),
        (err: { code?: string }) => live && setLoaded((m) => new Map(m).set(id, { error: err?.code ?? "ERR" })),
      );
    }
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runtime, connectionIds.join(",")]);

  const choices = useMemo(() => templateChoices(connectionIds.map((id) => loaded.get(id))), [connectionIds, loaded]);
  const chosen = content.template?.name ? content.template : null;
  const template = chosen ? choices.find((x) => keyOf(x) === keyOf(chosen)) : undefined;
  const states = statesOf(connectionIds, loaded, chosen);
  const fieldError = (f: string) => (errors[f] ? { validateStatus: "error" as const, help: <span data-testid={`campaign-error-${f}`}>{errors[f]}</span> } : {});

  const setVariable = (part: "header" | "body", i: number, v: string) => onChange({ ...content, [part]: (content[part] ?? []).map((x, j) => (j === i ? v : x)) });
  const variableInput = (part: "header" | "body", i: number, label: string) => (
    <ValueInput key={`${part}.${i}`} field={`${part}.${i}`} label={label} required value={content[part]?.[i] ?? ""} onChange={(v) => setVariable(part, i, v)} error={errors[`${part}.${i}`]} disabled={disabled} t={t} />
  );
  const setButton = (index: number, v: string) => onChange({ ...content, buttons: (content.buttons ?? []).map((b) => (b.index === index ? { ...b, value: v } : b)) });
  const buttonInputs = template
    ? templateButtonParameters(template).map((b) => (
        <ValueInput
          key={`buttons.${b.index}`}
          field={`buttons.${b.index}`}
          label={t(`waba.button.${b.type}`, { text: b.text })}
          extra={b.type === "URL" ? template.buttons?.[b.index]?.url : b.type === "QUICK_REPLY" ? t("waba.button.optional") : undefined}
          required={b.required}
          placeholder={b.example}
          value={content.buttons?.find((x) => x.index === b.index)?.value ?? ""}
          onChange={(v) => setButton(b.index, v)}
          error={errors[`buttons.${b.index}`]}
          disabled={disabled}
          t={t}
        />
      ))
    : [];

  if (!connectionIds.length) return <Alert type="info" showIcon message={t("waba.pickConnections")} data-testid="waba-pick-connections" />;
  return (
    <div data-testid="campaign-content">
      <Form.Item label={t("waba.template")} required {...fieldError("template.name")}>
        <Select
          value={chosen ? keyOf(chosen) : undefined}
          placeholder={states.some((s) => s.state === "LOADING") ? t("waba.loading") : t("waba.templatePlaceholder")}
          disabled={disabled}
          showSearch
          optionFilterProp="label"
          options={choices.map((x) => ({ value: keyOf(x), label: `${x.name} (${x.language}) · ${x.status}`, disabled: x.status !== "APPROVED" }))}
          onChange={(k: string) => {
            const picked = choices.find((x) => keyOf(x) === k);
            if (picked) onChange(choose(content, picked));
          }}
          data-testid="waba-template"
        />
      </Form.Item>
      <Typography.Text type="secondary">{t("waba.perConnection")}</Typography.Text>
      <div style={{ margin: "4px 0 12px" }} data-testid="waba-states">
        {states.map((s) => (
          <Tag key={s.connectionId} color={STATE_COLOR[s.state]} data-testid={`waba-state-${s.connectionId}`}>
            {names.get(s.connectionId) ?? t("waba.connection", { id: s.connectionId })}: {s.state === "OTHER" ? s.status : t(`waba.state.${s.state}`)}
          </Tag>
        ))}
      </div>
      {template ? (
        <>
          <Card size="small" title={t("waba.preview")} style={{ marginBottom: 12, background: "#f6ffed" }} data-testid="waba-preview">
            {template.header?.text ? <Typography.Text strong>{previewOf(template.header.text, content.header ?? [])}</Typography.Text> : null}
            <div style={{ whiteSpace: "pre-wrap" }}>{previewOf(template.body.text, content.body ?? [])}</div>
            {template.footer?.text ? <Typography.Text type="secondary">{template.footer.text}</Typography.Text> : null}
            {template.buttons?.length ? (
              <div style={{ marginTop: 8 }} data-testid="waba-preview-buttons">
                {previewButtons(template, content.buttons).map((b) => (
                  <Tag key={b.index} color="blue" style={{ marginBottom: 4 }} data-testid={`waba-preview-button-${b.index}`}>
                    {b.text}
                    {b.detail ? ` · ${b.detail}` : ""}
                  </Tag>
                ))}
              </div>
            ) : null}
          </Card>
          {template.header && TEMPLATE_HEADER_FILE_TYPES[template.header.format] ? (
            <HeaderFileField runtime={runtime} types={TEMPLATE_HEADER_FILE_TYPES[template.header.format]!} value={content.headerMedia} onChange={(headerMedia) => onChange({ ...content, headerMedia })} disabled={disabled} error={errors.headerMedia} />
          ) : null}
          {(content.header ?? []).map((_, i) => variableInput("header", i, t("waba.header")))}
          {(content.body ?? []).map((_, i) => variableInput("body", i, t("waba.variable", { n: i + 1 })))}
          {buttonInputs}
          {!content.header?.length && !content.body?.length && !buttonInputs.length ? <Typography.Text type="secondary">{t("waba.noVariables")}</Typography.Text> : null}
        </>
      ) : null}
    </div>
  );
}
