import { Tabs, Typography } from "antd";
import { observer } from "mobx-react-lite";
import { ApiOutlined, AppstoreOutlined, CalendarOutlined, ClockCircleOutlined, FieldTimeOutlined, ControlOutlined, GlobalOutlined, PartitionOutlined, TagsOutlined, TeamOutlined } from "@ant-design/icons";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation, useNavigate } from "react-router-dom";
import { labelOf, useSlot } from "../../plugins/slots";
import { useRoot } from "../../app/context";
import { isMasterAdmin } from "../../app/gating";
import "../../ui/kit.css";

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

/** /configuracoes (admin only, gated by the router): a sub-navigation of the children (the core's, then the plugins' sections) and the open child. */
export default observer(function ConfiguracoesPage() {
  const root = useRoot();
  const { t } = useTranslation();
  const pluginSections = useSlot("settingsSections").filter((s) => !SETTINGS_SECTIONS.some((c) => c.key === s.path));
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const current = pathname.replace(/^\/configuracoes\/?/, "").split("/")[0] || "usuarios";
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
      <nav aria-label={t("configuracoes.title")}>
        <Tabs
          className="oa-settings-tabs"
          activeKey={current}
          onChange={(k) => navigate(`/configuracoes/${k}`)}
          items={[
            ...SETTINGS_SECTIONS.filter((s) => !s.master || isMasterAdmin(root)).map((s) => ({ key: s.key, icon: s.icon, text: t(`configuracoes.sections.${s.key}`) })),
            ...pluginSections.map((s) => ({ key: s.path, icon: <AppstoreOutlined />, text: labelOf(s.label, root.session.locale) })),
          ].map((s) => ({
            key: s.key,
            label: (
              <span data-testid={`settings-tab-${s.key}`}>
                {s.icon}
                <span style={{ marginInlineStart: 8 }}>{s.text}</span>
              </span>
            ),
          }))}
        />
      </nav>
      <section className="oa-settings-body">
        <Outlet />
      </section>
    </div>
  );
});
