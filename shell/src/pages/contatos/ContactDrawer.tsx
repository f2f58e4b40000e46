import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Avatar, Button, Divider, Drawer, Empty, Form, Input, List, Popconfirm, Select, Skeleton, Space, Tabs, Tag, Typography } from "antd";
import { DeleteOutlined, IdcardOutlined, InstagramOutlined, LinkOutlined, MailOutlined, MinusCircleOutlined, PhoneOutlined, PlusOutlined, SendOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { ApiError } from "../../api/client";
import { applyFieldErrors, fieldErrorsOf } from "../../ui/api-errors";
import { avatarColor, initials } from "../../ui/person";
import { formatDateTime } from "../../ui/format";
import { EMAIL_RE, formatDocument, formatPhone, isValidDocument, looksLikePhone, today } from "./rules";
import { WhatsAppFlag } from "./WhatsAppFlag";
import { GENDERS, MARITAL_STATUSES, type ContactNote, type ContactView, type TagOption, type UserOption } from "./types";

interface ContactForm {
  name: string;
  number?: string;
  email?: string;
  document?: string;
  firstName?: string;
  lastName?: string;
  businessName?: string;
  birthday?: string;
  gender?: string | null;
  maritalStatus?: string | null;
  source?: string;
  category?: string;
  state?: string;
  instagram?: string;
  telegramId?: string;
  website?: string;
  tagIds: number[];
  walletUserIds: number[];
  additionalInfo: Array<{ description?: string; info?: string }>;
}

const TEXT_FIELDS = ["name", "number", "email", "document", "firstName", "lastName", "businessName", "birthday", "source", "category", "state", "instagram", "telegramId", "website"] as const;
const FORM_FIELDS = [...TEXT_FIELDS, "gender", "maritalStatus", "tagIds", "walletUserIds", "additionalInfo"] as const;

const empty = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

/** Create or edit a contact (spec §3 fields, §5 rules), and its notes when editing. */
export function ContactDrawer({
  contact,
  tags,
  users,
  onClose,
  onSaved,
}: {
  contact: ContactView | null;
  tags: TagOption[];
  users: UserOption[];
  onClose: () => void;
  onSaved: (c: ContactView, created: boolean) => void;
}) {
  const root = useRoot();
  const { t } = useTranslation();
  const [form] = Form.useForm<ContactForm>();
  const [saving, setSaving] = useState(false);
  const [full, setFull] = useState<ContactView | null>(null);
  const [tab, setTab] = useState("data");
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const id = contact?.id;
  const hidden = !!contact?.contactInfoHidden;

  useEffect(() => {
    if (!id) return;
    root.api.get<ContactView>(`/contacts/${id}`).then(
      (c) => setFull(c),
      () => closeRef.current(),
    );
  }, [root, id]);

  const submit = async () => {
    let v: ContactForm;
    try {
      v = await form.validateFields();
    } catch {
      setTab("data");
      return;
    }
    setSaving(true);
    const body: Record<string, unknown> = {};
    for (const f of TEXT_FIELDS) body[f] = empty(v[f]);
    body.name = v.name.trim();
    body.gender = v.gender ?? null;
    body.maritalStatus = v.maritalStatus ?? null;
    body.tagIds = v.tagIds ?? [];
    body.walletUserIds = v.walletUserIds ?? [];
    body.additionalInfo = (v.additionalInfo ?? []).map((x) => ({ description: (x?.description ?? "").trim(), info: (x?.info ?? "").trim() })).filter((x) => x.description || x.info);
    if (hidden) {
      delete body.number;
      delete body.email;
    }
    try {
      const saved = contact
        ? await root.api.put<ContactView>(`/contacts/${contact.id}`, body, { silent: true, successNotice: true })
        : await root.api.post<ContactView>("/contacts", body, { silent: true, successNotice: true });
      onSaved(saved, !contact);
    } catch (e) {
      // The wallet's errors name "userIds".
      const errs = fieldErrorsOf(e, t);
      if (errs.userIds) form.setFields([{ name: "walletUserIds", errors: [errs.userIds] }]);
      const shown = applyFieldErrors(form, e, t, FORM_FIELDS) || !!errs.userIds;
      if (shown) setTab("data");
      // The contact-limit banner is shown by the client even for silent calls.
      if (!shown && !(e instanceof ApiError && e.code === "ERR_CONTACT_LIMIT")) root.notifyError(e);
    } finally {
      setSaving(false);
    }
  };

  const tagOptions = tags.filter((x) => x.active || full?.tags.some((c) => c.id === x.id));
  const tagColor = new Map(tags.map((x) => [x.id, x.color]));
  const loading = !!contact && !full;

  const dataForm = (
    <Form<ContactForm>
      form={form}
      layout="vertical"
     
      initialValues={full ? toForm(full) : { name: "", tagIds: [], walletUserIds: [], additionalInfo: [] }}
      data-testid="contact-form"
      disabled={saving}
    >
      <Form.Item
        name="name"
        label={t("contatos.fields.name")}
        rules={[
          { required: true, whitespace: true, message: t("common.required") },
          { max: 200, message: t("configuracoes.rules.stringMax", { expected: 200 }) },
        ]}
      >
        <Input autoFocus maxLength={200} placeholder={t("contatos.placeholders.name")} data-testid="contact-name" />
      </Form.Item>
      {full && <WhatsAppFlag contact={full} hidden={hidden} onChange={setFull} />}
      <div className="oa-form-grid">
        <Form.Item
          name="number"
          label={t("contatos.fields.number")}
          extra={hidden ? t("contatos.hiddenInfo") : t("contatos.hints.number")}
          rules={[{ validator: (_, v?: string) => (!v?.trim() || looksLikePhone(v) ? Promise.resolve() : Promise.reject(new Error(t("contatos.errors.number")))) }]}
        >
          <Input prefix={<PhoneOutlined />} maxLength={40} placeholder="55 11 91234-5678" disabled={hidden} data-testid="contact-number" inputMode="tel" />
        </Form.Item>
        <Form.Item name="email" label={t("contatos.fields.email")} rules={[{ validator: (_, v?: string) => (!v?.trim() || EMAIL_RE.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t("configuracoes.rules.email")))) }]}>
          <Input prefix={<MailOutlined />} maxLength={190} placeholder={t("contatos.placeholders.email")} disabled={hidden} data-testid="contact-email" inputMode="email" />
        </Form.Item>
        <Form.Item
          name="document"
          label={t("contatos.fields.document")}
          rules={[{ validator: (_, v?: string) => (!v?.trim() || isValidDocument(v) ? Promise.resolve() : Promise.reject(new Error(t("contatos.errors.document")))) }]}
          normalize={(v: string) => v}
        >
          <Input
            prefix={<IdcardOutlined />}
            maxLength={30}
            placeholder="000.000.000-00"
            data-testid="contact-document"
            onBlur={(e) => {
              const v = e.target.value;
              if (isValidDocument(v)) form.setFieldValue("document", formatDocument(v));
            }}
          />
        </Form.Item>
        <Form.Item name="birthday" label={t("contatos.fields.birthday")} rules={[{ validator: (_, v?: string) => (!v || v <= today() ? Promise.resolve() : Promise.reject(new Error(t("contatos.errors.birthday")))) }]}>
          <Input type="date" max={today()} min="1900-01-01" data-testid="contact-birthday" />
        </Form.Item>
      </div>

      <Form.Item name="tagIds" label={t("contatos.fields.tags")}>
        <Select
          mode="multiple"
          allowClear
          optionFilterProp="label"
          placeholder={t("contatos.placeholders.tags")}
          data-testid="contact-tags"
          options={tagOptions.map((x) => ({ value: x.id, label: x.name }))}
          tagRender={({ value, label, closable, onClose: close }) => (
            <Tag color={tagColor.get(Number(value))} closable={closable} onClose={close} style={{ marginInlineEnd: 4 }}>
              {label}
            </Tag>
          )}
          optionRender={(o) => (
            <Space>
              <span className="oa-swatch" style={{ background: tagColor.get(Number(o.value)), width: 12, height: 12 }} />
              {o.label}
            </Space>
          )}
          notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("contatos.noTags")} />}
        />
      </Form.Item>
      <Form.Item name="walletUserIds" label={t("contatos.fields.wallet")} extra={t("contatos.hints.wallet")}>
        <Select
          mode="multiple"
          allowClear
          optionFilterProp="label"
          placeholder={t("contatos.placeholders.wallet")}
          data-testid="contact-wallet"
          options={users.map((u) => ({ value: u.id, label: u.name }))}
        />
      </Form.Item>

      <Divider titlePlacement="start" plain>
        {t("contatos.sections.personal")}
      </Divider>
      <div className="oa-form-grid">
        <Form.Item name="firstName" label={t("contatos.fields.firstName")}>
          <Input maxLength={120} />
        </Form.Item>
        <Form.Item name="lastName" label={t("contatos.fields.lastName")}>
          <Input maxLength={120} />
        </Form.Item>
        <Form.Item name="gender" label={t("contatos.fields.gender")}>
          <Select allowClear placeholder={t("contatos.placeholders.choose")} options={GENDERS.map((g) => ({ value: g, label: t(`contatos.genders.${g}`) }))} />
        </Form.Item>
        <Form.Item name="maritalStatus" label={t("contatos.fields.maritalStatus")}>
          <Select allowClear placeholder={t("contatos.placeholders.choose")} options={MARITAL_STATUSES.map((g) => ({ value: g, label: t(`contatos.marital.${g}`) }))} />
        </Form.Item>
      </div>

      <Divider titlePlacement="start" plain>
        {t("contatos.sections.business")}
      </Divider>
      <div className="oa-form-grid">
        <Form.Item name="businessName" label={t("contatos.fields.businessName")}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="category" label={t("contatos.fields.category")}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="source" label={t("contatos.fields.source")}>
          <Input maxLength={100} placeholder={t("contatos.placeholders.source")} />
        </Form.Item>
        <Form.Item name="state" label={t("contatos.fields.state")}>
          <Input maxLength={100} placeholder={t("contatos.placeholders.state")} />
        </Form.Item>
      </div>

      <Divider titlePlacement="start" plain>
        {t("contatos.sections.social")}
      </Divider>
      <div className="oa-form-grid">
        <Form.Item name="instagram" label={t("contatos.fields.instagram")}>
          <Input prefix={<InstagramOutlined />} maxLength={120} placeholder={t("contatos.placeholders.instagram")} />
        </Form.Item>
        <Form.Item name="telegramId" label={t("contatos.fields.telegramId")}>
          <Input prefix={<SendOutlined />} maxLength={64} />
        </Form.Item>
      </div>
      <Form.Item name="website" label={t("contatos.fields.website")}>
        <Input prefix={<LinkOutlined />} maxLength={500} placeholder="https://" />
      </Form.Item>

      <Divider titlePlacement="start" plain>
        {t("contatos.sections.extra")}
      </Divider>
      <Form.List name="additionalInfo">
        {(fields, { add, remove }) => (
          <>
            {fields.map((f) => (
              <div key={f.key} style={{ display: "grid", gridTemplateColumns: "minmax(0, 2fr) minmax(0, 3fr) auto", gap: 8, alignItems: "start" }}>
                <Form.Item name={[f.name, "description"]} rules={[{ max: 200, message: t("configuracoes.rules.stringMax", { expected: 200 }) }]}>
                  <Input placeholder={t("contatos.placeholders.infoDescription")} maxLength={200} />
                </Form.Item>
                <Form.Item name={[f.name, "info"]} rules={[{ max: 2000, message: t("configuracoes.rules.stringMax", { expected: 2000 }) }]}>
                  <Input placeholder={t("contatos.placeholders.infoValue")} maxLength={2000} />
                </Form.Item>
                <Button type="text" icon={<MinusCircleOutlined />} onClick={() => remove(f.name)} aria-label={t("common.delete")} />
              </div>
            ))}
            <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({ description: "", info: "" })} disabled={fields.length >= 50}>
              {t("contatos.addInfo")}
            </Button>
          </>
        )}
      </Form.List>
    </Form>
  );

  return (
    <Drawer
      open
      size={640}
      onClose={onClose}
      destroyOnHidden
      title={
        contact ? (
          <Space>
            <Avatar src={contact.profilePicUrl || undefined} style={{ background: avatarColor(contact.id) }}>
              {initials(contact.name)}
            </Avatar>
            <span>{contact.name}</span>
          </Space>
        ) : (
          t("contatos.new")
        )
      }
      extra={
        <Space>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="primary" loading={saving} onClick={submit} disabled={loading} data-testid="contact-save">
            {t("common.save")}
          </Button>
        </Space>
      }
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : contact && full ? (
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            { key: "data", label: t("contatos.tabs.data"), children: dataForm, forceRender: true },
            {
              key: "notes",
              label: `${t("contatos.tabs.notes")}${full.notes?.length ? ` (${full.notes.length})` : ""}`,
              children: <Notes contact={full} users={users} onChange={(notes) => setFull({ ...full, notes })} />,
            },
          ]}
        />
      ) : (
        dataForm
      )}
    </Drawer>
  );
}

