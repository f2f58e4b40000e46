/**
 * The question types and report types (spec §3 Closure question), with no imports: the UI
 * remote reads them too, without the server's code.
 */
export const QUESTION_TYPES = ["text", "textarea", "select", "checkbox", "number", "date", "time", "currency"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const REPORT_TYPE_NAMES = ["bar", "pie", "average", "list"] as const;
export type ReportType = (typeof REPORT_TYPE_NAMES)[number];

/** The report types each question type may be charted by; the first is the default. */
export const REPORT_TYPES: Record<QuestionType, readonly ReportType[]> = {
  text: ["list"],
  textarea: ["list"],
  select: ["bar", "pie", "list"],
  checkbox: ["bar", "pie", "list"],
  number: ["average", "list"],
  currency: ["average", "list"],
  date: ["bar", "list"],
  time: ["bar", "list"],
};
