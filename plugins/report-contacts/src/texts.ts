/** What the server writes in exports, in the four languages (the UI's texts are in ui/texts.ts). */
export type Locale = "pt-BR" | "en" | "es" | "ru";
export const LOCALES: Locale[] = ["pt-BR", "en", "es", "ru"];
export type PageKey = "list" | "tags" | "states";

export interface ExportTexts {
  titles: Record<PageKey, string>;
  descriptions: Record<PageKey, string>;
  selection: Record<Exclude<PageKey, "list">, string>;
  page: string;
  columns: Record<"name" | "number" | "email" | "state" | "tags" | "createdAt", string>;
}

export const EXPORT_TEXTS: Record<Locale, ExportTexts> = {
  "pt-BR": {
    titles: { list: "Lista de contatos", tags: "Contatos por etiquetas", states: "Contatos por estado" },
    descriptions: { list: "Todos os contatos com número, e-mail e etiquetas", tags: "Contatos com as etiquetas escolhidas", states: "Contatos dos estados escolhidos" },
    selection: { tags: "Etiquetas", states: "Estados" },
    page: "Página",
    columns: { name: "Nome", number: "Número", email: "E-mail", state: "Estado", tags: "Etiquetas", createdAt: "Criado em" },
  },
  en: {
    titles: { list: "Contact list", tags: "Contacts by tags", states: "Contacts by state" },
    descriptions: { list: "Every contact with number, e-mail and tags", tags: "Contacts with the chosen tags", states: "Contacts in the chosen states" },
    selection: { tags: "Tags", states: "States" },
    page: "Page",
    columns: { name: "Name", number: "Number", email: "E-mail", state: "State", tags: "Tags", createdAt: "Created" },
  },
  es: {
    titles: { list: "Lista de contactos", tags: "Contactos por etiquetas", states: "Contactos por estado" },
    descriptions: { list: "Todos los contactos con número, correo y etiquetas", tags: "Contactos con las etiquetas elegidas", states: "Contactos de los estados elegidos" },
    selection: { tags: "Etiquetas", states: "Estados" },
    page: "Página",
    columns: { name: "Nombre", number: "Número", email: "Correo", state: "Estado", tags: "Etiquetas", createdAt: "Creado el" },
  },
  ru: {
    titles: { list: "Список контактов", tags: "Контакты по тегам", states: "Контакты по регионам" },
    descriptions: { list: "Все контакты с номером, e-mail и тегами", tags: "Контакты с выбранными тегами", states: "Контакты из выбранных регионов" },
    selection: { tags: "Теги", states: "Регионы" },
    page: "Страница",
    columns: { name: "Имя", number: "Номер", email: "E-mail", state: "Регион", tags: "Теги", createdAt: "Создан" },
  },
};

export function exportTexts(locale: string | undefined): ExportTexts {
  return EXPORT_TEXTS[(LOCALES as string[]).includes(locale ?? "") ? (locale as Locale) : "pt-BR"];
}

/** A page's text in the four languages (its declaration). */
export const fourLocales = (pick: (t: ExportTexts) => string) => ({ "pt-BR": pick(EXPORT_TEXTS["pt-BR"]), en: pick(EXPORT_TEXTS.en), es: pick(EXPORT_TEXTS.es), ru: pick(EXPORT_TEXTS.ru) });
