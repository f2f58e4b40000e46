import type { TFunction } from "i18next";
import { Avatar, Button, Popconfirm, Space, Tag, Tooltip, Typography, type TableColumnsType } from "antd";
import { CheckCircleFilled, DeleteOutlined, EditOutlined } from "@ant-design/icons";
import { formatDateTime } from "../../ui/format";
import { avatarColor, initials } from "../../ui/person";
import { formatPhone } from "./rules";
import type { ContactView, UserOption } from "./types";

/** The columns of the contacts table: who, number (WhatsApp-validated), e-mail, tags, wallet, created, actions. */
export function contactColumns({
  t,
  locale,
  userById,
  onEdit,
  onDelete,
}: {
  t: TFunction;
  locale: string;
  userById: Map<number, UserOption>;
  onEdit: (c: ContactView) => void;
  onDelete: (c: ContactView) => unknown;
}): TableColumnsType<ContactView> {
  return [
    {
      title: t("contatos.columns.contact"),
      dataIndex: "name",
      minWidth: 220,
      render: (_: unknown, c) => {
        const sub = c.businessName || [c.firstName, c.lastName].filter(Boolean).join(" ");
        return (
          <span className="oa-cell-main">
            <Avatar src={c.profilePicUrl || undefined} style={{ background: avatarColor(c.id), flex: "none" }}>
              {initials(c.name)}
            </Avatar>
            <span className="oa-cell-text">
              <button type="button" className="oa-name-link" onClick={() => onEdit(c)}>
                {c.name}
              </button>
              {sub ? <span className="oa-muted">{sub}</span> : null}
            </span>
          </span>
        );
      },
    },
    {
      title: t("contatos.columns.number"),
      dataIndex: "number",
      width: 180,
      render: (n: string | null, c) =>
        c.contactInfoHidden ? (
          <Typography.Text type="secondary">{t("contatos.hidden")}</Typography.Text>
        ) : n ? (
          <span className="oa-nowrap">
            {formatPhone(n)}
            {c.whatsappValidated ? (
              <Tooltip title={t("contatos.whatsappValidated")}>
                <CheckCircleFilled style={{ color: "#25a55f", marginInlineStart: 6 }} />
              </Tooltip>
            ) : null}
          </span>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      title: t("contatos.columns.email"),
      dataIndex: "email",
      minWidth: 180,
      responsive: ["xl"],
      ellipsis: true,
      render: (e: string | null, c) => (c.contactInfoHidden ? <Typography.Text type="secondary">{t("contatos.hidden")}</Typography.Text> : e || <Typography.Text type="secondary">—</Typography.Text>),
    },
    {
      title: t("contatos.columns.tags"),
      dataIndex: "tags",
      minWidth: 160,
      render: (ts: ContactView["tags"]) =>
        ts.length ? (
          <span className="oa-tags">
            {ts.map((x) => (
              <Tag key={x.id} color={x.color}>
                {x.name}
              </Tag>
            ))}
          </span>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      title: t("contatos.columns.wallet"),
      dataIndex: "wallet",
      width: 110,
      responsive: ["xl"],
      render: (ids: number[]) =>
        ids.length ? (
          <Avatar.Group max={{ count: 3 }} size="small">
            {ids.map((id) => {
              const u = userById.get(id);
              return (
                <Tooltip key={id} title={u?.name ?? `#${id}`}>
                  <Avatar size="small" src={u?.image || undefined} style={{ background: avatarColor(id) }}>
                    {initials(u?.name)}
                  </Avatar>
                </Tooltip>
              );
            })}
          </Avatar.Group>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      title: t("contatos.columns.createdAt"),
      dataIndex: "createdAt",
      width: 150,
      responsive: ["xxl"],
      render: (v: string) => <span className="oa-nowrap">{formatDateTime(v, locale)}</span>,
    },
    {
      title: t("common.actions"),
      key: "actions",
      width: 100,
      align: "right",
      fixed: "right",
      render: (_: unknown, c) => (
        <Space size={2}>
          <Tooltip title={t("common.edit")}>
            <Button type="text" icon={<EditOutlined />} onClick={() => onEdit(c)} aria-label={t("common.edit")} data-testid={`contact-edit-${c.id}`} />
          </Tooltip>
          <Popconfirm
            title={t("contatos.deleteTitle")}
            description={t("contatos.deleteDetail", { name: c.name })}
            okText={t("common.delete")}
            cancelText={t("common.cancel")}
            okButtonProps={{ danger: true, "data-testid": "contact-delete-ok" } as never}
            onConfirm={() => onDelete(c)}
          >
            <Button type="text" danger icon={<DeleteOutlined />} aria-label={t("common.delete")} data-testid={`contact-delete-${c.id}`} />
          </Popconfirm>
        </Space>
      ),
    },
  ];
}
