/** The shapes the plugin's routes answer, as the UI reads them (the server's are in ../questions.ts and ../report.ts). */
export type { AnswerValue, Question, Questionnaire, QuestionType, ReportType } from "../questions";
export { QUESTION_TYPES, REPORT_TYPES } from "../kinds";
export type { QuestionnaireReport, QuestionReport } from "../report";
