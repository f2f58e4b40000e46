import i18next, { type i18n as I18n } from "i18next";
import type { UiLocale } from "@openatende/plugin-sdk/ui";
import { LOADERS, type Texts } from "./resources";

const loaded = new WeakMap<I18n, Set<string>>();

/**
 * i18next with the shell's texts as one namespace ("translation"); plugins add theirs under
 * `plugins.<id>` at run time. Default pt-BR, fallback en (spec §9). The instance starts
 * empty: `loadLocale` fetches a language's texts (RootStore then switches to it).
 * react-i18next gets the instance through <I18nextProvider> (main area only), so the public
 * pages do not load it.
 */
export function createI18n(locale: UiLocale, texts?: Texts): I18n {
  const inst = i18next.createInstance();
  inst.init({
    // A caller that already holds the language's texts (tests) starts with them.
    resources: texts ? { [locale]: { translation: texts } } : {},
    partialBundledLanguages: true,
    lng: locale,
    fallbackLng: "en",
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  if (texts) loaded.set(inst, new Set([locale]));
  return inst;
}

/** Fetches the shell's texts of `locale` into the instance (once per instance). */
export async function loadLocale(i18n: I18n, locale: UiLocale): Promise<void> {
  let done = loaded.get(i18n);
  if (!done) loaded.set(i18n, (done = new Set()));
  if (!done.has(locale)) {
    const texts = (await LOADERS[locale]()).default;
    // Deep merge: texts a plugin added for this language meanwhile stay.
    i18n.addResourceBundle(locale, "translation", texts, true, true);
    done.add(locale);
  }
}

/** `t` with plain string keys and optional values (the shell's keys are checked by test/i18n.test.ts, not by types). */
export function translate(i18n: I18n, key: string, vars?: Record<string, unknown>): string {
  return (i18n.t as unknown as (k: string, o?: Record<string, unknown>) => string)(key, vars ?? {});
}
