import { useTranslation } from "react-i18next";
import { Radio, Select, Typography } from "antd";
import { SettingRow, SettingsGroup } from "../SettingsGroup";
import { NumberField, TextField } from "./fields";
import { valueErrors } from "./errors";
import { AUTO_CLOSE_MINUTES, type GeneralSettings } from "./settings";
import type { TenantSettingsApi } from "./useTenantSettings";

/** The signature rule of spec §6 (the core's `signature` setting): each agent's switch, or forced on or off. */
const SIGNATURE_MODES = ["user", "on", "off"] as const;

type NumberKey = "pageSize" | "ticketListLimit" | "noReopenMinutes";

/**
 * Atendimento: the signature rule, how many tickets a page and the list load, the reopen block
 * after closing, and auto-close (spec §9 choices) with its message.
 */
export function AtendimentoGroup({ settings }: { settings: TenantSettingsApi }) {
  const { t } = useTranslation();
  const { get, save, saving } = settings;
  const signature = get("signature");
  const autoClose = get("autoClose");

  const commitNumber = (key: NumberKey) => async (n: number | null) => {
    const e = await save(key, n as GeneralSettings[NumberKey]);
    return e ? (valueErrors(e, t)[""] ?? e.title) : null;
  };
  const saveAutoClose = async (next: GeneralSettings["autoClose"]) => {
    const e = await save("autoClose", next);
    return e ? (valueErrors(e, t).message ?? valueErrors(e, t).minutes ?? e.title) : null;
  };

  return (
    <SettingsGroup id="atendimento" title={t("geral.groups.atendimento.title")} description={t("geral.groups.atendimento.description")}>
      <SettingRow id="signature" label={t("geral.signature.label")} hint={t("geral.signature.hint")}>
        <Radio.Group
          className="oa-choice-list"
          aria-labelledby="setting-signature-label"
          value={(SIGNATURE_MODES as readonly string[]).includes(signature) ? signature : "user"}
          disabled={saving === "signature"}
          onChange={(e) => void save("signature", e.target.value)}
        >
          {SIGNATURE_MODES.map((mode) => (
            <Radio key={mode} value={mode} className="oa-choice">
              <span className="oa-choice-text" data-testid={`signature-mode-${mode}`}>
                <Typography.Text>{t(`geral.signature.modes.${mode}.label`)}</Typography.Text>
                <Typography.Text type="secondary">{t(`geral.signature.modes.${mode}.hint`)}</Typography.Text>
              </span>
            </Radio>
          ))}
        </Radio.Group>
      </SettingRow>
      <SettingRow id="page-size" label={t("geral.pageSize.label")} hint={t("geral.pageSize.hint")}>
        <NumberField id="page-size" labelledBy="setting-page-size-label" value={get("pageSize")} commit={commitNumber("pageSize")} suffix={t("geral.units.perPage")} />
      </SettingRow>
      <SettingRow id="ticket-list-limit" label={t("geral.ticketListLimit.label")} hint={t("geral.ticketListLimit.hint")}>
        <NumberField id="ticket-list-limit" labelledBy="setting-ticket-list-limit-label" value={get("ticketListLimit")} commit={commitNumber("ticketListLimit")} suffix={t("geral.units.tickets")} />
      </SettingRow>
      <SettingRow id="no-reopen" label={t("geral.noReopen.label")} hint={t("geral.noReopen.hint")}>
        <NumberField id="no-reopen" labelledBy="setting-no-reopen-label" value={get("noReopenMinutes")} commit={commitNumber("noReopenMinutes")} suffix={t("geral.units.min")} />
      </SettingRow>
      <SettingRow id="auto-close" label={t("geral.autoClose.label")} hint={t("geral.autoClose.hint")}>
        <div className="oa-geral-stack">
          <Select
            value={autoClose.minutes}
            onChange={(minutes) => void saveAutoClose({ minutes, message: autoClose.message ?? null })}
            loading={saving === "autoClose"}
            aria-labelledby="setting-auto-close-label"
            data-testid="auto-close-minutes"
            style={{ width: 220 }}
            options={AUTO_CLOSE_MINUTES.map((m) => ({ value: m, label: t(`geral.autoClose.choices.${m}`) }))}
          />
          {autoClose.minutes ? (
            <div className="oa-geral-labelled">
              <Typography.Text id="auto-close-message-label" type="secondary">
                {t("geral.autoClose.message")}
              </Typography.Text>
              <TextField
                id="auto-close-message"
                labelledBy="auto-close-message-label"
                multiline
                maxLength={5000}
                placeholder={t("geral.autoClose.messagePlaceholder")}
                value={autoClose.message ?? ""}
                commit={(message) => saveAutoClose({ minutes: autoClose.minutes, message: message.trim() || null })}
              />
            </div>
          ) : null}
        </div>
      </SettingRow>
    </SettingsGroup>
  );
}
