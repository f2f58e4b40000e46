import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Input, Skeleton, Switch } from "antd";
import { SaveOutlined } from "@ant-design/icons";
import { SettingRow, SettingsGroup } from "../SettingsGroup";
import { useRoot } from "../../../app/context";
import type { SmartCloseSettings } from "./types";

const MESSAGES = ["outOfOfficeMessage", "noNextDayMessage", "lunchMessage"] as const;
const OFF: SmartCloseSettings = { enabled: false, window24h: false, outOfOfficeMessage: null, noNextDayMessage: null, lunchMessage: null };

/**
 * Smart close (tenant setting smartClose, PUT /settings/smartClose): a ticket a customer opens
 * outside hours closes by itself, with its message, when no hours fall in the next 24 hours;
 * with the 24-hour window it waits a day when tomorrow has hours.
 */
export function SmartCloseTab() {
  const { t } = useTranslation();
  const root = useRoot();
  const [form, setForm] = useState<SmartCloseSettings | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    root.api.get<Record<string, unknown>>("/settings").then(
      (v) => live && setForm({ ...OFF, ...((v?.smartClose as SmartCloseSettings | undefined) ?? {}) }),
      () => live && setForm({ ...OFF }),
    );
    return () => {
      live = false;
    };
  }, [root]);

  const submit = async () => {
    if (!form) return;
    const value: SmartCloseSettings = { enabled: form.enabled, window24h: form.window24h };
    for (const k of MESSAGES) value[k] = form[k]?.trim() || null;
    setSaving(true);
    try {
      await root.api.put("/settings/smartClose", { value }, { successNotice: t("tempo.smartClose.saved") });
      setForm(value);
    } catch {
      /* shown by the client */
    } finally {
      setSaving(false);
    }
  };

  return (
    <SettingsGroup id="smart-close" title={t("tempo.smartClose.title")} description={t("tempo.smartClose.description")}>
      <SettingRow id="smart-close-enabled" label={t("tempo.smartClose.enabled")} hint={t("tempo.smartClose.enabledHint")}>
        {form ? <Switch checked={form.enabled} onChange={(enabled) => setForm({ ...form, enabled })} data-testid="smart-close-enabled" aria-labelledby="setting-smart-close-enabled-label" /> : <Skeleton.Button active size="small" />}
      </SettingRow>
      <SettingRow id="smart-close-window" label={t("tempo.smartClose.window24h")} hint={t("tempo.smartClose.window24hHint")}>
        {form ? (
          <Switch checked={form.window24h} disabled={!form.enabled} onChange={(window24h) => setForm({ ...form, window24h })} data-testid="smart-close-window" aria-labelledby="setting-smart-close-window-label" />
        ) : (
          <Skeleton.Button active size="small" />
        )}
      </SettingRow>
      {MESSAGES.map((k) => (
        <SettingRow key={k} id={`smart-close-${k}`} label={t(`tempo.smartClose.${k}.label`)} hint={t(`tempo.smartClose.${k}.when`)}>
          {form ? (
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 5 }}
              maxLength={5000}
              disabled={!form.enabled}
              placeholder={t(`tempo.smartClose.${k}.placeholder`)}
              value={form[k] ?? ""}
              onChange={(e) => setForm({ ...form, [k]: e.target.value })}
              aria-labelledby={`setting-smart-close-${k}-label`}
              data-testid={`smart-close-${k}`}
            />
          ) : (
            <Skeleton.Input active block />
          )}
        </SettingRow>
      ))}
      <div className="oa-settings-actions">
        <Button type="primary" icon={<SaveOutlined />} loading={saving} disabled={!form} onClick={() => void submit()} data-testid="smart-close-save">
          {t("tempo.smartClose.save")}
        </Button>
      </div>
    </SettingsGroup>
  );
}
