/**
 * Closure questionnaires (spec §2 /configuracoes/closure-questionnaires, the closing dialog of
 * the attendance screen, /relatorios/relatorio-closure-questionnaires; §3 Closure question and
 * Closure questionnaire). The rules are questions.ts's; this file is the routes and the core's
 * hook and event:
 *
 *   GET    /closure-questionnaires                 the tenant's questionnaires and queues (admin)
 *   POST   /closure-questionnaires                 a new one (admin)
 *   PUT    /closure-questionnaires                 changes one, `id` in the body (admin)
 *   DELETE /closure-questionnaires?id=             deletes one with its answers (admin)
 *   GET    /closure-questionnaires/ticket?ticketId= what closing this ticket asks, with the answers stored
 *   POST   /closure-questionnaires/answers         a ticket's answers, before the agent closes it
 *   GET    /closure-questionnaires/closures?ticketId= a ticket's answers and skipped closes
 *   GET    /relatorios/closure-questionnaires      the report (supervisors and admins)
 *   GET    /relatorios/closure-questionnaires/export?format=xlsx|pdf  the same as a file, streamed
 *
 * The closing dialog posts the answers first, then the shell closes the ticket; the core asks
 * `beforeClose`, which refuses a user's close (ERR_CLOSURE_ANSWERS_REQUIRED) while a required
 * question of the ticket's queue has no stored answer. Mass resolve, automatic and plugins'
 * closes do not ask: `ticket.closed` with that `via` records the close as skipped.
 *
 * Ids travel in the body or the query, not the path (as the kanban's: the core's route sweeps
 * need a fixture per path-id resource). The tenant is always the caller's.
 */
import { randomBytes } from "node:crypto";
import type { Context } from "moleculer";
import { coreApi, definePlugin, openPluginData, PluginError, type PlatformEventEnvelope, type PlatformTicket, type TicketCloseCheck } from "@openatende/plugin-sdk";
import { answerDownload, reportPeriod, streamPdf, streamXlsx } from "@openatende/report-kit";
import {
  checkAnswers,
  DESCRIPTION_MAX,
  missingRequired,
  NAME_MAX,
  normaliseQuestions,
  OPTION_MAX,
  OPTIONS_MAX,
  QUESTION_MAX,
  QUESTION_TYPES,
  QUESTIONS_MAX,
  questionsFor,
  REPORT_TYPE_NAMES,
  type Answers,
  type QuestionInput,
  type Questionnaire,
} from "./questions";
import { ReportBuilder, type QuestionnaireReport } from "./report";
import { exportColumns, exportLines, exportTexts } from "./report-export";
import { QuestionnaireStore, type CloseVia, type SkipRow } from "./store";

type Meta = { user?: { id: number; tenantId: number; profile: string }; locale?: string };
type Ctx<P = Record<string, never>> = Context<P, Meta>;

const id = { type: "number", integer: true, positive: true, convert: true } as const;
const question = {
  type: "object",
  strict: "remove",
  props: {
    id: { type: "string", optional: true, max: 40 },
    question: { type: "string", max: QUESTION_MAX },
    type: { type: "enum", values: QUESTION_TYPES },
    required: { type: "boolean", optional: true },
    options: { type: "array", optional: true, max: OPTIONS_MAX, items: { type: "string", max: OPTION_MAX } },
    showInReport: { type: "boolean", optional: true },
    reportType: { type: "enum", optional: true, values: REPORT_TYPE_NAMES },
    queueIds: { type: "array", optional: true, max: 200, items: id },
  },
} as const;
const fields = {
  name: { type: "string", trim: true, empty: false, max: NAME_MAX },
  description: { type: "string", optional: true, trim: true, max: DESCRIPTION_MAX },
  active: { type: "boolean", optional: true },
  questions: { type: "array", max: QUESTIONS_MAX, items: question },
};

interface QuestionnaireParams {
  name: string;
  description?: string;
  active?: boolean;
  questions: QuestionInput[];
}

const newQuestionId = () => randomBytes(6).toString("hex");

/** The ticket as the caller may see it (the core's visibility settings): another's or a hidden one answers ERR_TICKET_NOT_FOUND. */
function visibleTicket(ctx: Ctx<unknown>, tenantId: number, id: number) {
  return coreApi(ctx).tickets.get({ tenantId, id, ...(ctx.meta.user?.id ? { visibleTo: ctx.meta.user.id } : {}) });
}

