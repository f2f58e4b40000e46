/**
 * The birthdays list as Excel or PDF (report-kit's streamed writers), with the columns of the
 * page — name, number, birthday (day/month), the age turned and the status (scheduled, passed,
 * today, upcoming) — in the reader's language (pt-BR by default). The rows are the period's
 * list, read live from the core API as the page reads it (src/list.ts).
 */
import type { ExportCell, ExportSpec } from "@openatende/report-kit";
import { isoOf, todayIn, type Period } from "./birthdays";
import type { BirthdayRow } from "./list";

export type Locale = "pt-BR" | "en" | "es" | "ru";
export const LOCALES: Locale[] = ["pt-BR", "en", "es", "ru"];
type Status = "scheduled" | "passed" | "today" | "upcoming";

export interface ExportTexts {
  title: string;
  page: string;
  period: Record<Period, string>;
  columns: Record<"name" | "number" | "birthday" | "age" | "status", string>;
  status: Record<Status, string>;
}

export const EXPORT_TEXTS: Record<Locale, ExportTexts> = {
  "pt-BR": {
    title: "Aniversariantes do mês",
    page: "Página",
    period: { month: "Mês", today: "Hoje", week: "Esta semana" },
    columns: { name: "Nome", number: "Número", birthday: "Aniversário", age: "Faz (anos)", status: "Situação" },
    status: { scheduled: "Agendado", passed: "Já passou", today: "Hoje", upcoming: "A caminho" },
  },
  en: {
    title: "Birthdays of the month",
    page: "Page",
    period: { month: "Month", today: "Today", week: "This week" },
    columns: { name: "Name", number: "Number", birthday: "Birthday", age: "Turns (years)", status: "Status" },
    status: { scheduled: "Scheduled", passed: "Passed", today: "Today", upcoming: "Upcoming" },
  },
  es: {
    title: "Cumpleaños del mes",
    page: "Página",
    period: { month: "Mes", today: "Hoy", week: "Esta semana" },
    columns: { name: "Nombre", number: "Número", birthday: "Cumpleaños", age: "Cumple (años)", status: "Situación" },
    status: { scheduled: "Programado", passed: "Ya pasó", today: "Hoy", upcoming: "Próximo" },
  },
  ru: {
    title: "Именинники месяца",
    page: "Страница",
    period: { month: "Месяц", today: "Сегодня", week: "Эта неделя" },
    columns: { name: "Имя", number: "Номер", birthday: "День рождения", age: "Исполняется (лет)", status: "Статус" },
    status: { scheduled: "Запланировано", passed: "Прошёл", today: "Сегодня", upcoming: "Скоро" },
  },
};

export function exportTexts(locale: string | undefined): ExportTexts {
  return EXPORT_TEXTS[(LOCALES as string[]).includes(locale ?? "") ? (locale as Locale) : "pt-BR"];
}

const dayMonth = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}`;
const dayMonthYear = (iso: string) => `${dayMonth(iso)}/${iso.slice(0, 4)}`;

/** A row's status as the page shows it: a pending message first, then passed, today, upcoming. */
export function statusOf(r: BirthdayRow, todayIso: string): Status {
  return r.scheduledId ? "scheduled" : r.passed ? "passed" : r.date === todayIso ? "today" : "upcoming";
}

/** What report-kit's writers take: the title, the period as the subtitle, the page's columns, the rows one at a time. */
export function birthdaysExport(rows: BirthdayRow[], q: { period: Period; from: string; to: string; now: number; timeZone: string; locale?: string }): ExportSpec {
  const t = exportTexts(q.locale);
  const today = isoOf(todayIn(q.now, q.timeZone));
  const range = q.from === q.to ? dayMonthYear(q.from) : `${dayMonthYear(q.from)} – ${dayMonthYear(q.to)}`;
  return {
    title: t.title,
    subtitle: `${t.period[q.period]}: ${range}`,
    columns: [
      { key: "name", header: t.columns.name, width: 32, weight: 1.8 },
      { key: "number", header: t.columns.number, width: 18, weight: 1.1 },
      { key: "birthday", header: t.columns.birthday, width: 14, weight: 0.8 },
      { key: "age", header: t.columns.age, width: 14, weight: 0.8, numFmt: "0", text: (v: ExportCell) => (v === null ? "" : String(v)) },
      { key: "status", header: t.columns.status, width: 16, weight: 1 },
    ],
    rows: (async function* () {
      for (const r of rows) yield { name: r.name, number: r.number ?? "", birthday: dayMonth(r.date), age: r.age, status: t.status[statusOf(r, today)] } as Record<string, ExportCell>;
    })(),
  };
}
