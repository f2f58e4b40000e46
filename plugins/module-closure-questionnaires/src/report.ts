/**
 * The closure questionnaires report (spec §2 /relatorios/relatorio-closure-questionnaires):
 * one questionnaire's answers in a period, by question, each summed up the way its report type
 * asks — counts per option or value (bar, pie), average with minimum, maximum and sum (number,
 * currency), or the latest answers (list) — with how many tickets were answered and how many
 * closes skipped the questionnaire, by how they closed. Questions not shown in the report are
 * left out. Pure: the rows come from the store.
 */
import { formatDecimal } from "@openatende/report-kit";
import { isBlank, type AnswerValue, type Question, type Questionnaire, type ReportType } from "./questions";
import type { AnswerRow, CloseVia, SkipRow } from "./store";

/** The most answers a list question shows. */
export const LIST_MAX = 50;

export interface QuestionReport {
  id: string;
  question: string;
  type: Question["type"];
  reportType: ReportType;
  /** Tickets with an answer to this question. */
  answered: number;
  /** bar, pie: count per option (every option, in its order) or per value (date, time: in order). */
  counts?: Array<{ label: string; count: number }>;
  /** average: figures as numbers and in the pt-BR format. */
  stats?: { average: number; min: number; max: number; sum: number; text: { average: string; min: string; max: string; sum: string } };
  /** list: the latest answers first. */
  values?: Array<{ ticketId: number; value: string; answeredAt: number }>;
}

export interface QuestionnaireReport {
  questionnaire: { id: number; name: string; description: string; active: boolean };
  /** Tickets answered in the period. */
  answered: number;
  /** Closes that did not ask, in the period, by how the ticket closed. */
  skipped: { total: number; mass: number; automatic: number; plugin: number };
  questions: QuestionReport[];
}

const asText = (v: AnswerValue): string => (Array.isArray(v) ? v.join(", ") : typeof v === "number" ? formatDecimal(v, 2) : v);

function counts(q: Question, values: AnswerValue[]): Array<{ label: string; count: number }> {
  const by = new Map<string, number>();
  if (q.type === "select" || q.type === "checkbox") for (const o of q.options) by.set(o, 0);
  for (const v of values) for (const label of Array.isArray(v) ? v : [String(v)]) by.set(label, (by.get(label) ?? 0) + 1);
  const out = [...by].map(([label, count]) => ({ label, count }));
  // Options keep their order; dates and times read best in theirs.
  return q.type === "date" || q.type === "time" ? out.sort((a, b) => a.label.localeCompare(b.label)) : out;
}

function stats(values: AnswerValue[]): QuestionReport["stats"] {
  const nums = values.map(Number).filter((n) => Number.isFinite(n));
  if (!nums.length) return undefined;
  const sum = nums.reduce((a, n) => a + n, 0);
  const average = sum / nums.length;
  const min = Math.min(...nums);
  const max = Math.max(...nums);
  const f = (n: number) => formatDecimal(n, 2);
  return { average, min, max, sum, text: { average: f(average), min: f(min), max: f(max), sum: f(sum) } };
}

/** The report of `qn` over the answers and skips given (already those of its period), newest first. */
export function questionnaireReport(qn: Questionnaire, answers: AnswerRow[], skips: SkipRow[]): QuestionnaireReport {
  const skipped = { total: skips.length, mass: 0, automatic: 0, plugin: 0 };
  for (const s of skips) if (s.via !== "agent") skipped[s.via as Exclude<CloseVia, "agent">] += 1;
  const newest = [...answers].sort((a, b) => b.answeredAt - a.answeredAt);
  const questions = qn.questions
    .filter((q) => q.showInReport)
    .map((q): QuestionReport => {
      const given = newest.filter((r) => !isBlank(r.answers?.[q.id]));
      const values = given.map((r) => r.answers[q.id]);
      const base: QuestionReport = { id: q.id, question: q.question, type: q.type, reportType: q.reportType, answered: given.length };
      if (q.reportType === "bar" || q.reportType === "pie") return { ...base, counts: counts(q, values) };
      if (q.reportType === "average") return { ...base, stats: stats(values) };
      return { ...base, values: given.slice(0, LIST_MAX).map((r) => ({ ticketId: r.ticketId, value: asText(r.answers[q.id]), answeredAt: r.answeredAt })) };
    });
  return { questionnaire: { id: qn.id, name: qn.name, description: qn.description, active: qn.active }, answered: answers.length, skipped, questions };
}