function tenantOf(ctx: Ctx<unknown>): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw Object.assign(new Error("ERR_SESSION_REQUIRED"), { type: "ERR_SESSION_REQUIRED", code: 401, data: {} });
  return t;
}

interface Self {
  store: QuestionnaireStore;
}
const storeOf = (svc: unknown) => (svc as Self).store;

/** The questions as stored, their queues checked to be the tenant's (another tenant's: 404). */
async function questionsOf(ctx: Ctx<unknown>, tenantId: number, input: QuestionInput[]) {
  const questions = normaliseQuestions(input, newQuestionId);
  const wanted = new Set(questions.flatMap((q) => q.queueIds));
  if (wanted.size) {
    const mine = new Set((await coreApi(ctx).queues.list({ tenantId })).map((q) => q.id));
    const unknown = [...wanted].filter((q) => !mine.has(q));
    if (unknown.length) throw new PluginError("ERR_CLOSURE_QUEUE_NOT_FOUND", 404, { queueIds: unknown });
  }
  return questions;
}

/** The questionnaires closing this ticket asks (each with the questions of its queue only). */
async function askedFor(store: QuestionnaireStore, tenantId: number, ticket: Pick<PlatformTicket, "queueId">): Promise<Questionnaire[]> {
  return questionsFor(await store.list(tenantId), ticket.queueId);
}

/** The required questions of the ticket's questionnaires still without a stored answer. */
async function missingFor(store: QuestionnaireStore, tenantId: number, ticket: Pick<PlatformTicket, "id" | "queueId">) {
  const asked = await askedFor(store, tenantId, ticket);
  if (!asked.length) return [];
  const stored = await store.answersOf(tenantId, ticket.id);
  return asked.flatMap((qn) => missingRequired(qn, stored.get(qn.id)?.answers).map((q) => ({ questionnaireId: qn.id, questionId: q.id, question: q.question })));
}

const REPORT_PARAMS = {
  questionnaireId: { ...id, optional: true },
  from: { type: "string", optional: true, max: 10 },
  to: { type: "string", optional: true, max: 10 },
  tz: { type: "string", optional: true, max: 64 },
} as const;
type ReportParams = { questionnaireId?: number; from?: string; to?: string; tz?: string };

/**
 * The report's period (a bad one: ERR_CLOSURE_REPORT_PERIOD_INVALID), the tenant's
 * questionnaires, and the chosen one's report (by default the first active): its answers and
 * skips read a chunk at a time into tallies (another tenant's id: 404).
 */
async function reportOf(ctx: Ctx<ReportParams>, store: QuestionnaireStore) {
  const tenantId = tenantOf(ctx);
  const period = reportPeriod(ctx.params, Date.now(), "ERR_CLOSURE_REPORT");
  const all = await store.list(tenantId);
  const questionnaires = all.map((q) => ({ id: q.id, name: q.name, active: q.active }));
  const wanted = ctx.params.questionnaireId;
  const chosen = wanted ? all.find((q) => q.id === wanted) : (all.find((q) => q.active) ?? all[0]);
  if (wanted && !chosen) throw new PluginError("ERR_CLOSURE_QUESTIONNAIRE_NOT_FOUND", 404, { id: wanted });
  let report: QuestionnaireReport | null = null;
  if (chosen) {
    const b = new ReportBuilder(chosen);
    for await (const r of store.answersIn(tenantId, chosen.id, period)) b.addAnswer(r);
    for await (const s of store.skipsIn(tenantId, chosen.id, period)) b.addSkip(s);
    report = b.result();
  }
  return { period, questionnaires, report };
}

const answersRequired = (missing: Array<{ questionnaireId: number; questionId: string; question: string }>) =>
  new PluginError("ERR_CLOSURE_ANSWERS_REQUIRED", 422, { questions: missing.map((m) => `"${m.question}"`).join(", "), missing });

