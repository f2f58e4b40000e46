/**
 * The error catalogue of spec §8 in every language: codes come from ./codes, texts from
 * ./locales (pt-BR is the default, en the fallback). Also the field-validation messages and
 * the few texts the server sends itself (reset e-mail, contact-limit banner, licence notice).
 *
 * Texts carry `{{name}}` placeholders, filled from the error's data object by `interpolate`.
 */
import { ERROR_CODES, type ErrorCode } from "./codes";
import ptBR, { ui as uiPtBR, validation as validationPtBR } from "./locales/pt-BR";
import en, { ui as uiEn, validation as validationEn } from "./locales/en";
import es, { ui as uiEs, validation as validationEs } from "./locales/es";
import ru, { ui as uiRu, validation as validationRu } from "./locales/ru";
import type { ErrorText, UiTexts, ValidationRule } from "./locales/types";
import { pluginCatalogue, pluginStatuses } from "./plugin-codes";

export type { ErrorText, UiTexts, ValidationRule } from "./locales/types";

export const LOCALES = ["pt-BR", "en", "es", "ru"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "pt-BR";
export const FALLBACK_LOCALE: Locale = "en";

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}

export const CATALOGUE: Record<Locale, Record<ErrorCode, ErrorText>> = deepFreeze({
  "pt-BR": ptBR,
  en,
  es,
  ru,
});

export const VALIDATION: Record<Locale, Record<ValidationRule, string>> = deepFreeze({
  "pt-BR": validationPtBR,
  en: validationEn,
  es: validationEs,
  ru: validationRu,
});

export const UI: Record<Locale, UiTexts> = deepFreeze({
  "pt-BR": uiPtBR,
  en: uiEn,
  es: uiEs,
  ru: uiRu,
});

const hasOwn = (obj: object, key: string): boolean => Object.prototype.hasOwnProperty.call(obj, key);

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** Primary language subtag → supported locale (any Portuguese goes to pt-BR, the only one we have). */
const BY_LANGUAGE: Record<string, Locale> = { pt: "pt-BR", en: "en", es: "es", ru: "ru" };

function matchTag(tag: string): Locale | undefined {
  const normalised = tag.trim().replace(/_/g, "-").toLowerCase();
  if (!normalised || normalised === "*") return undefined;
  const exact = LOCALES.find((l) => l.toLowerCase() === normalised);
  if (exact) return exact;
  const language = normalised.split("-")[0] ?? "";
  return hasOwn(BY_LANGUAGE, language) ? BY_LANGUAGE[language] : undefined;
}

/**
 * The best supported locale for an Accept-Language header value (q-weights honoured, q=0
 * excluded) or a plain locale ("pt", "pt_BR", "en-US"...). Unknown or empty → pt-BR.
 */
export function resolveLocale(input?: string | null): Locale {
  if (typeof input !== "string" || !input.trim()) return DEFAULT_LOCALE;
  const candidates: { tag: string; q: number; index: number }[] = [];
  input
    .split(",")
    .slice(0, 50)
    .forEach((part, index) => {
      const [tag = "", ...params] = part.split(";");
      let q = 1;
      for (const param of params) {
        const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
        if (m) {
          const parsed = Number(m[1]);
          q = Number.isFinite(parsed) ? Math.min(parsed, 1) : 0;
        }
      }
      if (q > 0 && tag.trim()) candidates.push({ tag, q, index });
    });
  candidates.sort((a, b) => b.q - a.q || a.index - b.index);
  for (const candidate of candidates) {
    const locale = matchTag(candidate.tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/**
 * Replaces each `{{name}}` with `String(data[name])`; a missing (undefined or null) value
 * becomes the empty string. Single pass: inserted values are never re-scanned.
 */
export function interpolate(text: string, data?: Record<string, unknown> | null): string {
  return text.replace(PLACEHOLDER, (_match, name: string) => {
    if (!data || !hasOwn(data, name)) return "";
    const value = data[name];
    return value === undefined || value === null ? "" : String(value);
  });
}

/** Placeholder names used in a text, in order of first appearance. */
export function placeholdersOf(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) {
    const name = m[1] as string;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

function asLocale(locale: unknown): Locale {
  return isLocale(locale) ? locale : resolveLocale(typeof locale === "string" ? locale : undefined);
}

/** Title and detail of an error code in a locale, placeholders filled from `data`. */
export function translateError(code: ErrorCode, locale: Locale, data?: Record<string, unknown>): ErrorText {
  const loc = asLocale(locale);
  const table = CATALOGUE[loc];
  const entry = hasOwn(table, code) ? table[code] : hasOwn(CATALOGUE[FALLBACK_LOCALE], code) ? CATALOGUE[FALLBACK_LOCALE][code] : undefined;
  if (!entry) {
    // Unknown code at run time (the type forbids it): the generic "unidentified" notice.
    return { title: UI[loc].genericErrorTitle, detail: UI[loc].genericErrorDetail };
  }
  return { title: interpolate(entry.title, data), detail: interpolate(entry.detail, data) };
}

/** Message for a failed field-validation rule; unknown rules use the `any` message. */
export function validationMessage(rule: string, locale: Locale, data?: Record<string, unknown>): string {
  const table = VALIDATION[asLocale(locale)];
  const text = hasOwn(table, rule) ? table[rule as ValidationRule] : table.any;
  return interpolate(text, data);
}

/**
 * A server-side text in a locale, placeholders filled from `data` (plain `interpolate`).
 * Values are inserted as given: for `resetMailHtml` the caller must HTML-escape them.
 */
export function uiText(key: keyof UiTexts, locale: Locale, data?: Record<string, unknown>): string {
  return interpolate(UI[asLocale(locale)][key], data);
}

export interface CatalogueExport {
  locales: Locale[];
  defaultLocale: Locale;
  fallbackLocale: Locale;
  errors: Record<Locale, Record<ErrorCode, ErrorText>>;
  validation: Record<Locale, Record<ValidationRule, string>>;
  ui: Record<Locale, UiTexts>;
  statuses: Record<ErrorCode, number>;
}

/** The whole catalogue as a plain JSON-able object (a fresh copy), for the shell to download, with the loaded plugins' codes. */
export function exportCatalogue(): CatalogueExport {
  const errors = Object.fromEntries(LOCALES.map((l) => [l, { ...pluginCatalogue(l), ...CATALOGUE[l] }]));
  return JSON.parse(
    JSON.stringify({
      locales: LOCALES,
      defaultLocale: DEFAULT_LOCALE,
      fallbackLocale: FALLBACK_LOCALE,
      errors,
      validation: VALIDATION,
      ui: UI,
      statuses: { ...pluginStatuses(), ...ERROR_CODES },
    }),
  ) as CatalogueExport;
}
