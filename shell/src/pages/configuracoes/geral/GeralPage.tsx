import { useTranslation } from "react-i18next";
import { Card, Skeleton } from "antd";
import { SectionHeader } from "../../../ui/SectionHeader";
import { AtendimentoGroup } from "./AtendimentoGroup";
import { SlaGroup } from "./SlaGroup";
import { ProtocolGroup } from "./ProtocolGroup";
import { AparenciaGroup } from "./AparenciaGroup";
import { VisibilidadeGroup } from "./VisibilidadeGroup";
import { useTenantSettings } from "./useTenantSettings";
import "./geral.css";

/**
 * Settings › Geral (spec §2, fields in spec §3 "General settings", visibility in §6): the
 * tenant's rules, one group per subject, each setting saved on its own (PUT /settings/:key).
 * Where each acts is the business of the screens that read them (layout, chat, lists).
 */
export default function GeralPage() {
  const { t } = useTranslation();
  const settings = useTenantSettings();

  return (
    <div data-testid="general-settings-page" className="oa-settings-stack" aria-busy={!settings.values}>
      <SectionHeader title={t("geral.title")} description={t("geral.description")} />
      {settings.values ? (
        <>
          <AtendimentoGroup settings={settings} />
          <SlaGroup settings={settings} />
          <ProtocolGroup settings={settings} />
          <AparenciaGroup settings={settings} />
          <VisibilidadeGroup settings={settings} />
        </>
      ) : (
        <Card variant="borderless">
          <Skeleton active paragraph={{ rows: 6 }} />
        </Card>
      )}
    </div>
  );
}
