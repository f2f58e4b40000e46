import { Tabs, Typography } from "antd";
import { ApiOutlined, MessageOutlined, PartitionOutlined, TagsOutlined, TeamOutlined } from "@ant-design/icons";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation, useNavigate } from "react-router-dom";
import "../../ui/kit.css";

/** The settings children this shell implements, in menu order. */
export const SETTINGS_SECTIONS: Array<{ key: string; icon: ReactNode }> = [
  { key: "usuarios", icon: <TeamOutlined /> },
  { key: "filas", icon: <PartitionOutlined /> },
  { key: "etiquetas", icon: <TagsOutlined /> },
  { key: "canais", icon: <ApiOutlined /> },
  { key: "mensagens-rapidas", icon: <MessageOutlined /> },
];

/** /configuracoes (admin only, gated by the router): a sub-navigation of the children and the open child. */
export default function ConfiguracoesPage() {
  const { t } = useTranslation();
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
          items={SETTINGS_SECTIONS.map((s) => ({
            key: s.key,
            label: (
              <span data-testid={`settings-tab-${s.key}`}>
                {s.icon}
                <span style={{ marginInlineStart: 8 }}>{t(`configuracoes.sections.${s.key}`)}</span>
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
}
