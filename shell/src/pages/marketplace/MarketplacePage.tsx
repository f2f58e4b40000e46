import { Tabs, Typography } from "antd";
import { AppstoreOutlined, BankOutlined, SafetyCertificateOutlined } from "@ant-design/icons";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import CatalogueTab from "./CatalogueTab";
import TenantsTab from "./TenantsTab";
import PublishersTab from "./PublishersTab";
import "../../ui/kit.css";
import "./marketplace.css";

const TABS: Array<{ key: string; icon: ReactNode; render: () => ReactNode }> = [
  { key: "catalogo", icon: <AppstoreOutlined />, render: () => <CatalogueTab /> },
  { key: "empresas", icon: <BankOutlined />, render: () => <TenantsTab /> },
  { key: "publicadores", icon: <SafetyCertificateOutlined />, render: () => <PublishersTab /> },
];

/**
 * /marketplace (the platform level only; PathGate refuses other profiles): the catalogue with
 * installs, which tenants may use which plugin, and the publishers' accounts. The open tab is
 * in the address (?tab=) so it survives a reload.
 */
export default function MarketplacePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const current = TABS.some((x) => x.key === params.get("tab")) ? params.get("tab")! : "catalogo";
  return (
    <div className="oa-page oa-marketplace" data-page="MarketplacePage" data-testid="marketplace-page">
      <div className="oa-page-head">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t("marketplace.title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("marketplace.subtitle")}</Typography.Text>
        </div>
      </div>
      <Tabs
        className="oa-settings-tabs"
        activeKey={current}
        destroyOnHidden
        onChange={(k) => setParams(k === "catalogo" ? {} : { tab: k }, { replace: true })}
        items={TABS.map((x) => ({
          key: x.key,
          label: (
            <span data-testid={`marketplace-tab-${x.key}`}>
              {x.icon}
              <span style={{ marginInlineStart: 8 }}>{t(`marketplace.tabs.${x.key}`)}</span>
            </span>
          ),
          children: <section className="oa-settings-body">{x.render()}</section>,
        }))}
      />
    </div>
  );
}
