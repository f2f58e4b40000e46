import { useCallback, useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Alert, Button, Drawer, Empty, Modal, Skeleton, Space, Tabs, Tag, Tooltip, Typography } from "antd";
import { ArrowUpOutlined, CloudDownloadOutlined, DeleteOutlined, HistoryOutlined, WarningOutlined } from "@ant-design/icons";
import { useRoot } from "../../app/context";
import { formatDateTime } from "../../ui/format";
import { formatBytes, localName, versionAction, type VersionAction } from "./logic";
import { MarkdownText } from "./MarkdownText";
import { InstalledBadge, KindIcon, TierTag, useKindLabel } from "./shared";
import type { CatalogueDetail, CatalogueVersion, InstalledPlugin } from "./types";

const ACTION_ICONS: Record<Exclude<VersionAction, "current">, ReactNode> = {
  install: <CloudDownloadOutlined />,
  upgrade: <ArrowUpOutlined />,
  downgrade: <HistoryOutlined />,
};

/**
 * One catalogue plugin (GET /marketplace/plugins/:id): description, README, the published
 * versions newest first with their changelog and compatibility, and what the platform can do
 * with each — install, upgrade (a newer one than installed), go back to an older one — plus
 * rollback to the previous install and uninstall, both confirmed first. Refusals (a plugin
 * still used by connections, an install that failed…) are the API client's error notices.
 */
