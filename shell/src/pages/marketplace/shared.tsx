import { Tag, Tooltip, Typography } from "antd";
import { ApiOutlined, AppstoreOutlined, ArrowUpOutlined, CheckCircleFilled, BarChartOutlined, NotificationOutlined, RobotOutlined, ThunderboltOutlined } from "@ant-design/icons";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { TIER_COLORS, hasUpdate } from "./logic";
import type { CatalogueEntry, Tier } from "./types";

const KIND_VISUALS: Record<string, { icon: ReactNode; color: string }> = {
  channel: { icon: <ApiOutlined />, color: "#0a7d4f" },
  campaign: { icon: <NotificationOutlined />, color: "#ea580c" },
  ai: { icon: <ThunderboltOutlined />, color: "#7c3aed" },
  chatbot: { icon: <RobotOutlined />, color: "#0891b2" },
  report: { icon: <BarChartOutlined />, color: "#2563eb" },
  module: { icon: <AppstoreOutlined />, color: "#4b5563" },
};

/** The square icon of a plugin, by kind. */
export function KindIcon({ kind }: { kind: string }) {
  const v = KIND_VISUALS[kind] ?? KIND_VISUALS.module;
  return (
    <span className="oa-type-icon" style={{ background: v.color }} aria-hidden>
      {v.icon}
    </span>
  );
}

/** A plugin kind in the user's language (the raw kind when it is not one we know). */
export function useKindLabel(): (kind: string) => string {
  const { t } = useTranslation();
  return (kind) => {
    const k = `marketplace.kinds.${kind}`;
    const v = t(k);
    return v === k ? kind : v;
  };
}

/** The licence tier a plugin needs, as a coloured tag. */
export function TierTag({ tier, testId }: { tier: Tier; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t("marketplace.tierHint", { tier })}>
      <Tag color={TIER_COLORS[tier]} variant="filled" data-testid={testId} data-tier={tier}>
        {tier}
      </Tag>
    </Tooltip>
  );
}

/** The installed version of a catalogue plugin, and a hint when a newer one is published. */
export function InstalledBadge({ entry, testId }: { entry: Pick<CatalogueEntry, "id" | "installed" | "latestVersion">; testId?: string }) {
  const { t } = useTranslation();
  const tid = testId ?? `catalogue-installed-${entry.id}`;
  const inst = entry.installed;
  if (!inst) {
    return (
      <Typography.Text type="secondary" data-testid={tid} data-version="">
        {t("marketplace.catalogue.notInstalled")}
      </Typography.Text>
    );
  }
  return (
    <span className="oa-tags" data-testid={tid} data-version={inst.version}>
      <Tag color="success" variant="filled" icon={<CheckCircleFilled />}>
        {t("marketplace.catalogue.installedVersion", { version: inst.version })}
      </Tag>
      {hasUpdate(inst, entry.latestVersion) ? (
        <Tooltip title={t("marketplace.catalogue.updateHint", { version: entry.latestVersion })}>
          <Tag color="orange" variant="outlined" icon={<ArrowUpOutlined />}>
            {t("marketplace.catalogue.update")}
          </Tag>
        </Tooltip>
      ) : null}
    </span>
  );
}
