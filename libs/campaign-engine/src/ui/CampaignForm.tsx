/**
 * The create/edit form of a campaign: name, start (date and time, not in the past), the
 * connections to send by (the gateway's /connections, limited to the type's connection types),
 * the random interval, the type's own ContentEditor, and contacts to link from tags, the
 * contact list or a CSV file. Saving creates or updates the campaign, then links the contacts;
 * a server error is shown with its catalogue text and, when it names a field, under that field.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { Alert, Button, Form, Input, InputNumber, Modal, Popconfirm, Radio, Select, Space, Typography, type ButtonProps } from "antd";
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import type { CampaignContactSource } from "@openatende/plugin-sdk/src/campaign-contract";
import { FilePick } from "./FilePick";
import { fieldErrorsOf, FORM_FIELDS, fromLocalInput, startInPast, toLocalInput, withoutChanged, type Campaign, type CampaignUiType } from "./model";

interface Named {
  id: number;
  name: string;
  type?: string;
  number?: string | null;
}

type SourceKind = "none" | "tags" | "contacts" | "csv";

export interface CampaignFormProps<C> {
  runtime: ShellRuntime;
  type: CampaignUiType<C>;
  /** The campaign edited (undefined: a new one). */
  editing?: Campaign<C>;
  onClose(): void;
  onSaved(c: Campaign<C>): void;
}

