import { Menu, Typography } from "antd";
import { observer } from "mobx-react-lite";
import { ApiOutlined, AppstoreOutlined, CalendarOutlined, ClockCircleOutlined, FieldTimeOutlined, ControlOutlined, GlobalOutlined, PartitionOutlined, TagsOutlined, TeamOutlined } from "@ant-design/icons";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation, useNavigate } from "react-router-dom";
import { labelOf, useSlot } from "../../plugins/slots";
import { useRoot } from "../../app/context";
import { isMasterAdmin } from "../../app/gating";
import "../../ui/kit.css";
import "./settings-nav.css";

/** The settings children this shell implements, in menu order (spec §2); `master`: the master admin's only. */
export const SETTINGS_SECTIONS: Array<{ key: string; icon: ReactNode; master?: boolean }> = [
  { key: "geral", icon: <ControlOutlined /> },
  { key: "usuarios", icon: <TeamOutlined /> },
  { key: "filas", icon: <PartitionOutlined /> },
  { key: "etiquetas", icon: <TagsOutlined /> },
  { key: "canais", icon: <ApiOutlined /> },
  { key: "horario", icon: <ClockCircleOutlined /> },
  { key: "business-hours", icon: <FieldTimeOutlined /> },
  { key: "horarios", icon: <CalendarOutlined /> },
  { key: "globais", icon: <GlobalOutlined />, master: true },
];

const item = (key: string, icon: ReactNode, text: string) => ({
  key,
  icon,
  label: (
    <span data-testid={`settings-tab-${key}`} title={text}>
      {text}
    </span>
  ),
});

/**
 * /configuracoes (admin only, gated by the router): a side navigation of the children — the
 * core's, then the plugins' sections, in two groups, every one in sight however many plugins
 * add theirs (a tab strip of twenty-odd sections hid most of them) — and the open child.
 * Below 900 px wide the navigation goes above the child and scrolls sideways.
 */
export default observer(function ConfiguracoesPage() {
  const root = useRoot();
  const { t } = useTranslation();
  const pluginSections = useSlot("settingsSections").filter((s) => !SETTINGS_SECTIONS.some((c) => c.key === s.path));
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const current = pathname.replace(/^\/configuracoes\/?/, "").split("/")[0] || "usuarios";
  const core = SETTINGS_SECTIONS.filter((s) => !s.master || isMasterAdmin(root)).map((s) => item(s.key, s.icon, t(`configuracoes.sections.${s.key}`)));
  // In the order of their names: the plugins register as their remotes load, in no set order.
  const plugins = pluginSections
    .map((s) => ({ path: s.path, text: labelOf(s.label, root.session.locale) }))
    .sort((a, b) => a.text.localeCompare(b.text, root.session.locale))
    .map((s) => item(s.path, <AppstoreOutlined />, s.text));
  return (
    <div className="oa-page oa-settings" data-page="ConfiguracoesPage">
      <div className="oa-page-head">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t("configuracoes.title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("configuracoes.subtitle")}</Typography.Text>
        </div>
      </div>
      <div className="oa-settings-layout">
        <nav aria-label={t("configuracoes.nav")} className="oa-settings-tabs oa-settings-nav">
          <Menu
            mode="inline"
            selectedKeys={[current]}
            onClick={({ key }) => navigate(`/configuracoes/${key}`)}
            items={[
              { type: "group", key: "core", label: t("configuracoes.groups.core"), children: core },
              ...(plugins.length ? [{ type: "group" as const, key: "plugins", label: t("configuracoes.groups.plugins"), children: plugins }] : []),
            ]}
          />
        </nav>
        <section className="oa-settings-body">
          <Outlet />
        </section>
      </div>
    </div>
  );
});
