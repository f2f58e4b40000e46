/**
 * The closure questionnaires report (spec §2 /relatorios/relatorio-closure-questionnaires):
 * one questionnaire's answers in a period, by question, each summed up the way its report type
 * asks — counts per option or value (bar, pie), average with minimum, maximum and sum (number,
 * currency), or the latest answers (list) — with how many tickets were answered and how many
 * closes skipped the questionnaire, by how they closed. Questions not shown in the report are
 * left out. Pure: the rows come from the store a batch at a time (ReportBuilder holds tallies,
 * never the answers).
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

/** One question's figures as answers come in: counts, a running sum, or the first LIST_MAX answers. */
class QuestionTally {
  answered = 0;
  private readonly counts = new Map<string, number>();
  private sum = 0;
  private n = 0;
  private min = Infinity;
  private max = -Infinity;
  private readonly values: NonNullable<QuestionReport["values"]> = [];

  constructor(private readonly q: Question) {
    if (q.type === "select" || q.type === "checkbox") for (const o of q.options) this.counts.set(o, 0);
  }

  add(r: Pick<AnswerRow, "ticketId" | "answers" | "answeredAt">): void {
    const v = r.answers?.[this.q.id];
    if (isBlank(v)) return;
    this.answered++;
    const kind = this.q.reportType;
    if (kind === "bar" || kind === "pie") {
      for (const label of Array.isArray(v) ? v : [String(v)]) this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
    } else if (kind === "average") {
      const x = Number(v);
      if (!Number.isFinite(x)) return;
      this.n++;
      this.sum += x;
      this.min = Math.min(this.min, x);
      this.max = Math.max(this.max, x);
    } else if (this.values.length < LIST_MAX) this.values.push({ ticketId: Number(r.ticketId), value: asText(v as AnswerValue), answeredAt: Number(r.answeredAt) });
  }

  result(): QuestionReport {
    const q = this.q;
    const base: QuestionReport = { id: q.id, question: q.question, type: q.type, reportType: q.reportType, answered: this.answered };
    if (q.reportType === "bar" || q.reportType === "pie") {
      const out = [...this.counts].map(([label, count]) => ({ label, count }));
      // Options keep their order; dates and times read best in theirs.
      return { ...base, counts: q.type === "date" || q.type === "time" ? out.sort((a, b) => a.label.localeCompare(b.label)) : out };
    }
    if (q.reportType === "average") {
      if (!this.n) return { ...base, stats: undefined };
      const average = this.sum / this.n;
      const f = (n: number) => formatDecimal(n, 2);
      return { ...base, stats: { average, min: this.min, max: this.max, sum: this.sum, text: { average: f(average), min: f(this.min), max: f(this.max), sum: f(this.sum) } } };
    }
    return { ...base, values: this.values };
  }
}

/**
 * The report of `qn` built as its answers and skips are read, a batch at a time: it holds one
 * tally per question (counts per option or value, a sum, the first LIST_MAX answers), never the
 * answers. The answers come newest first (the list shows the latest).
 */
export class ReportBuilder {
  private answered = 0;
  private readonly skipped = { total: 0, mass: 0, automatic: 0, plugin: 0 };
  private readonly tallies: QuestionTally[];

  constructor(private readonly qn: Questionnaire) {
    this.tallies = qn.questions.filter((q) => q.showInReport).map((q) => new QuestionTally(q));
  }

  addAnswer(r: Pick<AnswerRow, "ticketId" | "answers" | "answeredAt">): void {
    this.answered++;
    for (const t of this.tallies) t.add(r);
  }

  addSkip(s: Pick<SkipRow, "via">): void {
    this.skipped.total++;
    if (s.via !== "agent") this.skipped[s.via as Exclude<CloseVia, "agent">] += 1;
  }

  result(): QuestionnaireReport {
    const qn = this.qn;
    return { questionnaire: { id: qn.id, name: qn.name, description: qn.description, active: qn.active }, answered: this.answered, skipped: { ...this.skipped }, questions: this.tallies.map((t) => t.result()) };
  }
}

/** The report of `qn` over the answers and skips given (already those of its period). */
export function questionnaireReport(qn: Questionnaire, answers: AnswerRow[], skips: SkipRow[]): QuestionnaireReport {
  const b = new ReportBuilder(qn);
  for (const r of [...answers].sort((a, b) => b.answeredAt - a.answeredAt)) b.addAnswer(r);
  for (const s of skips) b.addSkip(s);
  return b.result();
}
