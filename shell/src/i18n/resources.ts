/**
 * The shell's texts in its four languages, one file per area and language
 * (locales/<lang>/<area>.ts, gathered by locales/<lang>/index.ts). Keys are `<area>.<key>`;
 * test/i18n.test.ts fails when a key exists in one language and not in another.
 *
 * A page load fetches the user's language only: each language is its own chunk, loaded
 * before the first render and on a change of language (the texts of all four languages
 * together would be most of the /login budget).
 */
import type { UiLocale } from "@openatende/plugin-sdk/ui";

export const LOCALES = ["pt-BR", "en", "es", "ru"] as const;

export type Texts = Record<string, unknown>;

export const LOADERS: Record<UiLocale, () => Promise<{ default: Texts }>> = {
  "pt-BR": () => import(/* webpackChunkName: "texts-pt-BR" */ "./locales/pt-BR"),
  en: () => import(/* webpackChunkName: "texts-en" */ "./locales/en"),
  es: () => import(/* webpackChunkName: "texts-es" */ "./locales/es"),
  ru: () => import(/* webpackChunkName: "texts-ru" */ "./locales/ru"),
};
