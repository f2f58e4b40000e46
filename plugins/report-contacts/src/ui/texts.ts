/** The pages' texts in the four languages (every key in all four, checked by the conformance test). */
import { EXPORT_TEXTS } from "../texts";

export const LOCALES = ["pt-BR", "en", "es", "ru"] as const;
export type Locale = (typeof LOCALES)[number];

const ptBR = {
  titles: EXPORT_TEXTS["pt-BR"].titles,
  descriptions: EXPORT_TEXTS["pt-BR"].descriptions,
  col: EXPORT_TEXTS["pt-BR"].columns,
  tagsPick: "Escolha as etiquetas",
  statesPick: "Escolha os estados",
  needTags: "Escolha ao menos uma etiqueta para ver os contatos.",
  needStates: "Escolha ao menos um estado para ver os contatos.",
  apply: "Filtrar",
  print: "Imprimir",
  excel: "Excel",
  pdf: "PDF",
  loadMore: "Carregar mais",
  total: "Contatos",
  empty: "Nenhum contato",
  chart: "Contatos por escolha",
};

type Texts = typeof ptBR;

const en: Texts = {
  titles: EXPORT_TEXTS.en.titles,
  descriptions: EXPORT_TEXTS.en.descriptions,
  col: EXPORT_TEXTS.en.columns,
  tagsPick: "Choose the tags",
  statesPick: "Choose the states",
  needTags: "Choose at least one tag to see the contacts.",
  needStates: "Choose at least one state to see the contacts.",
  apply: "Filter",
  print: "Print",
  excel: "Excel",
  pdf: "PDF",
  loadMore: "Load more",
  total: "Contacts",
  empty: "No contact",
  chart: "Contacts per choice",
};

const es: Texts = {
  titles: EXPORT_TEXTS.es.titles,
  descriptions: EXPORT_TEXTS.es.descriptions,
  col: EXPORT_TEXTS.es.columns,
  tagsPick: "Elija las etiquetas",
  statesPick: "Elija los estados",
  needTags: "Elija al menos una etiqueta para ver los contactos.",
  needStates: "Elija al menos un estado para ver los contactos.",
  apply: "Filtrar",
  print: "Imprimir",
  excel: "Excel",
  pdf: "PDF",
  loadMore: "Cargar más",
  total: "Contactos",
  empty: "Ningún contacto",
  chart: "Contactos por elección",
};

const ru: Texts = {
  titles: EXPORT_TEXTS.ru.titles,
  descriptions: EXPORT_TEXTS.ru.descriptions,
  col: EXPORT_TEXTS.ru.columns,
  tagsPick: "Выберите теги",
  statesPick: "Выберите регионы",
  needTags: "Выберите хотя бы один тег, чтобы увидеть контакты.",
  needStates: "Выберите хотя бы один регион, чтобы увидеть контакты.",
  apply: "Применить",
  print: "Печать",
  excel: "Excel",
  pdf: "PDF",
  loadMore: "Загрузить ещё",
  total: "Контакты",
  empty: "Нет контактов",
  chart: "Контакты по выбору",
};

export const texts: Record<Locale, Texts> = { "pt-BR": ptBR, en, es, ru };
