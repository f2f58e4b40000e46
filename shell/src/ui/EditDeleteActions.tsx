import type { ReactNode } from "react";
import { Button, Popconfirm, Space, Tooltip } from "antd";
import { DeleteOutlined, EditOutlined } from "@ant-design/icons";
import type { TFunction } from "i18next";

/** A row's edit button and its delete button behind a confirmation. */
export function EditDeleteActions({ t, onEdit, onDelete, deleteTitle, deleteDetail }: { t: TFunction; onEdit(): void; onDelete(): unknown; deleteTitle: ReactNode; deleteDetail: ReactNode }) {
  return (
    <Space size={4}>
      <Tooltip title={t("common.edit")}>
        <Button type="text" icon={<EditOutlined />} onClick={onEdit} aria-label={t("common.edit")} />
      </Tooltip>
      <Popconfirm title={deleteTitle} description={deleteDetail} okText={t("common.delete")} cancelText={t("common.cancel")} okButtonProps={{ danger: true }} onConfirm={() => void onDelete()}>
        <Button type="text" danger icon={<DeleteOutlined />} aria-label={t("common.delete")} />
      </Popconfirm>
    </Space>
  );
}
