import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Empty, Form, Input, Modal, Select, Switch } from "antd";
import { LockOutlined, MailOutlined, PhoneOutlined } from "@ant-design/icons";
import { useRoot } from "../../../app/context";
import { applyFieldErrors } from "../../../ui/api-errors";
import type { QueueView } from "../FilasPage";
import { STRONG_PASSWORD, type Profile, type UserView } from "./types";

interface UserForm {
  name: string;
  email: string;
  password?: string;
  phoneNumber?: string;
  profile: Profile;
  queues: number[];
  active: boolean;
}

const USER_FIELDS = ["name", "email", "password", "phoneNumber", "profile", "queues", "active"] as const;

/** Create or edit a user: profile, queues, password (kept when left empty on edit); one's own profile and switch are fixed. */
export function UserModal({ user, queues, onClose, onSaved }: { user: UserView | null; queues: QueueView[]; onClose: () => void; onSaved: () => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [form] = Form.useForm<UserForm>();
  const [saving, setSaving] = useState(false);
  const profile = Form.useWatch("profile", form);
  const self = user?.id === root.session.userId;

  const submit = async () => {
    // Invalid fields show their messages; nothing is sent.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    try {
      const body: Record<string, unknown> = {
        name: v.name.trim(),
        email: v.email.trim(),
        phoneNumber: v.phoneNumber?.trim() ? v.phoneNumber.trim() : null,
        queues: v.queues ?? [],
      };
      if (v.password) body.password = v.password;
      if (!self) {
        body.profile = v.profile;
        body.active = v.profile === "admin" ? true : v.active;
      }
      if (user) await root.api.put(`/users/${user.id}`, body, { silent: true, successNotice: true });
      else await root.api.post("/users", body, { silent: true, successNotice: true });
      onSaved();
    } catch (e) {
      if (!applyFieldErrors(form, e, t, USER_FIELDS)) root.notifyError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      width={620}
      title={user ? t("configuracoes.users.edit") : t("configuracoes.users.new")}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
       
        onFinish={submit}
        initialValues={{
          name: user?.name ?? "",
          email: user?.email ?? "",
          phoneNumber: user?.phoneNumber ?? "",
          profile: user?.profile ?? "user",
          queues: user?.queues ?? [],
          active: user?.active ?? true,
        }}
        data-testid="user-form"
      >
        <div className="oa-form-grid">
          <Form.Item name="name" label={t("configuracoes.users.name")} rules={[{ required: true, whitespace: true, message: t("common.required") }, { min: 2, message: t("configuracoes.rules.stringMin", { expected: 2 }) }, { max: 120, message: t("configuracoes.rules.stringMax", { expected: 120 }) }]}>
            <Input autoFocus maxLength={120} data-testid="user-name" />
          </Form.Item>
          <Form.Item name="email" label={t("common.email")} rules={[{ required: true, message: t("common.required") }, { type: "email", message: t("configuracoes.rules.email") }]}>
            <Input prefix={<MailOutlined />} maxLength={190} autoComplete="off" data-testid="user-email" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t("configuracoes.users.password")}
            extra={user ? t("configuracoes.users.passwordKeep") : t("configuracoes.users.passwordHint")}
            rules={[{ required: !user, message: t("common.required") }, { pattern: STRONG_PASSWORD, message: t("configuracoes.users.passwordRule") }]}
          >
            <Input.Password prefix={<LockOutlined />} autoComplete="new-password" maxLength={200} data-testid="user-password" />
          </Form.Item>
          <Form.Item
            name="phoneNumber"
            label={t("configuracoes.users.phone")}
            extra={t("configuracoes.users.phoneHint")}
            rules={[
              {
                validator: (_, v: string | undefined) => {
                  const d = (v ?? "").replace(/\D/g, "");
                  return !d || (d.length >= 10 && d.length <= 15) ? Promise.resolve() : Promise.reject(new Error(t("configuracoes.rules.phone")));
                },
              },
            ]}
          >
            <Input prefix={<PhoneOutlined />} maxLength={30} placeholder="55 11 91234-5678" />
          </Form.Item>
          <Form.Item name="profile" label={t("configuracoes.users.profile")} extra={self ? t("configuracoes.users.ownProfile") : undefined}>
            <Select
              disabled={self}
              data-testid="user-profile"
              options={(["user", "supervisor", "admin"] as const).map((p) => ({ value: p, label: t(`configuracoes.profiles.${p}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="active"
            label={t("configuracoes.users.active")}
            valuePropName="checked"
            extra={profile === "admin" || profile === "super" ? t("configuracoes.users.adminAlwaysActive") : undefined}
          >
            <Switch disabled={self || profile === "admin" || profile === "super"} />
          </Form.Item>
        </div>
        <Form.Item name="queues" label={t("configuracoes.users.queues")} extra={t("configuracoes.users.queuesHint")}>
          <Select
            mode="multiple"
            allowClear
            data-testid="user-queues"
            placeholder={t("configuracoes.users.queuesPlaceholder")}
            optionFilterProp="label"
            options={queues.map((q) => ({ value: q.id, label: q.name, disabled: !q.active && !(user?.queues ?? []).includes(q.id) }))}
            notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("configuracoes.queues.empty")} />}
          />
        </Form.Item>
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}
