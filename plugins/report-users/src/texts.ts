/** What the server writes (exports, the unassigned line), in the four languages; the UI's texts are in ui/texts.ts. */
export type Locale = "pt-BR" | "en" | "es" | "ru";
export const LOCALES: Locale[] = ["pt-BR", "en", "es", "ru"];

export interface ExportTexts {
  title: string;
  period: string;
  page: string;
  unassigned: string;
  total: string;
  columns: Record<"user" | "pending" | "open" | "closed" | "total" | "shortest" | "longest" | "average", string>;
}

export const EXPORT_TEXTS: Record<Locale, ExportTexts> = {
  "pt-BR": {
    title: "Estatísticas de atendimentos por usuário",
    period: "Período",
    page: "Página",
    unassigned: "Sem atendente",
    total: "Total geral",
    columns: { user: "Usuário", pending: "Pendentes", open: "Em atendimento", closed: "Resolvidos", total: "Total", shortest: "Menor tempo (min)", longest: "Maior tempo (min)", average: "Tempo médio (min)" },
  },
  en: {
    title: "Service statistics by user",
    period: "Period",
    page: "Page",
    unassigned: "No attendant",
    total: "Grand total",
    columns: { user: "User", pending: "Pending", open: "In service", closed: "Resolved", total: "Total", shortest: "Shortest (min)", longest: "Longest (min)", average: "Average (min)" },
  },
  es: {
    title: "Estadísticas de atención por usuario",
    period: "Período",
    page: "Página",
    unassigned: "Sin agente",
    total: "Total general",
    columns: { user: "Usuario", pending: "Pendientes", open: "En atención", closed: "Resueltos", total: "Total", shortest: "Menor tiempo (min)", longest: "Mayor tiempo (min)", average: "Tiempo medio (min)" },
  },
  ru: {
    title: "Статистика обслуживания по пользователям",
    period: "Период",
    page: "Страница",
    unassigned: "Без оператора",
    total: "Итого",
    columns: { user: "Пользователь", pending: "Ожидают", open: "В работе", closed: "Решено", total: "Всего", shortest: "Мин. время (мин)", longest: "Макс. время (мин)", average: "Среднее время (мин)" },
  },
};

export function exportTexts(locale: string | undefined): ExportTexts {
  return EXPORT_TEXTS[(LOCALES as string[]).includes(locale ?? "") ? (locale as Locale) : "pt-BR"];
}
