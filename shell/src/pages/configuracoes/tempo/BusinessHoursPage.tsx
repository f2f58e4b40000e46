import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Tabs } from "antd";
import { CalendarOutlined, FieldTimeOutlined, PoweroffOutlined } from "@ant-design/icons";
import { useSearchParams } from "react-router-dom";
import { SchedulesTab } from "./SchedulesTab";
import { HolidaysTab } from "./HolidaysTab";
import { SmartCloseTab } from "./SmartCloseTab";
import { useTargets } from "./useTargets";
import "../settings-group.css";
import "./tempo.css";

const TABS = ["schedules", "holidays", "smart-close"] as const;
type TabKey = (typeof TABS)[number];

/**
 * Settings › Horários por fila: opening hours by queue, user and WhatsApp connection (they win
 * over the tenant's own hours of Settings › Horário for their tickets), the holidays of each
 * year, and smart close. The open tab is in the address (?tab=), so a reload keeps it.
 */
export default observer(function BusinessHoursPage() {
  const { t } = useTranslation();
  const targets = useTargets();
  const [params, setParams] = useSearchParams();
  const tab: TabKey = (TABS as readonly string[]).includes(params.get("tab") ?? "") ? (params.get("tab") as TabKey) : "schedules";
  const icons = { schedules: <FieldTimeOutlined />, holidays: <CalendarOutlined />, "smart-close": <PoweroffOutlined /> };

  return (
    <div data-testid="business-hours-page" className="oa-settings-stack">
      <Tabs
        className="oa-settings-tabs-inner"
        activeKey={tab}
        onChange={(k) => setParams(k === "schedules" ? {} : { tab: k }, { replace: true })}
        items={TABS.map((k) => ({
          key: k,
          label: (
            <span data-testid={`business-hours-tab-${k}`}>
              {icons[k]}
              <span style={{ marginInlineStart: 8 }}>{t(`tempo.businessHours.tabs.${k}`)}</span>
            </span>
          ),
          children: k === "schedules" ? <SchedulesTab targets={targets} /> : k === "holidays" ? <HolidaysTab targets={targets} /> : <SmartCloseTab />,
        }))}
      />
    </div>
  );
});
