/** The page's texts in the four languages (every key in all four, checked by the conformance test). */
export const LOCALES = ["pt-BR", "en", "es", "ru"] as const;
export type Locale = (typeof LOCALES)[number];

const ptBR = {
  title: "Estatísticas de atendimentos por usuário",
  description: "Pendentes, em atendimento, resolvidos e tempos por usuário",
  queue: "Filas",
  from: "Data inicial",
  to: "Data final",
  apply: "Filtrar",
  clear: "Limpar",
  print: "Imprimir",
  excel: "Excel",
  pdf: "PDF",
  building: "Preparando os dados do relatório…",
  empty: "Nenhum usuário",
  total: "Total geral",
  chart: "Tickets por usuário",
  col: { user: "Usuário", pending: "Pendentes", open: "Em atendimento", closed: "Resolvidos", total: "Total", shortest: "Menor tempo (min)", longest: "Maior tempo (min)", average: "Tempo médio (min)" },
};

type Texts = typeof ptBR;

const en: Texts = {
  title: "Service statistics by user",
  description: "Pending, in service, resolved and times per user",
  queue: "Queues",
  from: "Start date",
  to: "End date",
  apply: "Filter",
  clear: "Clear",
  print: "Print",
  excel: "Excel",
  pdf: "PDF",
  building: "Preparing the report's data…",
  empty: "No user",
  total: "Grand total",
  chart: "Tickets per user",
  col: { user: "User", pending: "Pending", open: "In service", closed: "Resolved", total: "Total", shortest: "Shortest (min)", longest: "Longest (min)", average: "Average (min)" },
};

const es: Texts = {
  title: "Estadísticas de atención por usuario",
  description: "Pendientes, en atención, resueltos y tiempos por usuario",
  queue: "Colas",
  from: "Fecha inicial",
  to: "Fecha final",
  apply: "Filtrar",
  clear: "Limpiar",
  print: "Imprimir",
  excel: "Excel",
  pdf: "PDF",
  building: "Preparando los datos del informe…",
  empty: "Ningún usuario",
  total: "Total general",
  chart: "Tickets por usuario",
  col: { user: "Usuario", pending: "Pendientes", open: "En atención", closed: "Resueltos", total: "Total", shortest: "Menor tiempo (min)", longest: "Mayor tiempo (min)", average: "Tiempo medio (min)" },
};

const ru: Texts = {
  title: "Статистика обслуживания по пользователям",
  description: "Ожидающие, в работе, решённые и время по пользователям",
  queue: "Очереди",
  from: "Дата начала",
  to: "Дата окончания",
  apply: "Применить",
  clear: "Сбросить",
  print: "Печать",
  excel: "Excel",
  pdf: "PDF",
  building: "Данные отчёта готовятся…",
  empty: "Нет пользователей",
  total: "Итого",
  chart: "Тикеты по пользователям",
  col: { user: "Пользователь", pending: "Ожидают", open: "В работе", closed: "Решено", total: "Всего", shortest: "Мин. время (мин)", longest: "Макс. время (мин)", average: "Среднее время (мин)" },
};

export const texts: Record<Locale, Texts> = { "pt-BR": ptBR, en, es, ru };

/** A text in the four languages (the /relatorios menu's card). */
export const labels = (key: "title" | "description") => ({ "pt-BR": ptBR[key], en: en[key], es: es[key], ru: ru[key] });
