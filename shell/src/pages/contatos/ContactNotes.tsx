import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Divider, Empty, Form, Input, List, Popconfirm, Typography } from "antd";
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { formatDateTime } from "../../ui/format";
import type { ContactNote, ContactView, UserOption } from "./types";

/** The contact's notes (title, description): newest first; add and remove. */
export function ContactNotes({ contact, users, onChange }: { contact: ContactView; users: UserOption[]; onChange: (n: ContactNote[]) => void }) {
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
