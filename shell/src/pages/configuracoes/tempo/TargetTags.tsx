import { Tag, Typography } from "antd";
import { ApiOutlined, PartitionOutlined, UserOutlined, WhatsAppOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import type { ReactNode } from "react";
import type { BusinessHoursType } from "./types";

export const TYPE_ICON: Record<BusinessHoursType, ReactNode> = {
  global: <ApiOutlined />,
  queue: <PartitionOutlined />,
  user: <UserOutlined />,
  whatsapp: <WhatsAppOutlined />,
};

/** The targets of a schedule or holiday as tags with their names (an id no longer found says so). */
export function TargetTags({
  type,
  ids,
  targets,
  nameOf,
  max = 4,
}: {
  type: BusinessHoursType;
  ids: number[];
  /** The names the API answered with the row. */
  targets?: Array<{ id: number; name: string }>;
  nameOf: (type: string, id: number) => string | undefined;
  max?: number;
}) {
  const { t } = useTranslation();
  if (type === "global") return <Typography.Text type="secondary">{t("tempo.targets.everyone")}</Typography.Text>;
  const shown = ids.slice(0, max);
  return (
    <span className="oa-tags" data-testid="target-tags">
      {shown.map((id) => (
        <Tag key={id} icon={TYPE_ICON[type]} variant="filled">
          {targets?.find((x) => x.id === id)?.name ?? nameOf(type, id) ?? t("tempo.targets.missing", { id })}
        </Tag>
      ))}
      {ids.length > max ? <Tag variant="outlined">+{ids.length - max}</Tag> : null}
    </span>
  );
}
