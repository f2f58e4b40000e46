import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Avatar, Button, Drawer, Form, Skeleton, Space, Tabs } from "antd";
import { useRoot } from "../../app/context";
import { ApiError } from "../../api/client";
import { applyFieldErrors, fieldErrorsOf } from "../../ui/api-errors";
import { avatarColor, initials } from "../../ui/person";
import { ContactDataForm, FORM_FIELDS, TEXT_FIELDS, type ContactForm } from "./ContactForm";
import { ContactNotes } from "./ContactNotes";
import type { ContactView, TagOption, UserOption } from "./types";

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

  const loading = !!contact && !full;

  const dataForm = <ContactDataForm form={form} full={full} hidden={hidden} saving={saving} tags={tags} users={users} onChange={setFull} />;

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
              children: <ContactNotes contact={full} users={users} onChange={(notes) => setFull({ ...full, notes })} />,
            },
          ]}
        />
      ) : (
        dataForm
      )}
    </Drawer>
  );
}