export default function PluginDrawer({ id, onClose, onChanged }: { id: string; onClose: () => void; onChanged: () => void }) {
  const root = useRoot();
  const { t, i18n } = useTranslation();
  const kindLabel = useKindLabel();
  const [modal, modalHolder] = Modal.useModal();
  const [detail, setDetail] = useState<CatalogueDetail | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setDetail(await root.api.get<CatalogueDetail>(`/marketplace/plugins/${encodeURIComponent(id)}`));
    } catch {
      setFailed(true);
    }
  }, [root, id]);
  useEffect(() => void load(), [load]);

  /** Runs one change of the installed version, then reloads this plugin and the catalogue. */
  const run = async (key: string, call: () => Promise<unknown>, done: string) => {
    setBusy(key);
    try {
      await call();
      root.ui.notify({ kind: "success", title: done });
      await load();
      onChanged();
    } catch {
      /* shown by the client */
    } finally {
      setBusy(null);
    }
  };

  const name = detail ? localName(detail.displayName, i18n.language, detail.id) : id;
  const installed = detail?.installed ?? null;

  const install = (v: CatalogueVersion, action: VersionAction) => {
    const go = () =>
      run(
        `install:${v.version}`,
        () => root.api.post<InstalledPlugin>("/plugins/installed", { id, version: v.version }),
        t(`marketplace.drawer.done.${action === "upgrade" ? "upgrade" : "install"}`, { name, version: v.version }),
      );
    if (action !== "downgrade") return void go();
    modal.confirm({
      title: t("marketplace.drawer.downgradeTitle", { name, version: v.version }),
      content: t("marketplace.drawer.downgradeDetail", { current: installed?.version ?? "" }),
      okText: t("marketplace.drawer.actions.downgrade"),
      cancelText: t("common.cancel"),
      onOk: go,
    });
  };
  const rollback = () =>
    modal.confirm({
      title: t("marketplace.drawer.rollbackTitle", { name, version: installed?.previousVersion ?? "" }),
      content: t("marketplace.drawer.rollbackDetail", { current: installed?.version ?? "" }),
      okText: t("marketplace.drawer.rollback"),
      cancelText: t("common.cancel"),
      onOk: () =>
        run("rollback", () => root.api.post<InstalledPlugin>(`/plugins/installed/${encodeURIComponent(id)}/rollback`, {}), t("marketplace.drawer.done.rollback", { name, version: installed?.previousVersion ?? "" })),
    });
  const uninstall = () =>
    modal.confirm({
      title: t("marketplace.drawer.uninstallTitle", { name }),
      content: t("marketplace.drawer.uninstallDetail"),
      okText: t("marketplace.drawer.uninstall"),
      okButtonProps: { danger: true, "data-testid": "plugin-uninstall-ok" },
      cancelText: t("common.cancel"),
      onOk: () => run("uninstall", () => root.api.delete(`/plugins/installed/${encodeURIComponent(id)}`), t("marketplace.drawer.done.uninstall", { name })),
    });

  const versionRow = (v: CatalogueVersion, i: number) => {
    const action = versionAction(installed, v.version);
    const button =
      action === "current" ? (
        <Tag color="success" variant="filled" data-testid={`version-current-${v.version}`}>
          {t("marketplace.drawer.current")}
        </Tag>
      ) : (
        <Button
          type={action !== "downgrade" && i === 0 ? "primary" : "default"}
          icon={ACTION_ICONS[action]}
          disabled={!v.compatible || (busy !== null && busy !== `install:${v.version}`)}
          loading={busy === `install:${v.version}`}
          onClick={() => install(v, action)}
          data-testid={`version-${action}-${v.version}`}
        >
          {t(`marketplace.drawer.actions.${action}`)}
        </Button>
      );
    return (
      <li key={v.version} className="oa-mkt-version" data-testid={`version-${v.version}`} data-compatible={String(v.compatible)}>
        <div className="oa-mkt-version-head">
          <div className="oa-mkt-version-title">
            <strong className="oa-code">{v.version}</strong>
            {i === 0 ? <Tag color="blue" variant="outlined">{t("marketplace.drawer.latest")}</Tag> : null}
            {v.compatible ? (
              <Tag color="green" variant="outlined" data-testid={`version-compatible-${v.version}`}>
                {t("marketplace.drawer.compatible")}
              </Tag>
            ) : (
              <Tooltip title={t("marketplace.drawer.incompatibleHint", { coreApi: v.coreApi })}>
                <Tag color="red" variant="outlined" icon={<WarningOutlined />} data-testid={`version-incompatible-${v.version}`}>
                  {t("marketplace.drawer.incompatible")}
                </Tag>
              </Tooltip>
            )}
          </div>
          {!v.compatible && action !== "current" ? <Tooltip title={t("marketplace.drawer.incompatibleHint", { coreApi: v.coreApi })}>{button}</Tooltip> : button}
        </div>
        <div className="oa-mkt-version-meta oa-muted">
          <span>{t("marketplace.drawer.publishedAt", { date: formatDateTime(v.publishedAt, i18n.language) })}</span>
          <span>{formatBytes(v.size, i18n.language)}</span>
          <span>{t("marketplace.drawer.coreApi", { coreApi: v.coreApi })}</span>
          {v.tier !== detail?.tier ? <span>{t("marketplace.drawer.tierOf", { tier: v.tier })}</span> : null}
        </div>
        {v.changelog?.trim() ? (
          <MarkdownText source={v.changelog} className="oa-mkt-changelog" testId={`version-changelog-${v.version}`} />
        ) : (
          <Typography.Text type="secondary" className="oa-mkt-nochangelog">
            {t("marketplace.drawer.noChangelog")}
          </Typography.Text>
        )}
      </li>
    );
  };

  return (
    <Drawer
      open
      size={760}
      onClose={onClose}
      destroyOnHidden
      title={
        <span className="oa-cell-main">
          {detail ? <KindIcon kind={detail.kind} /> : null}
          <span className="oa-cell-text">
            <span data-testid="plugin-drawer-title">{name}</span>
            <span className="oa-muted oa-code oa-mkt-drawer-id">{id}</span>
          </span>
        </span>
      }
    >
      {modalHolder}
      {!detail ? (
        failed ? (
          <Empty description={t("marketplace.drawer.loadFailed")} />
        ) : (
          <Skeleton active paragraph={{ rows: 8 }} />
        )
      ) : (
        <div className="oa-mkt-drawer" data-testid="plugin-detail">
          <div className="oa-tags">
            <Tag>{kindLabel(detail.kind)}</Tag>
            <TierTag tier={detail.tier} testId="plugin-detail-tier" />
            <Tag variant="outlined">{t("marketplace.drawer.by", { publisher: detail.publisher?.name ?? "—" })}</Tag>
          </div>
          {detail.description ? <Typography.Paragraph className="oa-mkt-description">{detail.description}</Typography.Paragraph> : null}
          <div className="oa-mkt-install" data-testid="plugin-install-state">
            <div className="oa-cell-text">
              <strong>{t("marketplace.drawer.onPlatform")}</strong>
              <InstalledBadge entry={{ ...detail, latestVersion: detail.versions[0]?.version ?? detail.latestVersion }} testId="plugin-installed" />
              {installed?.previousVersion ? <span className="oa-muted">{t("marketplace.drawer.previous", { version: installed.previousVersion })}</span> : null}
            </div>
            {installed ? (
              <Space wrap>
                {installed.previousVersion ? (
                  <Button icon={<HistoryOutlined />} onClick={rollback} loading={busy === "rollback"} disabled={busy !== null && busy !== "rollback"} data-testid="plugin-rollback">
                    {t("marketplace.drawer.rollbackTo", { version: installed.previousVersion })}
                  </Button>
                ) : null}
                <Button danger icon={<DeleteOutlined />} onClick={uninstall} loading={busy === "uninstall"} disabled={busy !== null && busy !== "uninstall"} data-testid="plugin-uninstall">
                  {t("marketplace.drawer.uninstall")}
                </Button>
              </Space>
            ) : null}
          </div>
          {installed ? <Alert type="info" showIcon title={t("marketplace.drawer.tenantsHint")} /> : null}
          <Tabs
            defaultActiveKey="versions"
            items={[
              {
                key: "versions",
                label: <span data-testid="plugin-tab-versions">{t("marketplace.drawer.versions", { count: detail.versions.length })}</span>,
                children: detail.versions.length ? (
                  <ul className="oa-mkt-versions" data-testid="plugin-versions">
                    {detail.versions.map(versionRow)}
                  </ul>
                ) : (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("marketplace.drawer.noVersions")} />
                ),
              },
              {
                key: "readme",
                label: <span data-testid="plugin-tab-readme">{t("marketplace.drawer.readme")}</span>,
                children: detail.readme?.trim() ? (
                  <MarkdownText source={detail.readme} testId="plugin-readme" />
                ) : (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("marketplace.drawer.noReadme")} />
                ),
              },
            ]}
          />
        </div>
      )}
    </Drawer>
  );
}
