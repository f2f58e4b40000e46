import { useCallback, useEffect, useState } from "react";
import { Avatar, Button, Empty, Popconfirm, Space, Switch, Table, Tag, Typography } from "antd";
import { DeleteOutlined, EditOutlined, PlusOutlined, TeamOutlined } from "@ant-design/icons";
import { useRuntime } from "./runtime";
import { useFileUrl } from "./media";
import { GroupModal } from "./GroupModal";
import type { GroupRow, TenantUser } from "./types";

function GroupImage({ url }: { url: string | null }) {
  const src = useFileUrl(url, null);
  return <Avatar src={src ?? undefined} icon={<TeamOutlined />} style={{ background: "#13a8a8" }} data-testid="ic-group-avatar" />;
}

/**
 * /configuracoes/grupos (admins, PLUS): the internal chat's groups — image, name, members,
 * active — created, edited, switched on and off, and deleted with their messages.
 */
export default function GroupsPage() {
  const runtime = useRuntime();
  const t = runtime.t;
  const [groups, setGroups] = useState<GroupRow[] | null>(null);
  const [users, setUsers] = useState<TenantUser[]>([]);
  const [editing, setEditing] = useState<GroupRow | "new" | null>(null);

  const load = useCallback(async () => {
    try {
      const [g, u] = await Promise.all([runtime.api.get<GroupRow[]>("/chat-interno/groups", { silent: true }), runtime.api.get<TenantUser[]>("/chat-interno/users", { silent: true })]);
      setGroups(g);
      setUsers(u);
    } catch (err) {
      runtime.notify.error(err);
      setGroups([]);
    }
  }, [runtime]);

  useEffect(() => void load(), [load]);

  const names = new Map(users.map((u) => [u.id, u.name]));
  const toggle = async (g: GroupRow, active: boolean) => {
    await runtime.api.put("/chat-interno/groups", { id: g.id, active }).catch((err) => runtime.notify.error(err));
    await load();
  };
  const remove = async (g: GroupRow) => {
    await runtime.api.delete("/chat-interno/groups", { query: { id: g.id } }).catch((err) => runtime.notify.error(err));
    await load();
  };

  return (
    <div data-testid="ic-groups-page">
      <div style={{ display: "flex", alignItems: "center", justifyContent: "space-between", marginBottom: 12 }}>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t("groupsTitle")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("groupsSubtitle")}</Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="ic-new-group">
          {t("newGroup")}
        </Button>
      </div>
      <Table<GroupRow>
        rowKey="id"
        loading={!groups}
        dataSource={groups ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t("noGroupsAdmin")} /> }}
        onRow={(g) => ({ "data-testid": "ic-group-row", "data-name": g.name }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { key: "image", width: 64, render: (_, g) => <GroupImage url={g.imageUrl} /> },
          { key: "name", title: t("groupName"), dataIndex: "name" },
          {
            key: "users",
            title: t("groupUsers"),
            render: (_, g) => (
              <Space size={[4, 4]} wrap>
                {g.userIds.map((id) => (
                  <Tag key={id}>{names.get(id) ?? `#${id}`}</Tag>
                ))}
              </Space>
            ),
          },
          {
            key: "active",
            title: t("status"),
            width: 120,
            render: (_, g) => <Switch checked={g.active} onChange={(v) => void toggle(g, v)} checkedChildren={t("activeTag")} unCheckedChildren={t("inactiveTag")} data-testid="ic-group-active" />,
          },
          {
            key: "actions",
            title: t("actions"),
            width: 110,
            render: (_, g) => (
              <Space>
                <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(g)} aria-label={t("editGroup")} data-testid="ic-edit-group" />
                <Popconfirm title={t("deleteGroupConfirm", { name: g.name })} okText={t("yes")} cancelText={t("no")} onConfirm={() => void remove(g)}>
                  <Button size="small" danger icon={<DeleteOutlined />} aria-label={t("delete")} data-testid="ic-delete-group" />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <GroupModal
          group={editing === "new" ? undefined : editing}
          users={users}
          onClose={(changed) => {
            setEditing(null);
            if (changed) void load();
          }}
        />
      )}
    </div>
  );
}