export const closureQuestionnairesPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/" },
    async started() {
      (this as unknown as Self).store = new QuestionnaireStore(await openPluginData(this));
    },
    actions: {
      list: {
        rest: "GET /closure-questionnaires",
        access: "admin",
        async handler(ctx: Ctx) {
          const tenantId = tenantOf(ctx);
          const [questionnaires, queues] = await Promise.all([storeOf(this).list(tenantId), coreApi(ctx).queues.list({ tenantId })]);
          return { questionnaires, queues: queues.map((q) => ({ id: q.id, name: q.name, color: q.color })) };
        },
      },
      create: {
        rest: "POST /closure-questionnaires",
        access: "admin",
        params: fields,
        async handler(ctx: Ctx<QuestionnaireParams>) {
          const tenantId = tenantOf(ctx);
          const p = ctx.params;
          const questions = await questionsOf(ctx, tenantId, p.questions);
          return storeOf(this).create(tenantId, { name: p.name, description: p.description ?? "", active: p.active ?? true, questions });
        },
      },
      update: {
        rest: "PUT /closure-questionnaires",
        access: "admin",
        params: { id, name: { ...fields.name, optional: true }, description: fields.description, active: fields.active, questions: { ...fields.questions, optional: true } },
        async handler(ctx: Ctx<Partial<QuestionnaireParams> & { id: number }>) {
          const tenantId = tenantOf(ctx);
          const p = ctx.params;
          const store = storeOf(this);
          const before = await store.get(tenantId, p.id);
          // A question sent with its id keeps it (and its answers); the others are new.
          const known = new Set(before.questions.map((q) => q.id));
          const input = p.questions?.map((q) => (q.id && known.has(q.id) ? q : { ...q, id: undefined }));
          const questions = input ? await questionsOf(ctx, tenantId, input) : undefined;
          return store.update(tenantId, p.id, {
            ...(p.name !== undefined ? { name: p.name } : {}),
            ...(p.description !== undefined ? { description: p.description } : {}),
            ...(p.active !== undefined ? { active: p.active } : {}),
            ...(questions ? { questions } : {}),
          });
        },
      },
      remove: {
        rest: "DELETE /closure-questionnaires",
        access: "admin",
        params: { id },
        async handler(ctx: Ctx<{ id: number }>) {
          await storeOf(this).remove(tenantOf(ctx), ctx.params.id);
          return { deleted: true };
        },
      },
      /** What closing the ticket asks (none: the dialog lets the close go on at once). */
      forTicket: {
        rest: "GET /closure-questionnaires/ticket",
        access: "user",
        params: { ticketId: id },
        async handler(ctx: Ctx<{ ticketId: number }>) {
          const tenantId = tenantOf(ctx);
          const ticket = await visibleTicket(ctx, tenantId, ctx.params.ticketId);
          const store = storeOf(this);
          const asked = await askedFor(store, tenantId, ticket);
          const stored = asked.length ? await store.answersOf(tenantId, ticket.id) : new Map();
          return { ticketId: ticket.id, questionnaires: asked.map((qn) => ({ ...qn, answers: stored.get(qn.id)?.answers ?? {} })) };
        },
      },
      /** A ticket's answers, given before its close: each checked, the required ones present. */
      answer: {
        rest: "POST /closure-questionnaires/answers",
        access: "user",
        params: {
          ticketId: id,
          answers: { type: "array", max: 20, items: { type: "object", props: { questionnaireId: id, values: { type: "object" } } } },
        },
        async handler(ctx: Ctx<{ ticketId: number; answers: Array<{ questionnaireId: number; values: Record<string, unknown> }> }>) {
          const tenantId = tenantOf(ctx);
          const ticket = await visibleTicket(ctx, tenantId, ctx.params.ticketId);
          if (ticket.status === "closed") throw new PluginError("ERR_CLOSURE_TICKET_CLOSED", 409, { ticketId: ticket.id });
          const store = storeOf(this);
          const asked = new Map((await askedFor(store, tenantId, ticket)).map((qn) => [qn.id, qn]));
          const rows: Array<{ ticketId: number; questionnaireId: number; queueId: number | null; userId: number | null; answers: Answers }> = [];
          for (const a of ctx.params.answers) {
            const qn = asked.get(a.questionnaireId);
            if (!qn) throw new PluginError("ERR_CLOSURE_QUESTIONNAIRE_NOT_FOUND", 404, { id: a.questionnaireId });
            const answers = checkAnswers(qn, a.values);
            const missing = missingRequired(qn, answers);
            if (missing.length) throw answersRequired(missing.map((q) => ({ questionnaireId: qn.id, questionId: q.id, question: q.question })));
            rows.push({ ticketId: ticket.id, questionnaireId: qn.id, queueId: ticket.queueId, userId: ctx.meta.user?.id ?? null, answers });
          }
          const answeredAt = rows.length ? await store.saveAnswers(tenantId, rows) : null;
          return { ticketId: ticket.id, answeredAt, missing: await missingFor(store, tenantId, ticket) };
        },
      },
      /** What is stored with a ticket: its answers and the closes that skipped the questionnaire. */
      closures: {
        rest: "GET /closure-questionnaires/closures",
        access: "user",
        params: { ticketId: id },
        async handler(ctx: Ctx<{ ticketId: number }>) {
          const tenantId = tenantOf(ctx);
          const ticket = await visibleTicket(ctx, tenantId, ctx.params.ticketId);
          const store = storeOf(this);
          const [answers, skips] = await Promise.all([store.answersOf(tenantId, ticket.id), store.skipsOfTicket(tenantId, ticket.id)]);
          return {
            ticketId: ticket.id,
            answers: [...answers.values()].map((r) => ({ questionnaireId: r.questionnaireId, answers: r.answers, userId: r.userId, queueId: r.queueId, answeredAt: r.answeredAt })),
            skipped: skips.map((s) => ({ questionnaireId: s.questionnaireId, via: s.via, at: s.at })),
          };
        },
      },
      /** The report: the tenant's questionnaires, and one's answers by question in the period. */
      report: {
        rest: "GET /relatorios/closure-questionnaires",
        access: "supervisor",
        // The reports are BASIC, as every report plugin's (the questionnaires themselves are FREE).
        tier: "BASIC",
        params: REPORT_PARAMS,
        async handler(ctx: Ctx<ReportParams>) {
          const r = await reportOf(ctx, storeOf(this));
          return { period: { from: r.period.from, to: r.period.to }, questionnaires: r.questionnaires, report: r.report };
        },
      },
      /** The report as Excel or PDF, streamed, in the caller's language (no questionnaire: the totals' lines only, zero). */
      reportExport: {
        rest: "GET /relatorios/closure-questionnaires/export",
        access: "supervisor",
        tier: "BASIC",
        params: { ...REPORT_PARAMS, format: { type: "enum", values: ["xlsx", "pdf"] } },
        async handler(ctx: Ctx<ReportParams & { format: "xlsx" | "pdf" }>) {
          const t = exportTexts(ctx.meta.locale);
          const r = await reportOf(ctx, storeOf(this));
          const report = r.report ?? new ReportBuilder({ id: 0, name: "", description: "", active: false, questions: [] }).result();
          const p = r.period;
          const name = r.report ? `${t.title} — ${r.report.questionnaire.name}` : t.title;
          const rows = (async function* () {
            yield* exportLines(report, t, p.timeZone);
          })();
          const spec = { title: name, subtitle: `${t.period}: ${p.from.split("-").reverse().join("/")} – ${p.to.split("-").reverse().join("/")}`, columns: exportColumns(t), rows };
          const stream = ctx.params.format === "xlsx" ? streamXlsx(spec) : streamPdf(spec, { pageLabel: t.page });
          answerDownload(ctx, ctx.params.format, `${name} ${p.from} ${p.to}.${ctx.params.format}`);
          return stream;
        },
      },
    },
  },
  hooks: {
    /** An agent's close: refused while a required question of the ticket's queue has no stored answer. */
    async beforeClose(check: TicketCloseCheck, ctx: Context) {
      const missing = await missingFor(storeOf(ctx.service), check.tenantId, check.ticket);
      if (missing.length) throw answersRequired(missing);
    },
  },
  platformEvents: {
    /** A close that did not ask (mass resolve, automatic, a plugin's) of a ticket a questionnaire applies to: recorded as skipped. */
    async "ticket.closed"(envelope: PlatformEventEnvelope<"ticket.closed">, ctx: Context) {
      const via: CloseVia = envelope.data.via;
      if (via === "agent") return;
      const ticket = envelope.data.ticket;
      const store = storeOf(ctx.service);
      const asked = await askedFor(store, envelope.tenantId, ticket);
      const rows: SkipRow[] = asked.map((qn) => ({ eventId: envelope.id.slice(0, 100), questionnaireId: qn.id, ticketId: ticket.id, queueId: ticket.queueId, via, at: envelope.at }));
      await store.recordSkips(envelope.tenantId, rows);
    },
  },
});

export default closureQuestionnairesPlugin;
