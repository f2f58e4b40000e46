import { useEffect, useState, type ReactNode } from "react";
import { observer } from "mobx-react-lite";
import { useTranslation } from "react-i18next";
import { Skeleton, Tabs } from "antd";
import { RobotOutlined, SettingOutlined } from "@ant-design/icons";
import { useRoot } from "../../../app/context";
import { SectionHeader } from "../../../ui/SectionHeader";
import { GiphySection, type GiphySettings } from "./GiphySection";
import { TypebotSection, type TypebotSettings } from "./TypebotSection";

/** What GET /settings/global answers (master only; secrets masked): one object per key of the core's GLOBAL_SCHEMAS. */
export interface GlobalSettings {
  giphy?: GiphySettings;
  typebot?: TypebotSettings;
  [key: string]: unknown;
}

type TabProps = { values: GlobalSettings; saved: (key: string, value: unknown) => void };

/**
 * The tabs of spec §2 "Global settings tabs: SMTP/e-mail, system, Typebot, frontend, license",
 * those built so far (a tab appears once it works). Sistema holds the GIF search's GIPHY key;
 * Typebot the builder and viewer addresses the tenants default to, and the API token.
 */
const TABS: Array<{ key: string; icon: ReactNode; render: (p: TabProps) => ReactNode }> = [
  { key: "sistema", icon: <SettingOutlined />, render: ({ values, saved }) => <GiphySection stored={values.giphy} onSaved={(v) => saved("giphy", v)} /> },
  { key: "typebot", icon: <RobotOutlined />, render: ({ values, saved }) => <TypebotSection stored={values.typebot} onSaved={(v) => saved("typebot", v)} /> },
];

/** Settings › Globais: the platform's settings, for the master admin only (spec §6; PathGate refuses anyone else, as the core does). */
export default observer(function GlobaisPage() {
  const root = useRoot();
  const { t } = useTranslation();
  const [values, setValues] = useState<GlobalSettings | null>(null);
  const [tab, setTab] = useState(TABS[0].key);

  useEffect(() => {
    let live = true;
    root.api.get<GlobalSettings>("/settings/global").then(
      (v) => live && setValues(v ?? {}),
      () => live && setValues({}),
    );
    return () => {
      live = false;
    };
  }, [root]);

  const saved = (key: string, value: unknown) => setValues((v) => ({ ...v, [key]: value }));

  return (
    <div data-testid="global-settings-page" className="oa-settings-stack" aria-busy={!values}>
      <SectionHeader title={t("globais.title")} description={t("globais.description")} />
      <Tabs
        className="oa-settings-tabs-inner"
        activeKey={tab}
        onChange={setTab}
        items={TABS.map((x) => ({
          key: x.key,
          label: (
            <span data-testid={`global-tab-${x.key}`}>
              {x.icon}
              <span style={{ marginInlineStart: 8 }}>{t(`globais.tabs.${x.key}`)}</span>
            </span>
          ),
          children: values ? <div className="oa-settings-stack">{x.render({ values, saved })}</div> : <Skeleton active paragraph={{ rows: 4 }} />,
        }))}
      />
    </div>
  );
});