export function CampaignForm<C>({ runtime, type, editing, onClose, onSaved }: CampaignFormProps<C>) {
  const t = runtime.t;
  const base = type.routeBase;
  const [name, setName] = useState(editing?.name ?? "");
  const [start, setStart] = useState(toLocalInput(editing && !startInPast(editing.startAt, Date.now()) ? editing.startAt : Date.now() + 10 * 60_000));
  const [connectionIds, setConnectionIds] = useState<number[]>(editing?.connectionIds ?? []);
  const [minI, setMinI] = useState<number | null>(editing?.minIntervalSeconds ?? 5);
  const [maxI, setMaxI] = useState<number | null>(editing?.maxIntervalSeconds ?? 15);
  const [content, setContent] = useState<C>(editing ? (editing.content as C) : type.emptyContent());
  const [source, setSource] = useState<SourceKind>(editing ? "none" : "tags");
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [contactIds, setContactIds] = useState<number[]>([]);
  const [csv, setCsv] = useState<{ name: string; text: string } | null>(null);
  const [linked, setLinked] = useState(editing?.counts.contacts ?? 0);
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [connections, setConnections] = useState<Named[]>([]);
  const [tags, setTags] = useState<Named[]>([]);
  const [contactOptions, setContactOptions] = useState<Named[]>([]);

  useEffect(() => {
    runtime.api.get<Named[]>("/connections", { silent: true }).then(
      (rows) => setConnections(rows.filter((c) => !type.connectionTypes || type.connectionTypes.includes(String(c.type)))),
      (err) => runtime.notify.error(err),
    );
    runtime.api.get<Named[]>("/tags", { silent: true }).then(setTags, (err) => runtime.notify.error(err));
  }, [runtime, type]);

  const searchContacts = (q: string) => {
    runtime.api.get<{ contacts: Named[] }>("/contacts", { query: { searchParam: q.trim() || undefined, pageSize: 50 }, silent: true }).then(
      (r) => setContactOptions((old) => [...old.filter((o) => contactIds.includes(o.id)), ...r.contacts.filter((c) => !contactIds.includes(c.id))]),
      (err) => runtime.notify.error(err),
    );
  };
  useEffect(() => searchContacts(""), []); // eslint-disable-line react-hooks/exhaustive-deps

  const startAt = fromLocalInput(start);
  const errors = useMemo(() => {
    const e: Record<string, string> = {};
    if (!name.trim()) e.name = t("campaign.error.required");
    if (startAt === null) e.startAt = t("campaign.error.required");
    else if (startInPast(startAt, Date.now())) e.startAt = t("campaign.error.past");
    if (!connectionIds.length) e.connectionIds = t("campaign.error.connections");
    if (minI === null || maxI === null || minI < 0 || maxI < minI || maxI > 3600) e.maxIntervalSeconds = t("campaign.error.interval");
    if (source === "tags" && !tagIds.length) e.source = t("campaign.error.required");
    if (source === "contacts" && !contactIds.length) e.source = t("campaign.error.required");
    if (source === "csv" && !csv) e.source = t("campaign.error.required");
    return { ...e, ...(type.validateContent?.(content, t) ?? {}) };
  }, [name, startAt, connectionIds, minI, maxI, source, tagIds, contactIds, csv, content, type, t]);

  // A server's error under a field goes as soon as that field changes.
  const parts: Record<string, unknown> = { name, startAt: start, connectionIds, minIntervalSeconds: minI, maxIntervalSeconds: maxI, source: [source, tagIds, contactIds, csv], content };
  const before = useRef(parts);
  useEffect(() => {
    const changed = Object.keys(parts).filter((k) => (Array.isArray(parts[k]) && k === "source" ? (parts[k] as unknown[]).some((v, i) => v !== (before.current[k] as unknown[])[i]) : parts[k] !== before.current[k]));
    before.current = parts;
    if (changed.length) setServerErrors((e) => withoutChanged(e, changed));
  });

  const shown = touched ? { ...serverErrors, ...errors } : serverErrors;
  const field = (f: string) => (shown[f] ? { validateStatus: "error" as const, help: <span data-testid={`campaign-error-${f}`}>{shown[f]}</span> } : {});
  const contentErrors = Object.fromEntries(Object.entries(shown).filter(([k]) => !(FORM_FIELDS as readonly string[]).includes(k)));

  const sourceValue = (): CampaignContactSource | null =>
    source === "tags" ? { kind: "tags", tagIds } : source === "contacts" ? { kind: "contacts", contactIds } : source === "csv" && csv ? { kind: "csv", csv: csv.text } : null;

  const save = async () => {
    setTouched(true);
    if (Object.keys(errors).length) return;
    setSaving(true);
    setServerErrors({});
    const body = { name: name.trim(), startAt, connectionIds, minIntervalSeconds: minI, maxIntervalSeconds: maxI, content };
    let saved: Campaign<C> | null = null;
    try {
      // Silent: the error is shown once, below, with its field.
      saved = editing ? await runtime.api.put<Campaign<C>>(`/${base}/item`, { id: editing.id, ...body }, { silent: true }) : await runtime.api.post<Campaign<C>>(`/${base}`, body, { silent: true });
      const src = sourceValue();
      if (src) {
        const r = await runtime.api.post<{ added: number; total: number }>(`/${base}/item/contacts`, { id: saved.id, source: src }, { silent: true });
        runtime.notify.success(t("campaign.done.contacts", r));
      } else runtime.notify.success(t("campaign.done.saved"));
      onSaved(saved);
    } catch (err) {
      setServerErrors(fieldErrorsOf(err));
      runtime.notify.error(err);
      // The campaign was saved but its contacts were refused: the form goes on as its edit.
      if (saved) onSaved(saved);
    } finally {
      setSaving(false);
    }
  };

  const removeAll = async () => {
    if (!editing) return;
    try {
      const r = await runtime.api.delete<{ removed: number; total: number }>(`/${base}/item/contacts`, { query: { id: editing.id }, silent: true });
      setLinked(r.total);
    } catch (err) {
      runtime.notify.error(err);
    }
  };

  const readCsv = (file: File | undefined) => {
    if (!file) return setCsv(null);
    void file.text().then((text) => setCsv({ name: file.name, text }));
  };

  const Editor = type.ContentEditor;
  return (
    <Modal
      open
      width={760}
      title={editing ? t("campaign.edit") : t("campaign.new")}
      okText={t("campaign.save")}
      cancelText={t("campaign.close")}
      onOk={() => void save()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ "data-testid": "campaign-save" } as ButtonProps}
      data-testid="campaign-form"
    >
      <Form layout="vertical" data-testid="campaign-form-body">
        <Form.Item label={t("campaign.field.name")} required {...field("name")}>
          <Input value={name} maxLength={200} onChange={(e) => setName(e.target.value)} data-testid="campaign-name" />
        </Form.Item>
        <Space wrap align="start" size="large">
          <Form.Item label={t("campaign.field.start")} required {...field("startAt")}>
            <Input type="datetime-local" value={start} min={toLocalInput(Date.now())} onChange={(e) => setStart(e.target.value)} data-testid="campaign-start" />
          </Form.Item>
          <Form.Item label={t("campaign.field.minInterval")} required {...field("minIntervalSeconds")}>
            <InputNumber min={0} max={3600} precision={0} value={minI} onChange={(v) => setMinI(v)} data-testid="campaign-min-interval" />
          </Form.Item>
          <Form.Item label={t("campaign.field.maxInterval")} required {...field("maxIntervalSeconds")}>
            <InputNumber min={0} max={3600} precision={0} value={maxI} onChange={(v) => setMaxI(v)} data-testid="campaign-max-interval" />
          </Form.Item>
        </Space>
        <Form.Item label={t("campaign.field.connections")} required extra={t("campaign.field.connectionsHint")} {...field("connectionIds")}>
          <Select
            mode="multiple"
            value={connectionIds}
            onChange={setConnectionIds}
            options={connections.map((c) => ({ value: c.id, label: c.name }))}
            optionFilterProp="label"
            data-testid="campaign-connections"
          />
        </Form.Item>
        <Typography.Title level={5}>{t("campaign.field.content")}</Typography.Title>
        <Editor runtime={runtime} value={content} onChange={setContent} errors={contentErrors} connectionIds={connectionIds} disabled={saving} />
        <Typography.Title level={5}>{t("campaign.field.contacts")}</Typography.Title>
        {editing ? (
          <Space style={{ marginBottom: 12 }}>
            <span data-testid="campaign-linked">{t("campaign.field.linked", { count: linked })}</span>
            {linked > 0 ? (
              <Popconfirm title={t("campaign.field.removeAllConfirm", { count: linked })} okText={t("campaign.confirm.yes")} cancelText={t("campaign.confirm.no")} onConfirm={() => void removeAll()}>
                <Button size="small" danger data-testid="campaign-remove-contacts">
                  {t("campaign.field.removeAll")}
                </Button>
              </Popconfirm>
            ) : null}
          </Space>
        ) : null}
        <Form.Item label={t("campaign.field.source")} {...field("source")}>
          <Radio.Group value={source} onChange={(e) => setSource(e.target.value as SourceKind)} data-testid="campaign-source">
            {editing ? <Radio value="none">{t("campaign.field.sourceNone")}</Radio> : null}
            <Radio value="tags" data-testid="campaign-source-tags">{t("campaign.field.sourceTags")}</Radio>
            <Radio value="contacts" data-testid="campaign-source-contacts">{t("campaign.field.sourceContacts")}</Radio>
            <Radio value="csv" data-testid="campaign-source-csv">{t("campaign.field.sourceCsv")}</Radio>
          </Radio.Group>
        </Form.Item>
        {source === "tags" ? (
          <Form.Item label={t("campaign.field.tags")}>
            <Select mode="multiple" value={tagIds} onChange={setTagIds} options={tags.map((x) => ({ value: x.id, label: x.name }))} optionFilterProp="label" data-testid="campaign-tags" />
          </Form.Item>
        ) : null}
        {source === "contacts" ? (
          <Form.Item label={t("campaign.field.contactsPick")}>
            <Select
              mode="multiple"
              value={contactIds}
              onChange={setContactIds}
              showSearch={{ filterOption: false, onSearch: searchContacts }}
              placeholder={t("campaign.field.contactsSearch")}
              options={contactOptions.map((x) => ({ value: x.id, label: x.number ? `${x.name} (${x.number})` : x.name }))}
              data-testid="campaign-contacts"
            />
          </Form.Item>
        ) : null}
        {source === "csv" ? (
          <Form.Item label={t("campaign.field.csv")}>
            <FilePick label={t("campaign.field.csvPick")} accept=".csv,text/csv,text/plain" onPick={readCsv} testId="campaign-csv" />
            {csv ? <Typography.Text type="secondary"> {csv.name}</Typography.Text> : null}
          </Form.Item>
        ) : null}
        {Object.keys(serverErrors).length === 0 ? null : <Alert type="error" showIcon message={Object.values(serverErrors)[0]} />}
      </Form>
    </Modal>
  );
}
