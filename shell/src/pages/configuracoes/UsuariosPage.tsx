import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Alert, Avatar, Badge, Button, Card, Empty, Form, Input, Modal, Select, Space, Switch, Table, Tag, Tooltip, Typography } from "antd";
import { DeleteOutlined, EditOutlined, LockOutlined, MailOutlined, PhoneOutlined, SearchOutlined, TeamOutlined, UserAddOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { SectionHeader } from "../../ui/SectionHeader";
import { applyFieldErrors } from "../../ui/api-errors";
import { avatarColor, initials } from "../../ui/person";
import type { QueueView } from "./FilasPage";

type Profile = "user" | "supervisor" | "admin" | "super";

export interface UserView {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  status: string;
  active: boolean;
  image: string | null;
  queues: number[];
  phoneNumber?: string | null;
  isMaster?: boolean;
  lastLoginAt?: string | null;
}

interface UserList {
  users: UserView[];
  count: number;
  hasMore: boolean;
}

const PROFILE_COLOR: Record<Profile, string> = { user: "default", supervisor: "blue", admin: "gold", super: "purple" };
const PAGE_SIZE = 20;

/** Spec §5: at least 8 characters, an upper-case letter, a lower-case letter and a digit; letters and digits only. */
export const STRONG_PASSWORD = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d]{8,}$/;

/** Settings › Usuários: the tenant's users, their profile and queues; deleting hands the tickets to another user. */
export default observer(function UsuariosPage() {
  const root = useRoot();
  const { t } = useTranslation();
  const [rows, setRows] = useState<UserView[]>([]);
  const [count, setCount] = useState(0);
  const [page, setPage] = useState(1);
  const [loading, setLoading] = useState(true);
  const [search, setSearch] = useState("");
  const [term, setTerm] = useState("");
  const [queues, setQueues] = useState<QueueView[]>([]);
  const [editing, setEditing] = useState<UserView | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<UserView | null>(null);

  useEffect(() => {
    const h = setTimeout(() => {
      setTerm(search.trim());
      setPage(1);
    }, 350);
    return () => clearTimeout(h);
  }, [search]);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await root.api.get<UserList>("/users", { query: { searchParam: term || undefined, pageNumber: page, pageSize: PAGE_SIZE } });
      setRows(r.users);
      setCount(r.count);
    } catch {
      /* shown by the client */
    } finally {
      setLoading(false);
    }
  }, [root, term, page]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    root.api.get<QueueView[]>("/queues").then(setQueues, () => undefined);
  }, [root]);

  const queueName = useMemo(() => new Map(queues.map((q) => [q.id, q])), [queues]);
  const me = root.session.userId;

  return (
    <Card variant="borderless" data-testid="users-page">
      <SectionHeader
        title={t("configuracoes.users.title")}
        description={t("configuracoes.users.description")}
        extra={
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setEditing(null)} data-testid="user-new">
            {t("configuracoes.users.new")}
          </Button>
        }
      />
      <div className="oa-toolbar">
        <Input allowClear prefix={<SearchOutlined />} placeholder={t("configuracoes.users.search")} style={{ maxWidth: 320 }} value={search} onChange={(e) => setSearch(e.target.value)} />
        <span className="oa-grow" />
        <Typography.Text type="secondary">{t("configuracoes.users.count", { count })}</Typography.Text>
      </div>
      <Table<UserView>
        rowKey="id"
        loading={loading}
        dataSource={rows}
        scroll={{ x: 720 }}
        pagination={count > PAGE_SIZE ? { current: page, pageSize: PAGE_SIZE, total: count, showSizeChanger: false, onChange: setPage } : false}
        locale={{
          emptyText: <Empty image={<TeamOutlined style={{ fontSize: 44, opacity: 0.35 }} />} description={term ? t("configuracoes.noMatch") : t("configuracoes.users.empty")} />,
        }}
        columns={[
          {
            title: t("configuracoes.users.name"),
            dataIndex: "name",
            render: (_: unknown, u) => (
              <span className="oa-cell-main">
                <Badge dot status={u.status === "online" ? "success" : "default"} offset={[-4, 28]}>
                  <Avatar src={u.image || undefined} style={{ background: avatarColor(u.id) }}>
                    {initials(u.name)}
                  </Avatar>
                </Badge>
                <span className="oa-cell-text">
                  <strong>
                    {u.name}
                    {u.id === me ? (
                      <Tag style={{ marginInlineStart: 8 }} variant="filled">
                        {t("configuracoes.users.you")}
                      </Tag>
                    ) : null}
                  </strong>
                  <span className="oa-muted">{u.email}</span>
                </span>
              </span>
            ),
          },
          {
            title: t("configuracoes.users.profile"),
            dataIndex: "profile",
            width: 150,
            render: (p: Profile) => <Tag color={PROFILE_COLOR[p]}>{t(`configuracoes.profiles.${p}`)}</Tag>,
          },
          {
            title: t("configuracoes.users.queues"),
            dataIndex: "queues",
            render: (ids: number[]) =>
              ids.length ? (
                <span className="oa-tags">
                  {ids.map((id) => (
                    <Tag key={id}>{queueName.get(id)?.name ?? `#${id}`}</Tag>
                  ))}
                </span>
              ) : (
                <Typography.Text type="secondary">{t("configuracoes.users.noQueues")}</Typography.Text>
              ),
          },
          {
            title: t("configuracoes.queues.status"),
            dataIndex: "active",
            width: 120,
            responsive: ["lg"],
            render: (a: boolean) => (
              <Tag color={a ? "green" : "red"} variant="filled">
                {a ? t("configuracoes.active") : t("configuracoes.inactive")}
              </Tag>
            ),
          },
          {
            title: t("common.actions"),
            key: "actions",
            width: 110,
            align: "right",
            fixed: "right",
            render: (_: unknown, u) => (
              <Space size={4}>
                <Tooltip title={t("common.edit")}>
                  <Button type="text" icon={<EditOutlined />} onClick={() => setEditing(u)} aria-label={t("common.edit")} data-testid={`user-edit-${u.id}`} />
                </Tooltip>
                <Tooltip title={u.id === me ? t("configuracoes.users.cannotDeleteSelf") : t("common.delete")}>
                  <Button type="text" danger icon={<DeleteOutlined />} disabled={u.id === me} onClick={() => setDeleting(u)} aria-label={t("common.delete")} data-testid={`user-delete-${u.id}`} />
                </Tooltip>
              </Space>
            ),
          },
        ]}
      />
      {editing !== undefined ? (
        <UserModal
          user={editing}
          queues={queues}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            void load();
          }}
        />
      ) : null}
      {deleting ? (
        <DeleteUserModal
          user={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            void load();
          }}
        />
      ) : null}
    </Card>
  );
});

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

function UserModal({ user, queues, onClose, onSaved }: { user: UserView | null; queues: QueueView[]; onClose: () => void; onSaved: () => void }) {
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

function DeleteUserModal({ user, onClose, onDeleted }: { user: UserView; onClose: () => void; onDeleted: () => void }) {
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
