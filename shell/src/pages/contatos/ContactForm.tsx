import { useTranslation } from "react-i18next";
import { Button, Divider, Empty, Form, Input, Select, Space, Tag, type FormInstance } from "antd";
import { IdcardOutlined, InstagramOutlined, LinkOutlined, MailOutlined, MinusCircleOutlined, PhoneOutlined, PlusOutlined, SendOutlined } from "@ant-design/icons";
import { EMAIL_RE, formatDocument, formatPhone, isValidDocument, looksLikePhone, today } from "./rules";
import { WhatsAppFlag } from "./WhatsAppFlag";
import { GENDERS, MARITAL_STATUSES, type ContactView, type TagOption, type UserOption } from "./types";

export interface ContactForm {
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

export const TEXT_FIELDS = ["name", "number", "email", "document", "firstName", "lastName", "businessName", "birthday", "source", "category", "state", "instagram", "telegramId", "website"] as const;
export const FORM_FIELDS = [...TEXT_FIELDS, "gender", "maritalStatus", "tagIds", "walletUserIds", "additionalInfo"] as const;

/**
 * The contact's data (spec §3 fields, §5 rules): the form the drawer saves. `full` is the
 * contact as read (editing), null when creating.
 */
export function ContactDataForm({
  form,
  full,
  hidden,
  saving,
  tags,
  users,
  onChange,
}: {
  form: FormInstance<ContactForm>;
  full: ContactView | null;
  hidden: boolean;
  saving: boolean;
  tags: TagOption[];
  users: UserOption[];
  onChange: Parameters<typeof WhatsAppFlag>[0]["onChange"];
}) {
  const { t } = useTranslation();
  const tagOptions = tags.filter((x) => x.active || full?.tags.some((c) => c.id === x.id));
  const tagColor = new Map(tags.map((x) => [x.id, x.color]));
  return (
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
      {full && <WhatsAppFlag contact={full} hidden={hidden} onChange={onChange} />}
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
    </Form>);
}

export function toForm(c: ContactView): ContactForm {
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