function toForm(c: ContactView): ContactForm {
  return {
    name: c.name,
    number: c.number ? formatPhone(c.number) : "",
    email: c.email ?? "",
    document: c.document ? formatDocument(c.document) : "",
    firstName: c.firstName ?? "",
    lastName: c.lastName ?? "",
    businessName: c.businessName ?? "",
    birthday: c.birthday ?? "",
    gender: c.gender ?? undefined,
    maritalStatus: c.maritalStatus ?? undefined,
    source: c.source ?? "",
    category: c.category ?? "",
    state: c.state ?? "",
    instagram: c.instagram ?? "",
    telegramId: c.telegramId ?? "",
    website: c.website ?? "",
    tagIds: c.tags.map((x) => x.id),
    walletUserIds: c.wallet,
    additionalInfo: c.additionalInfo ?? [],
  };
}

/** The contact's notes (title, description): newest first; add and remove. */
function Notes({ contact, users, onChange }: { contact: ContactView; users: UserOption[]; onChange: (n: ContactNote[]) => void }) {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<{ title: string; description: string }>();
  const [busy, setBusy] = useState(false);
  const notes = contact.notes ?? [];
  const userName = new Map(users.map((u) => [u.id, u.name]));
  const add = async () => {
    // Invalid fields show their messages; nothing is sent.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      const n = await root.api.post<ContactNote>(`/contacts/${contact.id}/notes`, { title: v.title.trim(), description: v.description.trim() }, { successNotice: true });
      onChange([n, ...notes]);
      form.resetFields();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };
  const remove = async (n: ContactNote) => {
    try {
      await root.api.delete(`/contacts/${contact.id}/notes/${n.id}`, { successNotice: true });
      onChange(notes.filter((x) => x.id !== n.id));
    } catch {
      /* shown by the client */
    }
  };
  return (
    <div>
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item name="title" rules={[{ required: true, whitespace: true, message: t("common.required") }]} style={{ marginBottom: 8 }}>
          <Input placeholder={t("contatos.notes.title")} maxLength={200} />
        </Form.Item>
        <Form.Item name="description" rules={[{ required: true, whitespace: true, message: t("common.required") }]} style={{ marginBottom: 8 }}>
          <Input.TextArea placeholder={t("contatos.notes.description")} maxLength={5000} autoSize={{ minRows: 3, maxRows: 8 }} />
        </Form.Item>
        <Button type="primary" icon={<PlusOutlined />} loading={busy} onClick={add}>
          {t("contatos.notes.add")}
        </Button>
      </Form>
      <Divider />
      {notes.length ? (
        <List
          itemLayout="vertical"
          dataSource={notes}
          renderItem={(n) => (
            <List.Item
              key={n.id}
              actions={[
                <Typography.Text type="secondary" key="meta">
                  {userName.get(n.userId) ?? `#${n.userId}`} · {formatDateTime(n.createdAt, i18n.language)}
                </Typography.Text>,
                <Popconfirm key="del" title={t("contatos.notes.deleteTitle")} okText={t("common.delete")} cancelText={t("common.cancel")} okButtonProps={{ danger: true }} onConfirm={() => remove(n)}>
                  <Button type="link" danger size="small" icon={<DeleteOutlined />}>
                    {t("common.delete")}
                  </Button>
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta title={n.title} />
              <div style={{ whiteSpace: "pre-line" }}>{n.description}</div>
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("contatos.notes.empty")} />
      )}
    </div>
  );
}
