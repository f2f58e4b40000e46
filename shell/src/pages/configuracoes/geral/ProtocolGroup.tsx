import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Radio, Select, Typography } from "antd";
import { useRoot } from "../../../app/context";
import { SettingRow, SettingsGroup } from "../SettingsGroup";
import { TextField } from "./fields";
import { valueErrors } from "./errors";
import { DATE_FORMATS, ID_POSITIONS, formatProtocol, type ProtocolFormat } from "@openatende/contracts/protocol";
import type { TenantSettingsApi } from "./useTenantSettings";

/** The ticket number the preview shows: any id reads the same way; the real one comes from the ticket. */
export const SAMPLE_TICKET_ID = 1234;
const FALLBACK_TIME_ZONE = "America/Sao_Paulo";
type TextPart = "prefix" | "suffix" | "separator";
const TEXT_MAX: Record<TextPart, number> = { prefix: 10, suffix: 10, separator: 3 };

/** The tenant's time zone (GET /tenants/:id), where the protocol's date is taken. */
function useTenantTimeZone(): string {
  const root = useRoot();
  const [zone, setZone] = useState(FALLBACK_TIME_ZONE);
  useEffect(() => {
    let live = true;
    const id = root.session.tenantId;
    if (id)
      root.api.get<{ timezone?: string }>(`/tenants/${id}`, { silent: true }).then(
        (r) => live && r?.timezone && setZone(r.timezone),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [root]);
  return zone;
}

/**
 * Protocolo (spec §3): how a new ticket's protocol number is made — prefix, date and ticket id
 * in either order with a separator, suffix — with the next protocol shown as it is typed.
 * Choices are saved at once, texts when their field is left.
 */
export function ProtocolGroup({ settings }: { settings: TenantSettingsApi }) {
  const { t } = useTranslation();
  const { get, save, saving } = settings;
  const stored = get("protocol");
  const [draft, setDraft] = useState<ProtocolFormat>(stored);
  useEffect(() => setDraft(stored), [stored]);
  const timeZone = useTenantTimeZone();
  const [now] = useState(() => new Date());
  const preview = useMemo(() => formatProtocol(SAMPLE_TICKET_ID, now, draft, timeZone), [draft, timeZone, now]);
  const noDate = !draft.dateFormat;

  const commit = async (next: ProtocolFormat, part: keyof ProtocolFormat) => {
    setDraft(next);
    const e = await save("protocol", next);
    return e ? (valueErrors(e, t)[part] ?? e.title) : null;
  };
  const text = (part: TextPart) => (
    <TextField
      id={`protocol-${part}`}
      labelledBy={`setting-protocol-${part}-label`}
      value={stored[part] ?? ""}
      maxLength={TEXT_MAX[part]}
      placeholder={t(`geral.protocol.${part}Placeholder`)}
      disabled={part === "separator" && noDate}
      className={part === "separator" ? "oa-geral-tiny" : "oa-geral-short"}
      onDraft={(s) => setDraft((d) => ({ ...d, [part]: s }))}
      commit={(s) => commit({ ...draft, [part]: s }, part)}
    />
  );

  return (
    <SettingsGroup id="protocolo" title={t("geral.groups.protocolo.title")} description={t("geral.groups.protocolo.description")}>
      <div className="oa-geral-preview" data-testid="protocol-preview-box">
        <Typography.Text type="secondary">{t("geral.protocol.preview")}</Typography.Text>
        <span className="oa-geral-preview-value" data-testid="protocol-preview">
          {preview}
        </span>
        <Typography.Text type="secondary" className="oa-geral-preview-hint">
          {t("geral.protocol.previewHint", { id: SAMPLE_TICKET_ID, zone: timeZone })}
        </Typography.Text>
      </div>
      <SettingRow id="protocol-date-format" label={t("geral.protocol.dateFormat")} hint={t("geral.protocol.dateFormatHint")}>
        <Select
          value={draft.dateFormat}
          onChange={(dateFormat) => void commit({ ...draft, dateFormat }, "dateFormat")}
          loading={saving === "protocol"}
          aria-labelledby="setting-protocol-date-format-label"
          data-testid="protocol-date-format"
          style={{ width: 260 }}
          options={DATE_FORMATS.map((f) => ({ value: f, label: f ? `${f} · ${formatProtocol(0, now, { dateFormat: f, idPosition: "end" }, timeZone).slice(0, -1)}` : t("geral.protocol.noDate") }))}
        />
      </SettingRow>
      <SettingRow id="protocol-id-position" label={t("geral.protocol.idPosition")} hint={noDate ? t("geral.protocol.idPositionNoDate") : t("geral.protocol.idPositionHint")}>
        <Radio.Group
          optionType="button"
          value={draft.idPosition}
          disabled={noDate}
          onChange={(e) => void commit({ ...draft, idPosition: e.target.value }, "idPosition")}
          aria-labelledby="setting-protocol-id-position-label"
          data-testid="protocol-id-position"
          options={ID_POSITIONS.map((p) => ({ value: p, label: <span data-testid={`protocol-id-${p}`}>{t(`geral.protocol.positions.${p}`)}</span> }))}
        />
      </SettingRow>
      <SettingRow id="protocol-prefix" label={t("geral.protocol.prefix")}>
        {text("prefix")}
      </SettingRow>
      <SettingRow id="protocol-separator" label={t("geral.protocol.separator")} hint={t("geral.protocol.separatorHint")}>
        {text("separator")}
      </SettingRow>
      <SettingRow id="protocol-suffix" label={t("geral.protocol.suffix")}>
        {text("suffix")}
      </SettingRow>
    </SettingsGroup>
  );
}
