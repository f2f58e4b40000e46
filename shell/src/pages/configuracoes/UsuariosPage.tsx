import { useCallback, useEffect, useMemo, useState } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Avatar, Badge, Button, Input, Space, Tag, Tooltip, Typography } from "antd";
import { DeleteOutlined, EditOutlined, SearchOutlined, TeamOutlined, UserAddOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { SettingsList } from "../../ui/SettingsList";
import { avatarColor, initials } from "../../ui/person";
import type { QueueView } from "./FilasPage";
import { DeleteUserModal } from "./usuarios/DeleteUserModal";
import type { Profile, UserList, UserView } from "./usuarios/types";
import { UserModal } from "./usuarios/UserModal";

const PROFILE_COLOR: Record<Profile, string> = { user: "default", supervisor: "blue", admin: "gold", super: "purple" };

/** Settings › Usuários: the tenant's users, their profile and queues; deleting hands the tickets to another user. */
export default observer(function UsuariosPage() {
  const root = useRoot();
  const { t } = useTranslation();
  // The tenant's page size (general settings: pageSize governs the paged lists), as the contacts page.
  const pageSize = Math.min(200, Math.max(5, Number(root.settings.get("pageSize")) || 40));
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
      const r = await root.api.get<UserList>("/users", { query: { searchParam: term || undefined, pageNumber: page, pageSize } });
      setRows(r.users);
      setCount(r.count);
    } catch {
      /* shown by the client */
    } finally {
      setLoading(false);
    }
  }, [root, term, page, pageSize]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    root.api.get<QueueView[]>("/queues").then(setQueues, () => undefined);
  }, [root]);

  const queueName = useMemo(() => new Map(queues.map((q) => [q.id, q])), [queues]);
  const me = root.session.userId;

  return (
    <SettingsList<UserView>
      testId="users-page"
      title={t("configuracoes.users.title")}
      description={t("configuracoes.users.description")}
      newLabel={t("configuracoes.users.new")}
      newIcon={<UserAddOutlined />}
      newTestId="user-new"
      onNew={() => setEditing(null)}
      toolbar={
        <>
          <Input allowClear prefix={<SearchOutlined />} placeholder={t("configuracoes.users.search")} style={{ maxWidth: 320 }} value={search} onChange={(e) => setSearch(e.target.value)} />
          <span className="oa-grow" />
          <Typography.Text type="secondary">{t("configuracoes.users.count", { count })}</Typography.Text>
        </>
      }
      icon={<TeamOutlined />}
      emptyText={t("configuracoes.users.empty")}
      noMatchText={t("configuracoes.noMatch")}
      filtered={!!term}
      emptyAction={false}
      rows={rows}
      loading={loading}
      scrollX={720}
      pagination={count > pageSize ? { current: page, pageSize, total: count, showSizeChanger: false, onChange: setPage } : false}
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
    >
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
    </SettingsList>
  );
});
