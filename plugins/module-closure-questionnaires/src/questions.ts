/**
 * The rules of closure questionnaires (spec §3 "Closure question" and "Closure questionnaire"),
 * in one place: what a question may be, which questions a ticket's close asks, what answer a
 * question takes, and which required answers are still missing. Pure: no database, no broker,
 * so the server (routes, beforeClose) and the unit tests use the same code.
 *
 * - A question has a type (text, textarea, select, checkbox, number, date, time, currency), a
 *   required flag, options (select and checkbox only: at least one, no repeats), a "show in
 *   report" flag with the report type it is charted by (REPORT_TYPES lists what each type
 *   allows), and the queues it applies to (none: every queue, and tickets without a queue).
 * - A questionnaire (name, description, active, its ordered questions) applies to a ticket when
 *   it is active and at least one of its questions applies to the ticket's queue; the close
 *   asks those questions, in their order.
 */
import { PluginError } from "@openatende/plugin-sdk";

import { QUESTION_TYPES, REPORT_TYPE_NAMES, REPORT_TYPES, type QuestionType, type ReportType } from "./kinds";

export { QUESTION_TYPES, REPORT_TYPE_NAMES, REPORT_TYPES, type QuestionType, type ReportType };

export const NAME_MAX = 120;
export const DESCRIPTION_MAX = 500;
export const QUESTION_MAX = 300;
export const QUESTIONS_MAX = 50;
export const OPTIONS_MAX = 30;
export const OPTION_MAX = 100;
/** Longest answer of a text and of a textarea question. */
export const TEXT_MAX = 500;
export const TEXTAREA_MAX = 4000;
/** Largest number and currency answer (absolute value). */
export const NUMBER_MAX = 1e12;

export interface Question {
  /** Stable within its questionnaire: answers are stored by it. */
  id: string;
  question: string;
  type: QuestionType;
  required: boolean;
  options: string[];
  showInReport: boolean;
  reportType: ReportType;
  queueIds: number[];
}

export interface Questionnaire {
  id: number;
  name: string;
  description: string;
  active: boolean;
  questions: Question[];
}

/** A question as an admin sends it (id absent for a new one). */
export interface QuestionInput {
  id?: string;
  question: string;
  type: QuestionType;
  required?: boolean;
  options?: string[];
  showInReport?: boolean;
  reportType?: ReportType;
  queueIds?: number[];
}

/** What an answer may hold: a text, the options ticked, a number. */
export type AnswerValue = string | number | string[];
/** A questionnaire's answers by question id. */
export type Answers = Record<string, AnswerValue>;

const invalid = (position: number, reason: string) => new PluginError("ERR_CLOSURE_QUESTION_INVALID", 400, { position, reason });

/** The questions as stored: checked, trimmed, ids kept or given, defaults filled in. */
export function normaliseQuestions(input: QuestionInput[], newId: () => string): Question[] {
  const seen = new Set<string>();
  return input.map((q, n) => {
    const position = n + 1;
    const text = q.question.trim();
    if (!text) throw invalid(position, "question");
    const withOptions = q.type === "select" || q.type === "checkbox";
    const options = withOptions ? (q.options ?? []).map((o) => o.trim()).filter((o) => o !== "") : [];
    if (withOptions && options.length === 0) throw invalid(position, "options");
    if (new Set(options.map((o) => o.toLocaleLowerCase())).size !== options.length) throw invalid(position, "options");
    const reportType = q.reportType ?? REPORT_TYPES[q.type][0];
    if (!REPORT_TYPES[q.type].includes(reportType)) throw invalid(position, "reportType");
    let id = q.id && !seen.has(q.id) ? q.id : newId();
    while (seen.has(id)) id = newId();
    seen.add(id);
    return { id, question: text, type: q.type, required: !!q.required, options, showInReport: q.showInReport ?? true, reportType, queueIds: [...new Set(q.queueIds ?? [])] };
  });
}

/** Does the question apply to a ticket of this queue (null: a ticket without a queue). */
export const appliesToQueue = (q: Question, queueId: number | null) => q.queueIds.length === 0 || (queueId !== null && q.queueIds.includes(queueId));

/** The questionnaires a close of a ticket of this queue asks, each with only the questions that apply. */
export function questionsFor(all: Questionnaire[], queueId: number | null): Questionnaire[] {
  return all
    .filter((qn) => qn.active)
    .map((qn) => ({ ...qn, questions: qn.questions.filter((q) => appliesToQueue(q, queueId)) }))
    .filter((qn) => qn.questions.length > 0);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/** Is the value "no answer" (absent, empty text, nothing ticked). */
export function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === "string" && v.trim() === "") || (Array.isArray(v) && v.length === 0);
}

/**
 * The answer as stored, or a PluginError naming the question: a text of its length; one of
 * the options (select); some of the options (checkbox, in the options' order); a finite number
 * (currency: rounded to cents); a real date "YYYY-MM-DD"; a time "HH:MM". Blank answers are
 * returned as undefined (whether one may be blank is `missingRequired`'s business).
 */
export function checkAnswer(q: Question, v: unknown): AnswerValue | undefined {
  if (isBlank(v)) return undefined;
  const bad = () => new PluginError("ERR_CLOSURE_ANSWER_INVALID", 400, { questionId: q.id, question: q.question, type: q.type });
  switch (q.type) {
    case "text":
    case "textarea": {
      if (typeof v !== "string") throw bad();
      const s = v.trim();
      if (s.length > (q.type === "text" ? TEXT_MAX : TEXTAREA_MAX)) throw bad();
      return s;
    }
    case "select":
      if (typeof v !== "string" || !q.options.includes(v)) throw bad();
      return v;
    case "checkbox": {
      const list = Array.isArray(v) ? v : [v];
      if (!list.every((x) => typeof x === "string" && q.options.includes(x))) throw bad();
      return q.options.filter((o) => list.includes(o));
    }
    case "number":
    case "currency": {
      const n = typeof v === "number" ? v : typeof v === "string" && /^-?\d+([.,]\d+)?$/.test(v.trim()) ? Number(v.trim().replace(",", ".")) : NaN;
      if (!Number.isFinite(n) || Math.abs(n) > NUMBER_MAX) throw bad();
      return q.type === "currency" ? Math.round(n * 100) / 100 : n;
    }
    case "date":
      if (typeof v !== "string" || !isDate(v)) throw bad();
      return v;
    case "time":
      if (typeof v !== "string" || !TIME.test(v)) throw bad();
      return v;
  }
}

/** A questionnaire's answers as stored: each checked, unknown questions and blanks dropped. */
export function checkAnswers(qn: Questionnaire, given: Record<string, unknown>): Answers {
  const out: Answers = {};
  for (const q of qn.questions) {
    const v = checkAnswer(q, given[q.id]);
    if (v !== undefined) out[q.id] = v;
  }
  return out;
}

/** The required questions of `qn` (as it applies to the ticket) without an answer in `answers`. */
export function missingRequired(qn: Questionnaire, answers: Answers | undefined): Question[] {
  return qn.questions.filter((q) => q.required && isBlank(answers?.[q.id]));
}
