import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, ColorPicker, Tooltip } from "antd";
import { MoonOutlined, SunOutlined, UndoOutlined } from "@ant-design/icons";
import { PRESET_COLORS } from "../../../ui/colors";
import { SettingRow, SettingsGroup } from "../SettingsGroup";
import { FieldError, SwitchRow } from "./fields";
import { valueErrors } from "./errors";
import { WallpaperField } from "./WallpaperField";
import type { GeneralSettings } from "./settings";
import type { TenantSettingsApi } from "./useTenantSettings";

type Theme = "light" | "dark";
const THEMES: Theme[] = ["light", "dark"];

/**
 * One theme's menu colour ("#rrggbb", or none: the theme's own). Saved when the picker closes,
 * not at every move of the cursor; "reset" goes back to the theme's colour.
 */
function MenuColor({ theme, value, commit }: { theme: Theme; value: string | null; commit: (c: string | null) => Promise<string | null> }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(value);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setDraft(value), [value]);
  const save = async (c: string | null) => {
    setDraft(c);
    if (c !== value) setError(await commit(c));
  };
  const id = `menu-color-${theme}`;
  return (
    <div className="oa-geral-color" data-testid={id} data-value={value ?? ""}>
      <span className="oa-geral-color-theme" id={`${id}-label`}>
        {theme === "light" ? <SunOutlined /> : <MoonOutlined />}
        {t(`geral.themes.${theme}`)}
      </span>
      <ColorPicker
        value={draft}
        format="hex"
        disabledAlpha
        disabledFormat
        allowClear
        presets={[{ label: t("geral.menuColors.presets"), colors: PRESET_COLORS, defaultOpen: true }]}
        showText={() => <span data-testid={`${id}-text`}>{draft ?? t("geral.menuColors.themeDefault")}</span>}
        onChange={(c) => setDraft(c.cleared ? null : c.toHexString())}
        onClear={() => void save(null)}
        onOpenChange={(open) => {
          if (!open) void save(draft);
        }}
        aria-labelledby={`${id}-label`}
        data-testid={`${id}-picker`}
      />
      <Tooltip title={t("geral.menuColors.reset")}>
        <Button type="text" icon={<UndoOutlined />} disabled={!value} onClick={() => void save(null)} aria-label={t("geral.menuColors.reset")} data-testid={`${id}-reset`} />
      </Tooltip>
      <FieldError id={id} message={error} />
    </div>
  );
}

/** Aparência: menu colours and chat wallpapers for the light and dark themes, and the menu's subtitles. */
export function AparenciaGroup({ settings }: { settings: TenantSettingsApi }) {
  const { t } = useTranslation();
  const { get, save, saving, applied } = settings;
  const colors = get("menuColors");

  const commitColor = (theme: Theme) => async (c: string | null) => {
    const next: GeneralSettings["menuColors"] = { light: colors.light ?? null, dark: colors.dark ?? null, [theme]: c };
    const e = await save("menuColors", next);
    return e ? (valueErrors(e, t)[theme] ?? e.title) : null;
  };

  return (
    <SettingsGroup id="aparencia" title={t("geral.groups.aparencia.title")} description={t("geral.groups.aparencia.description")}>
      <SettingRow id="menu-colors" label={t("geral.menuColors.label")} hint={t("geral.menuColors.hint")}>
        <div className="oa-geral-colors">
          {THEMES.map((theme) => (
            <MenuColor key={theme} theme={theme} value={colors[theme] ?? null} commit={commitColor(theme)} />
          ))}
        </div>
      </SettingRow>
      <SwitchRow
        id="hide-menu-subtitles"
        label={t("geral.hideMenuSubtitles.label")}
        hint={t("geral.hideMenuSubtitles.hint")}
        checked={get("hideMenuSubtitles")}
        busy={saving === "hideMenuSubtitles"}
        onChange={(on) => void save("hideMenuSubtitles", on)}
      />
      <SettingRow id="wallpapers" label={t("geral.wallpapers.label")} hint={t("geral.wallpapers.hint", { max: 5 })}>
        <div className="oa-geral-wallpapers">
          {THEMES.map((theme) => (
            <WallpaperField key={theme} theme={theme} url={get("wallpapers")[theme]} onStored={(v) => applied("wallpapers", v)} />
          ))}
        </div>
      </SettingRow>
    </SettingsGroup>
  );
}
