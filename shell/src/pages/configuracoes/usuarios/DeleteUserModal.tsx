import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert, Form, Modal, Select } from "antd";
import { useRoot } from "../../../app/context";
import type { UserList, UserView } from "./types";

/** Deleting a user hands their tickets to another active user (DELETE /users/:id?newUserId=). */
export function DeleteUserModal({ user, onClose, onDeleted }: { user: UserView; onClose: () => void; onDeleted: () => void }) {
  const root = useRoot();
  const { t } = useTranslation();
  const [heir, setHeir] = useState<number | undefined>();
  const [options, setOptions] = useState<UserView[]>([]);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const seq = useRef(0);

  useEffect(() => {
    const n = ++seq.current;
    root.api.get<UserList>("/users", { query: { pageSize: 200 } }).then(
      (r) => {
        if (n === seq.current) setOptions(r.users.filter((u) => u.id !== user.id && u.active));
      },
      () => undefined,
    );
  }, [root, user.id]);

  const submit = async () => {
    setTouched(true);
    if (!heir) return;
    setBusy(true);
    try {
      await root.api.delete(`/users/${user.id}`, { query: { newUserId: heir }, successNotice: true });
      onDeleted();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t("configuracoes.users.deleteTitle", { name: user.name })}
      okText={t("common.delete")}
      okButtonProps={{ danger: true, disabled: !heir, "aria-label": t("common.delete") } as never}
      cancelText={t("common.cancel")}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t("configuracoes.users.deleteDetail")} />
      <Form layout="vertical" component="div">
        <Form.Item label={t("configuracoes.users.heir")} required validateStatus={touched && !heir ? "error" : undefined} help={touched && !heir ? t("common.required") : t("configuracoes.users.heirHint")}>
          <Select
            showSearch
            optionFilterProp="label"
            data-testid="user-heir"
            placeholder={t("configuracoes.users.heirPlaceholder")}
            value={heir}
            onChange={setHeir}
            options={options.map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
