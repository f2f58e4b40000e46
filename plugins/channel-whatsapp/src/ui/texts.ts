/** All of the plugin UI's texts, per language (the connection form's and the Groups tab's). */
import { formTexts } from "./texts-form";
import { groupTexts } from "./texts-groups";

export const LOCALES = ["pt-BR", "en", "es", "ru"] as const;

export const texts = {
  "pt-BR": { ...formTexts["pt-BR"], ...groupTexts["pt-BR"] },
  en: { ...formTexts.en, ...groupTexts.en },
  es: { ...formTexts.es, ...groupTexts.es },
  ru: { ...formTexts.ru, ...groupTexts.ru },
};

/** A label in every language, from one key of the texts (chat-list actions take these). */
export function labels(key: "groupNew" | "jrTitle"): Record<(typeof LOCALES)[number], string> {
  return { "pt-BR": texts["pt-BR"][key], en: texts.en[key], es: texts.es[key], ru: texts.ru[key] };
}
