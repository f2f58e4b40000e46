/**
 * The closure questionnaires report as an Excel or PDF file (report-kit's streamed exports): what
 * the screen shows, as one table in the reader's language — the tickets answered and the closes
 * that skipped the questionnaire (by how), then each question's card: a line per option or value
 * with its count (bar, pie), average, minimum, maximum and sum (average), or its latest answers
 * with the ticket and when (list).
 */
import { formatDateTime, formatDecimal, type ExportCell, type ExportColumn } from "@openatende/report-kit";
import type { QuestionnaireReport } from "./report";

export const EXPORT_LOCALES = ["pt-BR", "en", "es", "ru"] as const;
type Locale = (typeof EXPORT_LOCALES)[number];

const ptBR = {
  title: "Questionários de encerramento",
  period: "Período",
  page: "Página",
  columns: { question: "Pergunta", answered: "Respostas", item: "Item", value: "Valor" },
  answered: "Tickets respondidos",
  skipped: "Encerrados sem questionário",
  mass: "Resolvidos em massa",
  automatic: "Encerrados automaticamente",
  plugin: "Encerrados por integrações",
  average: "Média",
  min: "Mínimo",
  max: "Máximo",
  sum: "Soma",
  ticket: "Ticket",
};
type ExportTexts = typeof ptBR;

const en: ExportTexts = {
  title: "Closure questionnaires",
  period: "Period",
  page: "Page",
  columns: { question: "Question", answered: "Answers", item: "Item", value: "Value" },
  answered: "Tickets answered",
  skipped: "Closed without questionnaire",
  mass: "Resolved in bulk",
  automatic: "Closed automatically",
  plugin: "Closed by integrations",
  average: "Average",
  min: "Minimum",
  max: "Maximum",
  sum: "Sum",
  ticket: "Ticket",
};

const es: ExportTexts = {
  title: "Cuestionarios de cierre",
  period: "Período",
  page: "Página",
  columns: { question: "Pregunta", answered: "Respuestas", item: "Ítem", value: "Valor" },
  answered: "Tickets respondidos",
  skipped: "Cerrados sin cuestionario",
  mass: "Resueltos en masa",
  automatic: "Cerrados automáticamente",
  plugin: "Cerrados por integraciones",
  average: "Promedio",
  min: "Mínimo",
  max: "Máximo",
  sum: "Suma",
  ticket: "Ticket",
};

const ru: ExportTexts = {
  title: "Анкеты закрытия",
  period: "Период",
  page: "Страница",
  columns: { question: "Вопрос", answered: "Ответов", item: "Пункт", value: "Значение" },
  answered: "Тикетов с ответами",
  skipped: "Закрыто без анкеты",
  mass: "Закрыто массово",
  automatic: "Закрыто автоматически",
  plugin: "Закрыто интеграциями",
  average: "Среднее",
  min: "Минимум",
  max: "Максимум",
  sum: "Сумма",
  ticket: "Тикет",
};

export const EXPORT_TEXTS: Record<Locale, ExportTexts> = { "pt-BR": ptBR, en, es, ru };

export function exportTexts(locale?: string): ExportTexts {
  return EXPORT_TEXTS[(EXPORT_LOCALES as readonly string[]).includes(locale ?? "") ? (locale as Locale) : "pt-BR"];
}

export function exportColumns(t: ExportTexts): ExportColumn[] {
  const value = (v: ExportCell) => (typeof v === "number" ? (Number.isInteger(v) ? String(v) : formatDecimal(v, 2)) : v === null ? "" : String(v));
  return [
    { key: "question", header: t.columns.question, width: 36, weight: 2 },
    { key: "answered", header: t.columns.answered, width: 12, weight: 0.7 },
    { key: "item", header: t.columns.item, width: 30, weight: 1.6 },
    { key: "value", header: t.columns.value, width: 40, weight: 2, text: value },
  ];
}

type Line = Record<string, ExportCell>;

/** The export's lines of a report, one at a time (the report itself is already tallied: bounded). */
export function* exportLines(r: QuestionnaireReport, t: ExportTexts, timeZone: string): Generator<Line> {
  const line = (question: string, answered: number | null, item: string, value: ExportCell): Line => ({ question, answered, item, value });
  yield line(t.answered, null, "", r.answered);
  yield line(t.skipped, null, "", r.skipped.total);
  for (const k of ["mass", "automatic", "plugin"] as const) yield line(t.skipped, null, t[k], r.skipped[k]);
  for (const q of r.questions) {
    if (q.counts) for (const c of q.counts) yield line(q.question, q.answered, c.label, c.count);
    else if (q.stats) for (const k of ["average", "min", "max", "sum"] as const) yield line(q.question, q.answered, t[k], Math.round(q.stats[k] * 100) / 100);
    else if (q.values?.length) for (const v of q.values) yield line(q.question, q.answered, `${t.ticket} #${v.ticketId} — ${formatDateTime(v.answeredAt, timeZone)}`, v.value);
    else yield line(q.question, q.answered, "", null);
  }
}
