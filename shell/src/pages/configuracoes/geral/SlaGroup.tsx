import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { InputNumber } from "antd";
import { SettingRow, SettingsGroup } from "../SettingsGroup";
import { FieldError } from "./fields";
import { valueErrors } from "./errors";
import type { GeneralSettings } from "./settings";
import type { TenantSettingsApi } from "./useTenantSettings";

type Sla = GeneralSettings["sla"];
const LEVELS = ["green", "yellow", "red"] as const;
type Level = (typeof LEVELS)[number];

/** The first threshold out of order (green < yellow < red), named as the core names it. */
export function slaOrderError(s: Sla): Level | null {
  if (s.yellow <= s.green) return "yellow";
  if (s.red <= s.yellow) return "red";
  return null;
}

/**
 * SLA (spec §9): the minutes after which a ticket turns green, yellow and red in the lists and
 * the SLA report. The three are saved together when a field is left, only in order; the core
 * checks the order again.
 */
export function SlaGroup({ settings }: { settings: TenantSettingsApi }) {
  const { t } = useTranslation();
  const { get, save } = settings;
  const stored = get("sla");
  const [draft, setDraft] = useState<Record<Level, number | null>>(stored);
  const [errors, setErrors] = useState<Partial<Record<Level, string>>>({});
  useEffect(() => setDraft(stored), [stored.green, stored.yellow, stored.red]);

  const leave = async (level: Level) => {
    if (LEVELS.every((l) => draft[l] === stored[l]) && !Object.keys(errors).length) return;
    const empty = LEVELS.find((l) => typeof draft[l] !== "number");
    if (empty) return setErrors({ [empty]: t("configuracoes.rules.required") });
    const next = draft as Sla;
    // The form keeps the order itself, on the field just left.
    if (slaOrderError(next)) return setErrors({ [level]: t("geral.rules.slaOrder") });
    const e = await save("sla", next);
    setErrors(e ? ({ ...valueErrors(e, t) } as Partial<Record<Level, string>>) : {});
    if (e && !Object.keys(valueErrors(e, t)).length) setErrors({ [level]: e.title });
  };

  return (
    <SettingsGroup id="sla" title={t("geral.groups.sla.title")} description={t("geral.groups.sla.description")}>
      <SettingRow id="sla" label={t("geral.sla.label")} hint={t("geral.sla.hint")}>
        <div className="oa-geral-sla">
          {LEVELS.map((level) => (
            <div key={level} className="oa-geral-sla-level">
              <span className="oa-geral-sla-name" id={`sla-${level}-label`}>
                <span className={`oa-geral-dot oa-geral-dot-${level}`} aria-hidden="true" />
                {t(`geral.sla.${level}`)}
              </span>
              <InputNumber
                value={draft[level]}
                onChange={(v) => setDraft((d) => ({ ...d, [level]: typeof v === "number" ? v : null }))}
                onBlur={() => void leave(level)}
                onPressEnter={() => void leave(level)}
                status={errors[level] ? "error" : undefined}
                suffix={t("geral.units.min")}
                style={{ width: "100%" }}
                aria-labelledby={`sla-${level}-label`}
                aria-invalid={!!errors[level]}
                data-testid={`sla-${level}`}
              />
              <FieldError id={`sla-${level}`} message={errors[level]} />
            </div>
          ))}
        </div>
      </SettingRow>
    </SettingsGroup>
  );
}
