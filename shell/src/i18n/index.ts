import i18next, { type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import type { UiLocale } from "@openatende/plugin-sdk/ui";
import { resources } from "./resources";

/**
 * i18next with the shell's texts as one namespace ("translation"); plugins add theirs under
 * `plugins.<id>` at run time. Default pt-BR, fallback en (spec §9).
 */
export function createI18n(locale: UiLocale): I18n {
  const inst = i18next.createInstance();
  inst.use(initReactI18next).init({
    resources: Object.fromEntries(Object.entries(resources).map(([l, r]) => [l, { translation: r }])),
    lng: locale,
    fallbackLng: "en",
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  return inst;
}

/** `t` with plain string keys and optional values (the shell's keys are checked by test/i18n.test.ts, not by types). */
export function translate(i18n: I18n, key: string, vars?: Record<string, unknown>): string {
  return (i18n.t as unknown as (k: string, o?: Record<string, unknown>) => string)(key, vars ?? {});
}
