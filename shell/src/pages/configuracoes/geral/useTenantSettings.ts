import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRoot } from "../../../app/context";
import { ApiError } from "../../../api/client";
import { DEFAULTS, type GeneralSettings, type SettingKey } from "./settings";

/** What GET /settings answers: the tenant's stored settings by key (a key never set is absent: the core's default applies). */
export type TenantSettings = Partial<GeneralSettings> & Record<string, unknown>;

/**
 * The tenant's general settings (GET /settings) and a save of one key (PUT /settings/:key,
 * admin only): the value shows at once and goes back to the stored one when the core refuses
 * it. A refusal that names a field of the value is answered to the caller, which shows it on
 * its field; any other is shown as the catalogue's notice.
 */
export function useTenantSettings() {
  const root = useRoot();
  const { t } = useTranslation();
  const [values, setValues] = useState<TenantSettings | null>(null);
  const [saving, setSaving] = useState<string | null>(null);
  const stored = useRef<TenantSettings>({});

  useEffect(() => {
    let live = true;
    root.api.get<TenantSettings>("/settings").then(
      (v) => {
        stored.current = v ?? {};
        if (live) setValues(v ?? {});
      },
      () => live && setValues({}),
    );
    return () => {
      live = false;
    };
  }, [root]);

  /** A setting's value: the stored one, or the core's default. */
  const get = useCallback(<K extends SettingKey>(key: K): GeneralSettings[K] => (values?.[key] ?? DEFAULTS[key]) as GeneralSettings[K], [values]);

  /** Saves one key; null when saved, else the core's error (already shown unless it names a field). */
  // One key's saves go one after another, in the order they were asked: two quick changes of
  // the same key (a field left by clicking a choice of the same group) must not arrive swapped,
  // or the older value would be what the core keeps.
  const inFlight = useRef(new Map<string, Promise<unknown>>());
  const save = useCallback(
    async <K extends SettingKey>(key: K, value: GeneralSettings[K]): Promise<ApiError | null> => {
      setValues((v) => ({ ...v, [key]: value }));
      setSaving(key);
      const before = inFlight.current.get(key) ?? Promise.resolve();
      const put = before.then(() => root.api.put(`/settings/${key}`, { value }, { silent: true, successNotice: t("geral.saved") }));
      inFlight.current.set(key, put.catch(() => undefined));
      try {
        await put;
        stored.current = { ...stored.current, [key]: value };
        return null;
      } catch (e) {
        setValues((v) => ({ ...v, [key]: stored.current[key] }));
        if (!(e instanceof ApiError && e.code === "ERR_VALIDATION" && typeof e.data.field === "string" && e.data.field.startsWith("value"))) root.notifyError(e);
        return e instanceof ApiError ? e : new ApiError(0, "ERR_UNIDENTIFIED", t("errors.generic.title"), "");
      } finally {
        setSaving(null);
      }
    },
    [root, t],
  );

  /** The stored value after an upload or removal answered by the core ({ key, value }). */
  const applied = useCallback(<K extends SettingKey>(key: K, value: GeneralSettings[K]) => {
    stored.current = { ...stored.current, [key]: value };
    setValues((v) => ({ ...v, [key]: value }));
  }, []);

  return { values, saving, get, save, applied };
}

export type TenantSettingsApi = ReturnType<typeof useTenantSettings>;
